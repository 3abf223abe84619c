// Square: x-square-hmacsha256-signature = base64 HMAC-SHA256(the subscription's Signature
// key, notification URL + raw body). The notification URL is the one set on the subscription,
// exactly. (The legacy x-square-signature used SHA-1.) No timestamp. ngrok's integration page
// asks for an "Access token", but Square signs with the Signature key.
// https://developer.squareup.com/docs/webhooks/step3validate ; official library
// square/square-nodejs-sdk src/wrapper/WebhooksHelper.ts (verifySignature: notificationUrl + requestBody).
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  needSecret,
  safeEqual,
  urlDiffers,
  urlVariants,
  VERIFIED,
} from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "x-square-hmacsha256-signature";
const LEGACY = "x-square-signature";
const sig = (key: string, url: string, body: Buffer) => hmac("sha256", key, url, body).toString("base64");

export const scheme: Scheme = {
  provider: "square",
  name: "Square",
  headers: [SIG],
  key: "secret",
  signsUrl: true,
  sources: [
    "https://developer.squareup.com/docs/webhooks/step3validate",
    "square/square-nodejs-sdk src/wrapper/WebhooksHelper.ts",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("Square signs with the subscription's Signature key: give one");
    return { [SIG]: sig(input.secret, input.url, input.body) };
  },
  verify(input) {
    const { request } = input;
    const given = header(request, SIG);
    if (given === undefined) {
      return missingHeader(SIG, header(request, LEGACY) ? "only the legacy x-square-signature (SHA-1) is present" : "");
    }
    if (!/^[A-Za-z0-9+/]{43}=$/.test(given.trim()))
      return fail("malformed-header", `${SIG} is not a base64 SHA-256 HMAC (44 characters)`);
    const missing = needSecret(input, "Square signs with the subscription's Signature key");
    if (missing) return missing;
    const key = input.secret!;
    const matches = (url: string, body = request.body) => safeEqual(sig(key, url, body), given.trim());
    if (matches(request.url)) return VERIFIED;
    for (const variant of urlVariants(request.url, request.headers)) {
      if (matches(variant.url)) return urlDiffers(request.url, variant);
    }
    return mismatch({
      name: "Square",
      secretName: "this Signature key",
      signed: `HMAC-SHA256 of the notification URL ${request.url} + the raw body`,
      also: "if the URL differs from the subscription's notification URL, give that one",
      body: request.body,
      secret: key,
      matches: (body) => matches(request.url, body),
    });
  },
};

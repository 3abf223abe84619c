// HubSpot, signature v3: `X-HubSpot-Signature-v3: <base64>`, HMAC-SHA256 under the app's client
// secret of method + URL + raw body + `X-HubSpot-Request-Timestamp` (Unix milliseconds); a request
// older than 5 minutes is refused. Sources: HubSpot/hubspot-api-nodejs src/utils/signature.ts
// @395cd9b (getSignature 'v3': `method + options.url + options.requestBody + options.timestamp`,
// createHmac('sha256', clientSecret) … digest('base64'); MAX_ALLOWED_TIMESTAMP = 300000);
// developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures (the two headers).
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  needSecret,
  safeEqual,
  timestampCheck,
  unixSeconds,
  urlDiffers,
  urlVariants,
  VERIFIED,
} from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIGNATURE = "X-HubSpot-Signature-v3";
const TIMESTAMP = "X-HubSpot-Request-Timestamp";
const TOLERANCE = 300;

const digest = (secret: string, method: string, url: string, body: Buffer, ms: string) =>
  hmac("sha256", secret, method, url, body, ms).toString("base64");

export const scheme: Scheme = {
  provider: "hubspot",
  name: "HubSpot",
  headers: [SIGNATURE, TIMESTAMP],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  signsUrl: true,
  sources: [
    "https://developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures",
    "HubSpot/hubspot-api-nodejs src/utils/signature.ts",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("HubSpot signs with the app's client secret: give one");
    const ms = String(input.timestamp * 1000);
    return { [SIGNATURE]: digest(input.secret, "POST", input.url, input.body, ms), [TIMESTAMP]: ms };
  },
  verify(input) {
    const { request } = input;
    const signature = header(request, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    const ms = header(request, TIMESTAMP)?.trim();
    if (ms === undefined) return missingHeader(TIMESTAMP);
    const sent = unixSeconds(ms, 16);
    if (sent === undefined) return fail("malformed-header", `${TIMESTAMP} is not a number of milliseconds`);
    const missing = needSecret(input, "HubSpot signs with the app's client secret");
    if (missing) return missing;
    const secret = input.secret!;
    const method = request.method.toUpperCase();
    const stale = timestampCheck(sent / 1000, input.now, TOLERANCE, false, `the ${TIMESTAMP} (ms) / 1000`);
    const matches = (url: string, body = request.body) =>
      safeEqual(signature.trim(), digest(secret, method, url, body, ms));
    if (matches(request.url)) return stale ?? VERIFIED;
    for (const variant of urlVariants(request.url, request.headers)) {
      if (matches(variant.url)) return urlDiffers(request.url, variant);
    }
    return mismatch({
      name: "HubSpot",
      secretName: "this client secret",
      signed: `HMAC-SHA256 of ${method} + ${request.url} + the raw body + ${TIMESTAMP}`,
      also: "if HubSpot called another URL than this one, give it with --url",
      body: request.body,
      secret,
      matches: (body) => matches(request.url, body),
      ...(stale ? { stale } : {}),
    });
  },
};

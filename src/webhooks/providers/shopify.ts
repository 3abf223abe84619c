// Shopify: X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256(secret, raw body) — the app's client
// secret, or for store-made webhooks the key the store's notifications page shows. No timestamp.
// https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify ;
// official library Shopify/shopify-app-js packages/apps/shopify-api/lib/webhooks/validate.ts,
// lib/utils/hmac-validator.ts.
import { fail, header, hmac, mismatch, missingHeader, needSecret, safeEqual, VERIFIED } from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "X-Shopify-Hmac-Sha256";
const sig = (secret: string, body: Buffer) => hmac("sha256", secret, body).toString("base64");

export const scheme: Scheme = {
  provider: "shopify",
  name: "Shopify",
  headers: [SIG],
  key: "secret",
  sources: [
    "https://shopify.dev/docs/apps/build/webhooks/subscribe/https",
    "Shopify/shopify-app-js packages/apps/shopify-api/lib/webhooks/validate.ts",
  ],
  sign(input) {
    if (!input.secret)
      throw new SignError("Shopify signs with the app's client secret (or the store's webhook key): give one");
    return { [SIG]: sig(input.secret, input.body) };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined) return missingHeader(SIG);
    if (!/^[A-Za-z0-9+/]{43}=$/.test(given.trim()))
      return fail("malformed-header", `${SIG} is not a base64 SHA-256 HMAC (44 characters)`);
    const missing = needSecret(input, "Shopify signs with the app's client secret");
    if (missing) return missing;
    const secret = input.secret!;
    const matches = (body: Buffer) => safeEqual(sig(secret, body), given.trim());
    if (matches(input.request.body)) return VERIFIED;
    return mismatch({
      name: "Shopify",
      secretName: "this client secret",
      signed: "HMAC-SHA256 (base64) of the raw body",
      body: input.request.body,
      secret,
      own: /^shpss_/,
      matches,
    });
  },
};

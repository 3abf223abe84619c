// CircleCI: `circleci-signature: v1=<hex>` (a comma-separated list of versioned signatures), the
// HMAC-SHA256 of the raw body under the webhook's secret; no timestamp. Sources:
// circleci.com/docs/webhooks/ ("Validate webhooks": "circleci-signature: v1=YOUR_HMAC_SHA256_DIGEST");
// CircleCI-Public/webhooks-consumer-sample server.js (the docs' sample receiver).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "circleci",
  name: "CircleCI",
  header: "circleci-signature",
  algorithm: "sha256",
  encoding: "hex",
  prefix: "v1=",
  separator: ",",
  sources: [
    "https://circleci.com/docs/webhooks/ (Validate webhooks)",
    "CircleCI-Public/webhooks-consumer-sample server.js",
  ],
});

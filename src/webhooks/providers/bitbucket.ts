// Bitbucket Cloud: `X-Hub-Signature: sha256=<hex>`, HMAC-SHA256 of the raw body under the webhook's
// secret; no timestamp. Sources: support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/
// ("Secure webhooks": "The header X-Hub-Signature … sha256=…", HMAC of the body with the secret);
// bitbucket.org/blog/enhanced-webhook-security (2023). Bitbucket publishes no library or vector.
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "bitbucket",
  name: "Bitbucket",
  header: "X-Hub-Signature",
  algorithm: "sha256",
  encoding: "hex",
  prefix: "sha256=",
  sources: [
    "https://support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/ (Secure webhooks)",
    "https://bitbucket.org/blog/enhanced-webhook-security",
  ],
});

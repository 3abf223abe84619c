// Heroku app webhooks: `Heroku-Webhook-Hmac-SHA256: <base64>`, HMAC-SHA256 of the raw body under the
// subscription's secret; no timestamp. Sources: devcenter.heroku.com/articles/addon-webhooks
// ("secret – Value to sign delivery with. Deliveries will set the HMAC-SHA256 of the body using this
// secret as the Heroku-Webhook-Hmac-SHA256 header"); devcenter.heroku.com/articles/app-webhooks.
// Base64 as receivers compute it (inferred: the excerpt read names no encoding).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "heroku",
  name: "Heroku",
  header: "Heroku-Webhook-Hmac-SHA256",
  algorithm: "sha256",
  encoding: "base64",
  sources: [
    "https://devcenter.heroku.com/articles/addon-webhooks (secret)",
    "https://devcenter.heroku.com/articles/app-webhooks",
  ],
});

// Typeform: `Typeform-Signature: sha256=<base64>`, HMAC-SHA256 of the raw body under the webhook's
// secret, base64 (not hex); no timestamp. Source: typeform.com/developers/webhooks/secure-your-webhooks/.
// Typeform's libraries ship no verifier.
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "typeform",
  name: "Typeform",
  header: "Typeform-Signature",
  algorithm: "sha256",
  encoding: "base64",
  prefix: "sha256=",
  sources: ["https://www.typeform.com/developers/webhooks/secure-your-webhooks/"],
});

// Intercom: `X-Hub-Signature: sha1=<hex>`, HMAC-SHA1 of the raw body under the app's client secret;
// no timestamp. Source: developers.intercom.com/docs/references/webhooks/webhook-models ("Signed
// notifications": the X-Hub-Signature header, "the hex digest of the HMAC-SHA1 of the body with
// your client_secret"). Intercom's libraries ship no verifier.
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "intercom",
  name: "Intercom",
  header: "X-Hub-Signature",
  algorithm: "sha1",
  encoding: "hex",
  prefix: "sha1=",
  sources: ["https://developers.intercom.com/docs/references/webhooks/webhook-models (Signed notifications)"],
});

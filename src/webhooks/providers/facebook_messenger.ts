// Facebook Messenger: a Meta webhook. `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the payload under the
// app's App Secret; no timestamp. Meta signs the payload as sent, non-ASCII escaped as \uXXXX
// with lower-case hex digits: the raw body's bytes. Source: developers.facebook.com/docs/graph-api/
// webhooks/getting-started ("Validating Payloads": "We sign all Event Notification payloads with a
// SHA256 signature and include the signature in the request's X-Hub-Signature-256 header, preceded
// with sha256=").
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "facebook_messenger",
  name: "Facebook Messenger",
  header: "X-Hub-Signature-256",
  algorithm: "sha256",
  encoding: "hex",
  prefix: "sha256=",
  sources: ["https://developers.facebook.com/docs/graph-api/webhooks/getting-started (Validating Payloads)"],
});

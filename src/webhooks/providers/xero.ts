// Xero: `x-xero-signature: <base64>`, HMAC-SHA256 of the raw body under the app's webhook key; no
// timestamp (the "Intent to Receive" check sends signed and mis-signed deliveries: 200 / 401).
// Source: developer.xero.com/documentation/webhooks/configuring-your-server ("Intent to receive": "the
// payload is hashed using HMACSHA256 with your webhook signing key and base64 encoded").
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "xero",
  name: "Xero",
  header: "x-xero-signature",
  algorithm: "sha256",
  encoding: "base64",
  sources: ["https://developer.xero.com/documentation/webhooks/configuring-your-server (Intent to receive)"],
});

// PagerDuty v3 webhooks: `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>…]` (one per signing secret
// during rotation), HMAC-SHA256 of the raw body, Base16; no timestamp. Sources:
// PagerDuty/developer-docs docs/webhooks/04-Signatures.md @94224391 ("The Signature", "Verifying
// the Signature" steps 1–3); PagerDuty/go-pagerduty webhookv3/webhookv3.go @d34fb98 (VerifySignature).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "pagerduty",
  name: "PagerDuty",
  header: "X-PagerDuty-Signature",
  algorithm: "sha256",
  encoding: "hex",
  prefix: "v1=",
  separator: ",",
  sources: [
    "PagerDuty/developer-docs docs/webhooks/04-Signatures.md (Verifying Signatures)",
    "PagerDuty/go-pagerduty webhookv3/webhookv3.go",
  ],
});

// Mux: `Mux-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 of `<t>.<raw body>` under the webhook's
// signing secret; a delivery older than 300 s is refused. Sources: muxinc/mux-node-sdk
// src/resources/webhooks/webhooks.ts @89eff08 (verifySignature: parseHeader 't' and 'v1',
// computeSignature(`${timestamp}.${body}`), `const tolerance = 300`, timestampAge > tolerance);
// docs.mux.com/core/verify-webhook-signatures.
import { timestampedHmacScheme } from "../hmac-schemes.js";

export const scheme = timestampedHmacScheme({
  provider: "mux",
  name: "Mux",
  header: "Mux-Signature",
  tolerance: 300,
  pastOnly: true,
  sources: [
    "https://docs.mux.com/core/verify-webhook-signatures",
    "muxinc/mux-node-sdk src/resources/webhooks/webhooks.ts",
  ],
});

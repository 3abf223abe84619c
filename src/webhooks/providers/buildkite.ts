// Buildkite: `X-Buildkite-Signature: timestamp=<unix>,signature=<hex>`, HMAC-SHA256 of
// `<timestamp>.<raw body>` under the webhook's Token (sent instead of the plain X-Buildkite-Token
// when the webhook is set to sign). Buildkite suggests accepting "a short window (for example, 5
// minutes)": 300 s. Source: buildkite.com/docs/apis/webhooks ("Webhook signature", "Verifying HMAC
// signatures": `OpenSSL::HMAC.hexdigest("sha256", secret, "#{timestamp}.#{webhook_request_body}")`,
// "Defending against replay attacks").
import { timestampedHmacScheme } from "../hmac-schemes.js";

export const scheme = timestampedHmacScheme({
  provider: "buildkite",
  name: "Buildkite",
  header: "X-Buildkite-Signature",
  tolerance: 300,
  timeField: "timestamp",
  signatureField: "signature",
  sources: ["https://buildkite.com/docs/apis/webhooks (Webhook signature)"],
});

// Calendly: `Calendly-Webhook-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 of `<t>.<raw body>` under
// the webhook signing key. Calendly asks receivers to refuse stale timestamps without a library
// that fixes the number; 180 s (ngrok's rule where a provider gives none, and the 3 minutes of
// Calendly's own sample) both ways. Source: developer.calendly.com/api-docs/overview/webhooks/
// webhook-signatures ("Calendly-Webhook-Signature", "t=…,v1=…", `${t}.${body}`).
import { timestampedHmacScheme } from "../hmac-schemes.js";

export const scheme = timestampedHmacScheme({
  provider: "calendly",
  name: "Calendly",
  header: "Calendly-Webhook-Signature",
  tolerance: 180,
  sources: ["https://developer.calendly.com/api-docs/overview/webhooks/webhook-signatures"],
});

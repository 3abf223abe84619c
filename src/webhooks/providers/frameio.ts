// Frame.io: `X-Frameio-Signature: v0=<hex>`, HMAC-SHA256 of `v0:<X-Frameio-Request-Timestamp>:<raw
// body>` under the webhook's signing secret; a delivery more than 5 minutes from now is refused.
// Source: next.developer.frame.io/platform/docs/guides/webhooks ("Verifying webhook signatures": the
// two headers, the `v0:timestamp:body` message, the 5-minute window), as the receivers read
// implement it.
import { v0HmacScheme } from "../hmac-schemes.js";

export const scheme = v0HmacScheme({
  provider: "frameio",
  name: "Frame.io",
  header: "X-Frameio-Signature",
  timestampHeader: "X-Frameio-Request-Timestamp",
  tolerance: 300,
  secretName: "the webhook's signing secret",
  sources: ["https://next.developer.frame.io/platform/docs/guides/webhooks#verifying-webhook-signatures"],
});

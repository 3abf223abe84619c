// LaunchDarkly: `X-LD-Signature: <hex>`, HMAC-SHA256 of the raw body under the webhook's secret; no
// timestamp. Source: docs.launchdarkly.com/home/connect/webhooks ("Signing webhooks": the
// X-LD-Signature header, "the HMAC SHA256 hex digest of the webhook payload, using the secret as the key").
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "launch_darkly",
  name: "LaunchDarkly",
  header: "X-LD-Signature",
  algorithm: "sha256",
  encoding: "hex",
  sources: ["https://docs.launchdarkly.com/home/connect/webhooks (Signing webhooks)"],
});

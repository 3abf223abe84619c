// Sentry integration platform: `Sentry-Hook-Signature: <hex>`, HMAC-SHA256 of the raw body under the
// integration's Client Secret; `Sentry-Hook-Timestamp` is sent but not signed. Source:
// docs.sentry.io/integrations/integration-platform/webhooks/ ("Headers": Sentry-Hook-Signature,
// "Verifying the Signature").
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "sentry",
  name: "Sentry",
  header: "Sentry-Hook-Signature",
  algorithm: "sha256",
  encoding: "hex",
  sources: ["https://docs.sentry.io/integrations/integration-platform/webhooks/ (Sentry-Hook-Signature)"],
});

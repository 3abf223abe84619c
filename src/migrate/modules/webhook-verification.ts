// webhook_verification → verify-webhook with the same provider and secret. SNS needs no secret
// at the edge but one in the action: refused, as is a secret the API did not show. A literal
// `${` in the secret is escaped (ngrok interpolates it).
import { isProvider } from "../../api-data/providers.js";
import { literal, refused, translation, type Obj, type Translation } from "./translator.js";

export function translateWebhookVerification(m: Obj): Translation {
  const provider = typeof m.provider === "string" ? m.provider.toLowerCase() : "";
  if (provider === "sns")
    return refused(
      "webhook_verification",
      "ngrok's verify-webhook needs a secret for sns, which the edge never held; verify SNS signatures by hand",
    );
  if (!isProvider(provider))
    return refused("webhook_verification", `provider ${JSON.stringify(m.provider)} is not one verify-webhook takes`);
  if (typeof m.secret !== "string" || m.secret === "")
    return refused(
      "webhook_verification",
      `the API did not show the ${provider} secret, so the verify-webhook action cannot be written`,
    );
  // ngrok interpolates `${…}` in the secret (traffic-policy/actions/verify-webhook.mdx: "Supports
  // CEL Interpolation"); the edge took it as written.
  const out = translation();
  const secret = literal(m.secret, out, "webhook_verification", "webhook_verification.secret");
  out.steps.push({ actions: [{ type: "verify-webhook", config: { provider, secret } }] });
  return out;
}

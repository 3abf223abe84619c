// webhook_verification → verify-webhook.
import { describe } from "vitest";
import { translateWebhookVerification } from "../../../src/migrate/modules/webhook-verification.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const CASES: Case[] = [
  {
    name: "the same provider and secret",
    doc: action("verify-webhook"),
    module: { enabled: true, provider: "GitHub", secret: "whsec" },
    out: { steps: [{ actions: [{ type: "verify-webhook", config: { provider: "github", secret: "whsec" } }] }] },
  },
  {
    // Issue 25 item 17 (b): ngrok interpolates the secret, the edge did not.
    name: 'a literal "${" in the secret is escaped (ngrok reads ${…} there as CEL), with a warning',
    doc: `${action("verify-webhook")} (secret: "Supports CEL Interpolation"), traffic-policy/how-it-works.mdx#cel-interpolation`,
    module: { provider: "github", secret: "a${b}c" },
    out: {
      steps: [{ actions: [{ type: "verify-webhook", config: { provider: "github", secret: 'a${"${"}b}c' } }] }],
      warnings: [
        {
          item: "webhook_verification",
          message: 'a literal "${" in webhook_verification.secret is written ${"${"} so ngrok does not read it as CEL',
        },
      ],
    },
  },
  {
    name: "sns: the action needs a secret the edge never held",
    doc: action("verify-webhook"),
    module: { provider: "sns", secret: "" },
    out: refusal(
      "webhook_verification",
      "ngrok's verify-webhook needs a secret for sns, which the edge never held; verify SNS signatures by hand",
    ),
  },
  {
    name: "a provider the action does not take",
    module: { provider: "nobody", secret: "s" },
    out: refusal("webhook_verification", 'provider "nobody" is not one verify-webhook takes'),
  },
  {
    name: "a secret the API did not show",
    doc: edgeModule("edgeroutewebhookverificationmodule"),
    module: { provider: "stripe", secret: "" },
    out: refusal(
      "webhook_verification",
      "the API did not show the stripe secret, so the verify-webhook action cannot be written",
    ),
  },
];

describe("webhook_verification", () => table(CASES, translateWebhookVerification));

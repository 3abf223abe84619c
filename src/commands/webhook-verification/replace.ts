import type { Provider } from "../../api-data/providers.js";
import {
  replaceWebhookVerification,
  webhookVerificationPath,
  type WebhookVerificationReplace,
} from "../../api/webhook-verification.js";
import { maskSecret } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { moduleRecord } from "./render.js";
import { routeArgs, showSecretFlag } from "./route.js";
import { readSecret, secretFlags } from "./secret-input.js";
import { switchValue } from "../input.js";

const flags = {
  ...secretFlags,
  disabled: { flag: "--disabled", help: "store the module but leave verification off", ...switchValue() },
  showSecret: showSecretFlag,
  dryRun: {
    flag: "--dry-run",
    help: "print the request (secret redacted) instead of sending it",
    ...switchValue(),
  },
};

export const replace = defineCommand({
  name: "replace",
  description: "Set the webhook verification module of an HTTPS edge route (provider + secret)",
  args: routeArgs,
  flags,
  about: `The secret comes from exactly one of --secret-stdin, --secret-file, --secret, or else
the EDGECTL_WEBHOOK_SECRET environment variable. sns (AWS SNS) takes no secret.`,
  examples: [
    "$ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-file ./gh.secret",
    `$ printf %s "$STRIPE_SECRET" | edgectl webhook-verification replace "$EDGE" "$ROUTE" --provider stripe --secret-stdin`,
    "$ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider sns -o json | jq .enabled",
  ],
  run: async ({ edgeId, routeId, provider, disabled, showSecret, dryRun, ...sources }, deps) =>
    run(
      {
        edgeId,
        routeId,
        provider,
        enabled: !disabled,
        showSecret,
        dryRun,
        secret: await readSecret(sources, provider, deps),
      },
      deps,
    ),
});

export interface ReplaceOptions {
  edgeId: string;
  routeId: string;
  provider: Provider;
  /** Undefined for sns. */
  secret?: string;
  enabled: boolean;
  showSecret: boolean;
  dryRun: boolean;
}

export async function run(options: ReplaceOptions, deps: Deps): Promise<void> {
  const body: WebhookVerificationReplace = { enabled: options.enabled, provider: options.provider };
  if (options.secret !== undefined) body.secret = options.secret;
  const secrets = options.secret === undefined ? [] : [options.secret];
  if (options.dryRun) {
    return printDryRun(deps, "PUT", webhookVerificationPath(options.edgeId, options.routeId), body);
  }
  const module = await replaceWebhookVerification(deps.client({ secrets }), options.edgeId, options.routeId, body);
  const shown = maskSecret(module, options.showSecret);
  printResult(deps, shown, (color) => moduleRecord(shown, color));
}

import { getWebhookVerification } from "../../api/webhook-verification.js";
import { maskSecret } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { moduleRecord } from "./render.js";
import { routeArgs, showSecretFlag } from "./route.js";

export const get = defineCommand({
  name: "get",
  description: "Show the webhook verification module of an HTTPS edge route",
  args: routeArgs,
  flags: { showSecret: showSecretFlag },
  examples: [
    "$ edgectl webhook-verification get edghts_1 edghtsrt_1",
    `$ edgectl webhook-verification get "$EDGE" "$ROUTE" -o json | jq -r .provider`,
  ],
  run,
});
export type GetOptions = OptionsOf<typeof routeArgs, { showSecret: typeof showSecretFlag }>;

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const module = await getWebhookVerification(deps.client(), options.edgeId, options.routeId);
  const shown = maskSecret(module, options.showSecret);
  printResult(deps, shown, (color) => moduleRecord(shown, color));
}

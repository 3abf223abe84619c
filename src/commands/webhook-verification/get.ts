import type { Command } from "commander";
import * as z from "zod/mini";
import { getWebhookVerification } from "../../api/webhook-verification.js";
import { maskSecret } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import type { AppContext, Deps } from "../deps.js";
import { idSchema, parseInput } from "../input.js";
import { ROUTE_LABELS, moduleRecord } from "./render.js";

const GetOptions = z.object({ edgeId: idSchema("edge"), routeId: idSchema("route"), showSecret: z.boolean() });
export type GetOptions = z.infer<typeof GetOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("get")
    .description("Show the webhook verification module of an HTTPS edge route")
    .argument("<edge-id>", "HTTPS edge id (edghts_…)")
    .argument("<route-id>", "route id (edghtsrt_…)")
    .option("--show-secret", "print the secret instead of ********")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl webhook-verification get edghts_1 edghtsrt_1
  $ edgectl webhook-verification get "$EDGE" "$ROUTE" -o json | jq -r .provider`,
    )
    .action(async (edgeId: string, routeId: string, flags: { showSecret?: boolean }, cmd: Command) => {
      const options = parseInput(GetOptions, { edgeId, routeId, showSecret: Boolean(flags.showSecret) }, ROUTE_LABELS);
      await run(options, await app.deps(cmd));
    });
}

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const module = await getWebhookVerification(deps.client(), options.edgeId, options.routeId);
  const shown = maskSecret(module, options.showSecret);
  printResult(deps, shown, (color) => moduleRecord(shown, color));
}

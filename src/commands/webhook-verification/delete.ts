import type { Command } from "commander";
import * as z from "zod/mini";
import { deleteWebhookVerification, webhookVerificationPath } from "../../api/webhook-verification.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { confirmDeletion } from "../confirm.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema, parseInput } from "../input.js";
import { ROUTE_LABELS } from "./render.js";

const DeleteOptions = z.object({ edgeId: idSchema("edge"), routeId: idSchema("route"), yes: z.boolean(), dryRun: z.boolean() });
export type DeleteOptions = z.infer<typeof DeleteOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("delete")
    .description("Remove the webhook verification module of an HTTPS edge route")
    .argument("<edge-id>", "HTTPS edge id (edghts_…)")
    .argument("<route-id>", "route id (edghtsrt_…)")
    .option("-y, --yes", "do not ask for confirmation (required without a terminal)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      `
Examples:
  # asks first on a terminal
  $ edgectl webhook-verification delete edghts_1 edghtsrt_1
  $ edgectl webhook-verification delete "$EDGE" "$ROUTE" --yes -o json`,
    )
    .action(async (edgeId: string, routeId: string, flags: { yes?: boolean; dryRun?: boolean }, cmd: Command) => {
      const options = parseInput(DeleteOptions, { edgeId, routeId, yes: Boolean(flags.yes), dryRun: Boolean(flags.dryRun) }, ROUTE_LABELS);
      await run(options, await app.deps(cmd));
    });
}

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const path = webhookVerificationPath(options.edgeId, options.routeId);
  if (options.dryRun) return printDryRun(deps, "DELETE", path);
  await confirmDeletion(deps, options.yes, `Remove webhook verification from route ${options.routeId} of edge ${options.edgeId}?`);
  await deleteWebhookVerification(deps.client(), options.edgeId, options.routeId);
  const id = `${options.edgeId}/${options.routeId}`;
  printResult(deps, { id, deleted: true }, (color) => renderRows(["ID", "DELETED"], [[id, "true"]], color));
}

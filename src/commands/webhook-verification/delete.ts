import { deleteWebhookVerification, webhookVerificationPath } from "../../api/webhook-verification.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { confirmDeletion, yesFlag } from "../confirm.js";
import { dryRunFlag } from "../flags.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { routeArgs } from "./route.js";

const flags = {
  yes: yesFlag,
  dryRun: dryRunFlag,
};
export type DeleteOptions = OptionsOf<typeof routeArgs, typeof flags>;

export const del = defineCommand({
  name: "delete",
  description: "Remove the webhook verification module of an HTTPS edge route",
  args: routeArgs,
  flags,
  examples: [
    "# asks first on a terminal",
    "$ edgectl webhook-verification delete edghts_1 edghtsrt_1",
    `$ edgectl webhook-verification delete "$EDGE" "$ROUTE" --yes -o json`,
  ],
  run,
});

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const path = webhookVerificationPath(options.edgeId, options.routeId);
  if (options.dryRun) return printDryRun(deps, "DELETE", path);
  await confirmDeletion(
    deps,
    options.yes,
    `Remove webhook verification from route ${options.routeId} of edge ${options.edgeId}?`,
  );
  await deleteWebhookVerification(deps.client(), options.edgeId, options.routeId);
  const id = `${options.edgeId}/${options.routeId}`;
  printResult(deps, { id, deleted: true }, (color) => renderRows(["ID", "DELETED"], [[id, "true"]], color));
}

import type { Command } from "commander";
import * as z from "zod/mini";
import { failoverPath, updateFailover, type FailoverUpdate } from "../../api/failover.js";
import { UsageError } from "../../errors.js";
import { printResult } from "../../output/print.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema, parseInput } from "../input.js";
import { FIELD_LABELS, backendsSchema, collectBackends, descriptionSchema, metadataSchema } from "./fields.js";
import { failoverRecord } from "./render.js";

const UpdateOptions = z.object({
  id: idSchema("failover"),
  backends: z.optional(backendsSchema),
  description: z.optional(descriptionSchema),
  metadata: z.optional(metadataSchema),
  dryRun: z.boolean(),
});
export type UpdateOptions = z.infer<typeof UpdateOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("update")
    .description("Change a Failover backend's backends, description or metadata (only the fields given)")
    .argument("<id>", "Failover backend id (bkdfo_…)")
    .option("--backends <ids>", "new child backend list, in failover order (comma list; repeatable)", collectBackends)
    .option("--description <text>", "new description (at most 255 bytes; \"\" clears it)")
    .option("--metadata <text>", "new metadata (at most 4096 bytes; \"\" clears it)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl failover update bkdfo_2abc --description "eu pair (primary first)"
  $ edgectl failover update bkdfo_2abc --backends bkdhr_b,bkdhr_a
  $ edgectl failover update "$ID" --metadata "$(jq -c . meta.json)" -o json | jq .metadata`,
    )
    .action(async (id: string, opts: Record<string, unknown>, cmd: Command) => {
      const options = parseInput(
        UpdateOptions,
        { id, backends: opts.backends, description: opts.description, metadata: opts.metadata, dryRun: Boolean(opts.dryRun) },
        FIELD_LABELS,
      );
      if (options.backends === undefined && options.description === undefined && options.metadata === undefined) {
        throw new UsageError("nothing to update: give at least one of --backends, --description, --metadata");
      }
      await run(options, await app.deps(cmd));
    });
}

export async function run(options: UpdateOptions, deps: Deps): Promise<void> {
  const body: FailoverUpdate = {};
  if (options.backends !== undefined) body.backends = options.backends;
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.dryRun) return printDryRun(deps, "PATCH", failoverPath(options.id), body);
  const updated = await updateFailover(deps.client(), options.id, body);
  printResult(deps, updated, (color) => failoverRecord(updated, color));
}

import type { Command } from "commander";
import * as z from "zod/mini";
import { createFailover, failoverPath, type FailoverCreate } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { parseInput } from "../input.js";
import { FIELD_LABELS, backendsSchema, collectBackends, descriptionSchema, metadataSchema } from "./fields.js";
import { failoverRecord } from "./render.js";

const CreateOptions = z.object({
  backends: backendsSchema,
  description: z.optional(descriptionSchema),
  metadata: z.optional(metadataSchema),
  dryRun: z.boolean(),
});
export type CreateOptions = z.infer<typeof CreateOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("create")
    .description("Create a Failover backend from an ordered list of child backends")
    .option("--backends <ids>", "child backend ids, in failover order (comma list; repeatable)", collectBackends)
    .option("--description <text>", "human-readable description (at most 255 bytes)")
    .option("--metadata <text>", "arbitrary metadata (at most 4096 bytes)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl failover create --backends bkdhr_primary,bkdhr_standby --description "eu pair"
  $ edgectl failover create --backends bkdhr_a --backends bkdtg_b --metadata '{"team":"edge"}'
  # in CI: keep the new id
  $ id=$(edgectl failover create --backends bkdhr_a -o json | jq -r .id)`,
    )
    .action(async (opts: Record<string, unknown>, cmd: Command) => {
      const options = parseInput(
        CreateOptions,
        { backends: opts.backends ?? [], description: opts.description, metadata: opts.metadata, dryRun: Boolean(opts.dryRun) },
        FIELD_LABELS,
      );
      await run(options, await app.deps(cmd));
    });
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const body: FailoverCreate = { backends: options.backends };
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.dryRun) return printDryRun(deps, "POST", failoverPath(), body);
  const created = await createFailover(deps.client(), body);
  printResult(deps, created, (color) => failoverRecord(created, color));
}

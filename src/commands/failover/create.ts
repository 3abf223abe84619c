import * as z from "zod/mini";
import { createFailover, failoverPath, type FailoverCreate } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { descriptionFlag, dryRunFlag, metadataFlag } from "../flags.js";
import { backendsFlag, backendsSchema } from "./fields.js";
import { failoverRecord } from "./render.js";

const flags = {
  // Required: absent reads as an empty list, which names the rule.
  backends: {
    ...backendsFlag("child backend ids, in failover order (comma list; repeatable)"),
    schema: () =>
      z.pipe(
        z.transform((v: unknown) => v ?? []),
        backendsSchema(),
      ),
  },
  description: descriptionFlag("human-readable description (at most 255 bytes)"),
  metadata: metadataFlag("arbitrary metadata (at most 4096 bytes)"),
  dryRun: dryRunFlag,
};
export type CreateOptions = OptionsOf<object, typeof flags>;

export const create = defineCommand({
  name: "create",
  description: "Create a Failover backend from an ordered list of child backends",
  flags,
  examples: [
    `$ edgectl failover create --backends bkdhr_primary,bkdhr_standby --description "eu pair"`,
    `$ edgectl failover create --backends bkdhr_a --backends bkdtg_b --metadata '{"team":"edge"}'`,
    "# in CI: keep the new id",
    "$ id=$(edgectl failover create --backends bkdhr_a -o json | jq -r .id)",
  ],
  run,
});

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const body: FailoverCreate = { backends: options.backends };
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.dryRun) return printDryRun(deps, "POST", failoverPath(), body);
  const created = await createFailover(deps.client(), body);
  printResult(deps, created, (color) => failoverRecord(created, color));
}

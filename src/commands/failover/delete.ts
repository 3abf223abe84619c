import { deleteFailover, failoverPath } from "../../api/failover.js";
import { yesFlag } from "../confirm.js";
import { defineCommand } from "../define.js";
import { deleteBatch, type DeleteBatchOptions } from "../delete-batch.js";
import type { Deps } from "../deps.js";
import { batchDryRunFlag, concurrencyFlag } from "../flags.js";
import { idsArg, resolveIds } from "./fields.js";

export type DeleteOptions = DeleteBatchOptions;

export const del = defineCommand({
  name: "delete",
  description: "Delete one or more Failover backends",
  args: { ids: idsArg },
  flags: {
    yes: yesFlag,
    concurrency: concurrencyFlag,
    dryRun: batchDryRunFlag,
  },
  examples: [
    "# asks first on a terminal",
    "$ edgectl failover delete bkdfo_2abc",
    "# in CI scripts",
    "$ edgectl failover delete bkdfo_2abc --yes",
    "$ edgectl failover list -o json | jq -r '.[].id' | edgectl failover delete - --yes",
  ],
  run: async ({ ids, ...flags }, deps) => run({ ...(await resolveIds(ids, deps)), ...flags }, deps),
});

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  await deleteBatch(options, deps, {
    noun: ["Failover backend", "Failover backends"],
    path: failoverPath,
    remove: deleteFailover,
  });
}

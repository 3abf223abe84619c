import { deleteEndpoint, endpointPath } from "../../api/endpoints.js";
import { yesFlag } from "../confirm.js";
import { defineCommand } from "../define.js";
import { deleteBatch, type DeleteBatchOptions } from "../delete-batch.js";
import type { Deps } from "../deps.js";
import { batchDryRunFlag, concurrencyFlag } from "../flags.js";
import { idsArg, resolveIds } from "./fields.js";

export type DeleteOptions = DeleteBatchOptions;

export const del = defineCommand({
  name: "delete",
  description: "Delete one or more endpoints",
  args: { ids: idsArg },
  flags: {
    yes: yesFlag,
    concurrency: concurrencyFlag,
    dryRun: batchDryRunFlag,
  },
  examples: [
    "# asks first on a terminal",
    "$ edgectl endpoint delete ep_2abc",
    "# in CI scripts",
    "$ edgectl endpoint delete ep_2abc --yes",
    "$ edgectl endpoint list -o json | jq -r '.[] | select(.type == \"cloud\") | .id' | edgectl endpoint delete - --yes",
  ],
  run: async ({ ids, ...flags }, deps) => run({ ...(await resolveIds(ids, deps)), ...flags }, deps),
});

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  await deleteBatch(options, deps, { noun: ["endpoint", "endpoints"], path: endpointPath, remove: deleteEndpoint });
}

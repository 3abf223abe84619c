import * as z from "zod/mini";
import { deleteFailover, failoverPath } from "../../api/failover.js";
import { defineCommand } from "../define.js";
import { deleteBatch } from "../delete-batch.js";
import type { Deps } from "../deps.js";
import { concurrencyFlag, dryRunFlag, idsArg, resolveIds, type IdsOptions } from "./fields.js";

export interface DeleteOptions extends IdsOptions {
  yes: boolean;
  dryRun: boolean;
}

export const del = defineCommand({
  name: "delete",
  description: "Delete one or more Failover backends",
  args: { ids: idsArg },
  flags: {
    yes: {
      flag: "-y, --yes",
      help: "do not ask for confirmation (required without a terminal)",
      schema: () => z.boolean(),
    },
    concurrency: concurrencyFlag,
    dryRun: { ...dryRunFlag, help: "print the request(s) instead of sending them" },
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

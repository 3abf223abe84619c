import { getFailover } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { getEach, type IdsOptions } from "../batch.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { concurrencyFlag } from "../flags.js";
import { idsArg, resolveIds } from "./fields.js";
import { failoverRecord, failoverRows } from "./render.js";

export type GetOptions = IdsOptions;

export const get = defineCommand({
  name: "get",
  description: "Show one or more Failover backends",
  args: { ids: idsArg },
  flags: { concurrency: concurrencyFlag },
  examples: [
    "$ edgectl failover get bkdfo_2abc",
    "$ edgectl failover get bkdfo_2abc -o json | jq -r '.backends[]'",
    "$ edgectl failover list -o json | jq -r '.[].id' | edgectl failover get - -o json",
  ],
  run: async ({ ids, concurrency }, deps) => run({ ...(await resolveIds(ids, deps)), concurrency }, deps),
});

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  await getEach(deps, options, getFailover, (found) =>
    options.many
      ? printResult(deps, found, (color) => failoverRows(found, color))
      : printResult(deps, found[0], (color) => failoverRecord(found[0]!, color)),
  );
}

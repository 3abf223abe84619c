import { getFailover, type FailoverBackend } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { reportFailures, requestEach } from "../batch.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { concurrencyFlag, idsArg, resolveIds, type IdsOptions } from "./fields.js";
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
  const outcomes = await requestEach(
    deps,
    options.ids,
    options.concurrency,
    { label: "getting", verb: "read" },
    getFailover,
  );
  const found = outcomes.filter((o) => o.value !== undefined).map((o) => o.value as FailoverBackend);
  if (!options.many) {
    reportFailures(deps, outcomes, "read");
    printResult(deps, found[0], (color) => failoverRecord(found[0]!, color));
    return;
  }
  // On failure stdout is empty: with no id found there is no list to print, not even `[]`.
  if (found.length > 0) printResult(deps, found, (color) => failoverRows(found, color));
  reportFailures(deps, outcomes, "read");
}

import type { Command } from "commander";
import * as z from "zod/mini";
import { getFailover, type FailoverBackend } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { collectIds, parseConcurrency, progressLine, rateLimitWaits, reportFailures, runBatch } from "../batch.js";
import type { AppContext, Deps } from "../deps.js";
import { idSchema, parseInput } from "../input.js";
import { failoverRecord, failoverRows } from "./render.js";

const GetOptions = z.object({
  ids: z.array(idSchema("failover")),
  /** Several ids (or `-`): print a list even if one id came. */
  many: z.boolean(),
  concurrency: z.number(),
});
export type GetOptions = z.infer<typeof GetOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("get")
    .description("Show one or more Failover backends")
    .argument("<id...>", "Failover backend id(s) (bkdfo_…), or - to read ids from stdin, one per line")
    .option("--concurrency <n>", "requests in flight for several ids (default 8)")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl failover get bkdfo_2abc
  $ edgectl failover get bkdfo_2abc -o json | jq -r '.backends[]'
  $ edgectl failover list -o json | jq -r '.[].id' | edgectl failover get - -o json`,
    )
    .action(async (args: string[], opts: { concurrency?: string }, cmd: Command) => {
      const deps = await app.deps(cmd);
      const { ids, many } = await collectIds(args, deps);
      const options = parseInput(GetOptions, { ids, many, concurrency: parseConcurrency(opts.concurrency) }, { ids: "<id>" });
      await run(options, deps);
    });
}

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const client = deps.client({ maxSockets: options.concurrency });
  try {
    const outcomes = await runBatch(
      options.ids,
      options.concurrency,
      (id, onRateLimited) => getFailover(client, id, { onRateLimited, rateLimitWaits: rateLimitWaits(options.ids.length, deps.settings.retries) }),
      progressLine(deps, "getting", options.ids.length),
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
  } finally {
    client.close();
  }
}

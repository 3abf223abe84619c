import type { Command } from "commander";
import * as z from "zod/mini";
import { deleteFailover, failoverPath } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { confirmDeletion } from "../confirm.js";
import { collectIds, parseConcurrency, progressLine, rateLimitWaits, reportFailures, runBatch, succeeded } from "../batch.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun, printDryRuns } from "../dry-run.js";
import { idSchema, parseInput } from "../input.js";

const DeleteOptions = z.object({
  ids: z.array(idSchema("failover")),
  many: z.boolean(),
  yes: z.boolean(),
  dryRun: z.boolean(),
  concurrency: z.number(),
});
export type DeleteOptions = z.infer<typeof DeleteOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("delete")
    .description("Delete one or more Failover backends")
    .argument("<id...>", "Failover backend id(s) (bkdfo_…), or - to read ids from stdin, one per line")
    .option("-y, --yes", "do not ask for confirmation (required without a terminal)")
    .option("--concurrency <n>", "requests in flight for several ids (default 8)")
    .option("--dry-run", "print the request(s) instead of sending them")
    .addHelpText(
      "after",
      `
Examples:
  # asks first on a terminal
  $ edgectl failover delete bkdfo_2abc
  # in CI scripts
  $ edgectl failover delete bkdfo_2abc --yes
  $ edgectl failover list -o json | jq -r '.[].id' | edgectl failover delete - --yes`,
    )
    .action(async (args: string[], opts: { yes?: boolean; dryRun?: boolean; concurrency?: string }, cmd: Command) => {
      const deps = await app.deps(cmd);
      const { ids, many } = await collectIds(args, deps);
      const options = parseInput(
        DeleteOptions,
        { ids, many, yes: Boolean(opts.yes), dryRun: Boolean(opts.dryRun), concurrency: parseConcurrency(opts.concurrency) },
        { ids: "<id>" },
      );
      await run(options, deps);
    });
}

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  // An id given twice is deleted once: the second DELETE could only fail with a 404.
  const ids = [...new Set(options.ids)];
  if (options.dryRun) {
    // One JSON document per command: several ids (or `-`) make one array of requests.
    if (options.many) printDryRuns(deps, ids.map((id) => ({ method: "DELETE" as const, path: failoverPath(id) })));
    else printDryRun(deps, "DELETE", failoverPath(ids[0]!));
    return;
  }
  await confirmDeletion(deps, options.yes, ids.length === 1 ? `Delete Failover backend ${ids[0]}?` : `Delete ${ids.length} Failover backends?`);
  const client = deps.client({ maxSockets: options.concurrency });
  try {
    const outcomes = await runBatch(
      ids,
      options.concurrency,
      (id, onRateLimited) => deleteFailover(client, id, { onRateLimited, rateLimitWaits: rateLimitWaits(ids.length, deps.settings.retries) }),
      progressLine(deps, "deleting", ids.length),
    );
    const deleted = succeeded(outcomes).map((o) => ({ id: o.id, deleted: true }));
    if (!options.many) {
      reportFailures(deps, outcomes, "deleted");
      printResult(deps, deleted[0], (color) => renderRows(["ID", "DELETED"], [[deleted[0]!.id, "true"]], color));
      return;
    }
    // On failure stdout is empty: with nothing deleted there is no list to print, not even `[]`.
    if (deleted.length > 0) printResult(deps, deleted, (color) => renderRows(["ID", "DELETED"], deleted.map((d) => [d.id, "true"]), color));
    reportFailures(deps, outcomes, "deleted");
  } finally {
    client.close();
  }
}

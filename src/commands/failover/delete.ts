import * as z from "zod/mini";
import { deleteFailover, failoverPath } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { confirmDeletion } from "../confirm.js";
import { progressLine, rateLimitWaits, reportFailures, runBatch, succeeded } from "../batch.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun, printDryRuns } from "../dry-run.js";
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
  // An id given twice is deleted once: the second DELETE could only fail with a 404.
  const ids = [...new Set(options.ids)];
  if (options.dryRun) {
    // One JSON document per command: several ids (or `-`) make one array of requests.
    if (options.many)
      await printDryRuns(
        deps,
        ids.map((id) => ({ method: "DELETE" as const, path: failoverPath(id) })),
      );
    else await printDryRun(deps, "DELETE", failoverPath(ids[0]!));
    return;
  }
  await confirmDeletion(
    deps,
    options.yes,
    ids.length === 1 ? `Delete Failover backend ${ids[0]}?` : `Delete ${ids.length} Failover backends?`,
  );
  const client = deps.client({ maxSockets: options.concurrency });
  try {
    const outcomes = await runBatch(
      ids,
      options.concurrency,
      (id, onRateLimited) =>
        deleteFailover(client, id, {
          onRateLimited,
          rateLimitWaits: rateLimitWaits(ids.length, deps.settings.retries),
        }),
      progressLine(deps, "deleting", ids.length),
      { verb: "deleted", report: (report) => deps.reportOnInterrupt?.(report) },
    );
    const deleted = succeeded(outcomes).map((o) => ({ id: o.id, deleted: true }));
    if (!options.many) {
      reportFailures(deps, outcomes, "deleted");
      printResult(deps, deleted[0], (color) => renderRows(["ID", "DELETED"], [[deleted[0]!.id, "true"]], color));
      return;
    }
    // On failure stdout is empty: with nothing deleted there is no list to print, not even `[]`.
    if (deleted.length > 0)
      printResult(deps, deleted, (color) =>
        renderRows(
          ["ID", "DELETED"],
          deleted.map((d) => [d.id, "true"]),
          color,
        ),
      );
    reportFailures(deps, outcomes, "deleted");
  } finally {
    client.close();
  }
}

import * as z from "zod/mini";
import { deleteEndpoint, endpointPath } from "../../api/endpoints.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { progressLine, rateLimitWaits, reportFailures, runBatch, succeeded } from "../batch.js";
import { confirmDeletion } from "../confirm.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun, printDryRuns } from "../dry-run.js";
import { concurrencyFlag, dryRunFlag, idsArg, resolveIds } from "./fields.js";

export interface DeleteOptions {
  ids: string[];
  many: boolean;
  concurrency: number;
  yes: boolean;
  dryRun: boolean;
}

export const del = defineCommand({
  name: "delete",
  description: "Delete one or more endpoints",
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
    "$ edgectl endpoint delete ep_2abc",
    "# in CI scripts",
    "$ edgectl endpoint delete ep_2abc --yes",
    "$ edgectl endpoint list -o json | jq -r '.[] | select(.type == \"cloud\") | .id' | edgectl endpoint delete - --yes",
  ],
  run: async ({ ids, ...flags }, deps) => run({ ...(await resolveIds(ids, deps)), ...flags }, deps),
});

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  // An id given twice is deleted once: the second DELETE could only fail with a 404.
  const ids = [...new Set(options.ids)];
  if (options.dryRun) {
    // One JSON document per command: several ids (or `-`) make one array of requests.
    if (options.many)
      return printDryRuns(
        deps,
        ids.map((id) => ({ method: "DELETE" as const, path: endpointPath(id) })),
      );
    return printDryRun(deps, "DELETE", endpointPath(ids[0]!));
  }
  await confirmDeletion(
    deps,
    options.yes,
    ids.length === 1 ? `Delete endpoint ${ids[0]}?` : `Delete ${ids.length} endpoints?`,
  );
  const client = deps.client({ maxSockets: options.concurrency });
  try {
    const outcomes = await runBatch(
      ids,
      options.concurrency,
      (id, onRateLimited) =>
        deleteEndpoint(client, id, {
          onRateLimited,
          rateLimitWaits: rateLimitWaits(ids.length, deps.settings.retries),
        }),
      progressLine(deps, "deleting", ids.length),
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

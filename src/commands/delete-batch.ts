// `<noun> delete <id>… | -`: the one way a batch of DELETEs runs (failover, endpoint): ids
// deduplicated, --dry-run, confirmation, bounded concurrency, an interrupt that says which ids
// were done, and output in input order (one row or one array; nothing when none was deleted).
import type { ApiClient, BatchRequestOptions } from "../api/client.js";
import { printResult } from "../output/print.js";
import { renderRows } from "../output/table.js";
import { printOutcomes, requestEach, succeeded, type IdsOptions } from "./batch.js";
import { confirmDeletion } from "./confirm.js";
import type { Deps } from "./deps.js";
import { printDryRun, printDryRuns } from "./dry-run.js";

export interface DeleteBatchOptions extends IdsOptions {
  yes: boolean;
  dryRun: boolean;
}

export interface DeleteTarget {
  /** The resource as the prompt names it: ["Failover backend", "Failover backends"]. */
  noun: readonly [one: string, many: string];
  path: (id: string) => string;
  remove: (client: ApiClient, id: string, options: BatchRequestOptions) => Promise<unknown>;
}

export async function deleteBatch(options: DeleteBatchOptions, deps: Deps, target: DeleteTarget): Promise<void> {
  // An id given twice is deleted once: the second DELETE could only fail with a 404.
  const ids = [...new Set(options.ids)];
  if (options.dryRun) {
    // One JSON document per command: several ids (or `-`) make one array of requests.
    if (options.many)
      await printDryRuns(
        deps,
        ids.map((id) => ({ method: "DELETE" as const, path: target.path(id) })),
      );
    else await printDryRun(deps, "DELETE", target.path(ids[0]!));
    return;
  }
  const [one, many] = target.noun;
  await confirmDeletion(
    deps,
    options.yes,
    ids.length === 1 ? `Delete ${one} ${ids[0]}?` : `Delete ${ids.length} ${many}?`,
  );
  const outcomes = await requestEach(
    deps,
    ids,
    options.concurrency,
    { label: "deleting", verb: "deleted" },
    target.remove,
  );
  const deleted = succeeded(outcomes).map((o) => ({ id: o.id, deleted: true }));
  await printOutcomes(deps, outcomes, options.many, "deleted", deleted, (done) =>
    printResult(deps, options.many ? done : done[0], (color) =>
      renderRows(
        ["ID", "DELETED"],
        done.map((d) => [d.id, "true"]),
        color,
      ),
    ),
  );
}

import { listFailover, type FailoverBackend } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { allFlag, limitFlag } from "../flags.js";
import { failoverRows } from "./render.js";

const flags = { limit: limitFlag, all: allFlag };
export type ListOptions = OptionsOf<object, typeof flags>;

export const list = defineCommand({
  name: "list",
  description: "List Failover backends, newest first",
  flags,
  examples: [
    "$ edgectl failover list --limit 20",
    "$ edgectl failover list --all -o json | jq -r '.[] | select(.description == null) | .id'",
  ],
  run,
});

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const page = { more: false };
  let items: FailoverBackend[];
  try {
    items = await listFailover(client, {
      limit: options.limit,
      all: options.all,
      more: () => void (page.more = true),
    });
  } finally {
    client.close();
  }
  if (items.length === 0 && deps.settings.output === "table") {
    deps.io.stderr.write("no Failover backends\n");
    return;
  }
  printResult(deps, items, (color) => failoverRows(items, color));
  // The list stopped at one page while the API has more: never a silent cut.
  if (page.more) deps.io.stderr.write("more: use --all\n");
}

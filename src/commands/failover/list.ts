import * as z from "zod/mini";
import { listFailoverPage, type FailoverBackend } from "../../api/failover.js";
import { NetworkError } from "../../errors.js";
import { escapeControl } from "../../output/escape.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { failoverRows } from "./render.js";

const flags = {
  limit: {
    flag: "--limit <n>",
    help: "how many per page, 1–100 (the API's default is 100)",
    // Text that is not a number is quoted back; a number out of range is not.
    schema: () => z.optional(
      z.pipe(
        z.pipe(z.string().check(z.refine((v) => /^\d+$/.test(v), "must be a whole number from 1 to 100")), z.transform(Number)),
        z.int().check(z.gte(1, "must be from 1 to 100"), z.lte(100, "must be from 1 to 100")),
      ),
    ),
  },
  all: { flag: "--all", help: "follow next_page_uri to fetch every page", schema: () => z.boolean() },
};
export type ListOptions = OptionsOf<object, typeof flags>;

export const list = defineCommand({
  name: "list",
  description: "List Failover backends, newest first",
  flags,
  examples: ["$ edgectl failover list --limit 20", "$ edgectl failover list --all -o json | jq -r '.[] | select(.description == \"\") | .id'"],
  run,
});

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const items: FailoverBackend[] = [];
  try {
    let page = await listFailoverPage(client, { limit: options.limit });
    items.push(...page.backends);
    // Pages are followed only by the API's own next_page_uri, never a hand-built cursor. A
    // next_page_uri seen before would loop for ever, and an empty page ends the list.
    const seen = new Set<string>();
    while (options.all && page.next_page_uri && page.backends.length > 0) {
      const next = page.next_page_uri;
      if (seen.has(next)) throw new NetworkError(`the API's next_page_uri points back to a page already read (${escapeControl(next)}); stopped after ${seen.size + 1} pages so as not to loop`);
      seen.add(next);
      page = await listFailoverPage(client, { pageUri: next });
      items.push(...page.backends);
    }
  } finally {
    client.close();
  }
  if (items.length === 0 && deps.settings.output === "table") {
    deps.io.stderr.write("no Failover backends\n");
    return;
  }
  printResult(deps, items, (color) => failoverRows(items, color));
}

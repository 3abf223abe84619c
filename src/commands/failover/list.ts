import type { Command } from "commander";
import * as z from "zod/mini";
import { listFailoverPage, type FailoverBackend } from "../../api/failover.js";
import { NetworkError, UsageError } from "../../errors.js";
import { escapeControl } from "../../output/escape.js";
import { printResult } from "../../output/print.js";
import type { AppContext, Deps } from "../deps.js";
import { parseInput } from "../input.js";
import { failoverRows } from "./render.js";

const ListOptions = z.object({
  limit: z.optional(z.int().check(z.gte(1, "must be from 1 to 100"), z.lte(100, "must be from 1 to 100"))),
  all: z.boolean(),
});
export type ListOptions = z.infer<typeof ListOptions>;

export function register(parent: Command, app: AppContext): void {
  parent
    .command("list")
    .description("List Failover backends, newest first")
    .option("--limit <n>", "how many per page, 1–100 (the API's default is 100)")
    .option("--all", "follow next_page_uri to fetch every page")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl failover list --limit 20
  $ edgectl failover list --all -o json | jq -r '.[] | select(.description == "") | .id'`,
    )
    .action(async (opts: { limit?: string; all?: boolean }, cmd: Command) => {
      if (opts.limit !== undefined && !/^\d+$/.test(opts.limit)) throw new UsageError(`--limit: "${opts.limit}" must be a whole number from 1 to 100`);
      const options = parseInput(
        ListOptions,
        { limit: opts.limit === undefined ? undefined : Number(opts.limit), all: Boolean(opts.all) },
        { limit: "--limit" },
      );
      await run(options, await app.deps(cmd));
    });
}

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

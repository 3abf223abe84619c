import * as z from "zod/mini";
import { listFailover, type FailoverBackend } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { failoverRows } from "./render.js";

const flags = {
  limit: {
    flag: "--limit <n>",
    help: "how many per page, 1–100 (the API's default is 100)",
    // Text that is not a number is quoted back; a number out of range is not.
    schema: () =>
      z.optional(
        z.pipe(
          z.pipe(
            z.string().check(z.refine((v) => /^\d+$/.test(v), "must be a whole number from 1 to 100")),
            z.transform(Number),
          ),
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
  examples: [
    "$ edgectl failover list --limit 20",
    "$ edgectl failover list --all -o json | jq -r '.[] | select(.description == \"\") | .id'",
  ],
  run,
});

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  let items: FailoverBackend[];
  try {
    items = await listFailover(client, { limit: options.limit, all: options.all });
  } finally {
    client.close();
  }
  if (items.length === 0 && deps.settings.output === "table") {
    deps.io.stderr.write("no Failover backends\n");
    return;
  }
  printResult(deps, items, (color) => failoverRows(items, color));
}

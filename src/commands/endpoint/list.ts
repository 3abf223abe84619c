import { listEndpoints, type Endpoint } from "../../api/endpoints.js";
import { shownData } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { allFlag, limitFlag } from "../flags.js";
import { showSecretFlag } from "./fields.js";
import { endpointRows } from "./render.js";

const flags = { limit: limitFlag, all: allFlag, showSecret: showSecretFlag };
export type ListOptions = OptionsOf<object, typeof flags>;

export const list = defineCommand({
  name: "list",
  description: "List endpoints (cloud, agent and edge), newest first",
  flags,
  examples: [
    "$ edgectl endpoint list --limit 20",
    "$ edgectl endpoint list --all -o json | jq -r '.[] | select(.type == \"cloud\") | .url'",
  ],
  run,
});

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const page = { more: false };
  let items: Endpoint[];
  try {
    items = await listEndpoints(client, {
      limit: options.limit,
      all: options.all,
      more: () => void (page.more = true),
    });
  } finally {
    client.close();
  }
  if (items.length === 0 && deps.settings.output === "table") {
    deps.io.stderr.write("no endpoints\n");
    return;
  }
  // The table shows no policy; JSON shows each as the API sent it, its secrets masked.
  const json = deps.settings.output !== "table" ? await shownData(items, options.showSecret) : items;
  printResult(deps, json, (color) => endpointRows(items, color));
  // The list stopped at one page while the API has more: never a silent cut.
  if (page.more) deps.io.stderr.write("more: use --all\n");
}

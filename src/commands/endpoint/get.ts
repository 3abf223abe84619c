import { getEndpoint } from "../../api/endpoints.js";
import { getEach, type IdsOptions } from "../batch.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { concurrencyFlag } from "../flags.js";
import { idsArg, resolveIds, showSecretFlag } from "./fields.js";
import { printEndpoints } from "./render.js";

export interface GetOptions extends IdsOptions {
  showSecret: boolean;
}

export const get = defineCommand({
  name: "get",
  description: "Show one or more endpoints, with their Traffic Policy",
  args: { ids: idsArg },
  flags: { concurrency: concurrencyFlag, showSecret: showSecretFlag },
  about: `The table shows the Traffic Policy as YAML (a JSON policy converted); -o json prints the
endpoint as the API returned it. Secrets in the policy are ******** unless --show-secret.`,
  examples: [
    "$ edgectl endpoint get ep_2abc",
    "$ edgectl endpoint get ep_2abc -o json | jq -r .traffic_policy",
    "$ edgectl endpoint list -o json | jq -r '.[].id' | edgectl endpoint get - -o json",
  ],
  run: async ({ ids, ...flags }, deps) => run({ ...(await resolveIds(ids, deps)), ...flags }, deps),
});

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  await getEach(deps, options, getEndpoint, (found) =>
    printEndpoints(deps, options.many ? found : found[0], found, options.showSecret),
  );
}

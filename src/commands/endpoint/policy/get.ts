// `edgectl endpoint policy get <ep-id>`: an endpoint's Traffic Policy alone, as stored, to read,
// diff or edit and send back with `endpoint update --traffic-policy-file`.
import { getEndpoint } from "../../../api/endpoints.js";
import { escapeControl } from "../../../text/escape.js";
import { shownData, shownPolicyText } from "../../../output/mask.js";
import { printResult } from "../../../output/print.js";
import { defineCommand, type OptionsOf } from "../../define.js";
import type { Deps } from "../../deps.js";
import { idSchema } from "../../input.js";
import { showSecretFlag } from "../fields.js";

const args = { id: { arg: "<ep-id>", help: "endpoint id (ep_…)", schema: () => idSchema("endpoint") } };
const flags = { showSecret: showSecretFlag };
export type PolicyGetOptions = OptionsOf<typeof args, typeof flags>;

export const get = defineCommand({
  name: "get",
  description: "Print an endpoint's Traffic Policy as stored (secrets masked)",
  args,
  flags,
  about: `Prints the policy text exactly as the API stores it (JSON stays JSON, YAML keeps its comments
and layout), each secret replaced where it stands by "********" as endpoint get masks it, unless
--show-secret; control characters other than tab and newline are shown escaped. An endpoint
without a policy prints nothing. -o json prints {"id","traffic_policy"}: the text as one JSON
string, masked alike.`,
  examples: [
    "$ edgectl endpoint policy get ep_2abc > policy.yml",
    "$ edgectl endpoint update ep_2abc --traffic-policy-file policy.yml",
    "$ edgectl endpoint policy get ep_2abc -o json | jq -r .traffic_policy",
  ],
  run,
});

export async function run(options: PolicyGetOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  try {
    const endpoint = await getEndpoint(client, options.id);
    const text = endpoint.traffic_policy ?? "";
    if (deps.settings.output !== "table")
      return printResult(
        deps,
        await shownData({ id: endpoint.id, traffic_policy: text }, options.showSecret),
        () => "",
      );
    const shown = await shownPolicyText(text, options.showSecret);
    const safe = shown
      .split("\n")
      .map((line) => line.split("\t").map(escapeControl).join("\t"))
      .join("\n");
    printResult(deps, undefined, () => (safe === "" || safe.endsWith("\n") ? safe : `${safe}\n`));
  } finally {
    client.close();
  }
}

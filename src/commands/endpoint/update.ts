import {
  bindingOf,
  endpointPath,
  getEndpoint,
  updateEndpoint,
  type Binding,
  type Endpoint,
  type EndpointUpdate,
} from "../../api/endpoints.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema } from "../input.js";
import { descriptionFlag, dryRunFlag, metadataFlag } from "../flags.js";
import { showSecretFlag } from "./fields.js";
import { checkEndpointInput, policyFileFlag, readPolicyText, secretsOf, urlFlag } from "./policy-input.js";
import { parsePolicyText } from "../../policy/parse.js";
import { MASK } from "../../secrets/index.js";
import { keepLiveSecrets } from "./live-secrets.js";
import { printEndpoints } from "./render.js";
import { every, turn } from "../../io/checkpoint.js";

const args = { id: { arg: "<ep-id>", help: "endpoint id (ep_…)", schema: () => idSchema("endpoint") } };
const flags = {
  url: urlFlag("new URL"),
  trafficPolicyFile: policyFileFlag("new Traffic Policy (JSON or YAML), sent as written; - reads stdin"),
  description: descriptionFlag('new description (at most 255 bytes; "" clears it)'),
  metadata: metadataFlag('new metadata (at most 4096 bytes; "" clears it)'),
  showSecret: showSecretFlag,
  dryRun: { ...dryRunFlag, help: "check and print the request (secrets masked) instead of sending it" },
};
export type UpdateOptions = OptionsOf<typeof args, typeof flags>;

export const update = defineCommand({
  name: "update",
  description: "Change an endpoint's URL, Traffic Policy, description or metadata (only the fields given)",
  args,
  flags,
  rules: [
    {
      ok: (o) =>
        o.url !== undefined ||
        o.trafficPolicyFile !== undefined ||
        o.description !== undefined ||
        o.metadata !== undefined,
      message: "nothing to update: give at least one of --url, --traffic-policy-file, --description, --metadata",
    },
  ],
  about: `With --url or --traffic-policy-file the endpoint is read first (a GET, also with --dry-run), so
they are checked for its protocol and binding as \`edgectl policy check\` does: any problem is
listed and nothing is changed (exit 2). A "********" (the mask edgectl prints) at a secret place
of the policy where the live policy holds a secret (same phase, rule and action) keeps that
secret; one where it holds none is exit 2 naming the place.`,
  examples: [
    "$ edgectl endpoint update ep_2abc --traffic-policy-file policy.yml",
    '$ edgectl endpoint update ep_2abc --description "shop (eu)"',
    "$ edgectl endpoint update ep_2abc --traffic-policy-file policy.yml --dry-run",
  ],
  run: async ({ trafficPolicyFile, ...options }, deps) =>
    run(
      {
        ...options,
        trafficPolicy: trafficPolicyFile === undefined ? undefined : await readPolicyText(trafficPolicyFile, deps),
      },
      deps,
    ),
});

export interface UpdateInput extends Omit<UpdateOptions, "trafficPolicyFile"> {
  trafficPolicy?: string;
}

export async function run(options: UpdateInput, deps: Deps): Promise<void> {
  const body: EndpointUpdate = {};
  if (options.url !== undefined) body.url = options.url;
  if (options.trafficPolicy !== undefined) body.traffic_policy = options.trafficPolicy;
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  const reads = options.url !== undefined || options.trafficPolicy !== undefined;
  if (options.dryRun && !reads) return printDryRun(deps, "PATCH", endpointPath(options.id), body);
  let policy =
    options.trafficPolicy === undefined ? undefined : await parsePolicyText(options.trafficPolicy, every(1000));
  let secrets = policy === undefined ? [] : secretsOf(policy);
  if (reads) {
    // The protocol and binding the URL and policy are checked for are the endpoint's.
    const reader = deps.client({ secrets });
    let current: Endpoint;
    try {
      current = await getEndpoint(reader, options.id);
    } finally {
      reader.close();
    }
    let kept: string[] = [];
    if (options.trafficPolicy !== undefined) {
      // A ******** where the live policy holds a secret keeps it (put back where the mask
      // stands); one with no live secret there is exit 2, and nothing is sent.
      const live = await keepLiveSecrets(options.trafficPolicy, current.traffic_policy);
      kept = live.kept;
      if (live.text !== options.trafficPolicy) {
        body.traffic_policy = live.text;
        policy = await parsePolicyText(live.text);
        secrets = secretsOf(policy);
      }
    }
    const binding: Binding = bindingOf(current);
    // A new URL with the policy kept: the kept policy must suit the new URL's protocol too.
    const keptPolicy = policy === undefined && current.traffic_policy ? current.traffic_policy : undefined;
    checkEndpointInput({
      url: options.url ?? current.url,
      urlGiven: options.url !== undefined,
      binding,
      policy: policy ?? (keptPolicy === undefined ? undefined : await parsePolicyText(keptPolicy)),
      policyKept: policy === undefined,
      // The warnings of the policy given, not of one the endpoint keeps.
      ...(policy === undefined ? {} : { warn: (l: string) => deps.io.stderr.write(l) }),
    });
    await turn(); // a signal during the check is heard before anything is sent (src/io/checkpoint.ts)
    if (options.dryRun) {
      for (const place of kept)
        deps.io.stderr.write(`note: --traffic-policy-file: ${place}: "${MASK}" keeps the endpoint's live secret\n`);
      return await printDryRun(deps, "PATCH", endpointPath(options.id), body);
    }
  }
  const client = deps.client({ secrets });
  try {
    const updated = await updateEndpoint(client, options.id, body);
    await printEndpoints(deps, updated, [updated], options.showSecret);
  } finally {
    client.close();
  }
}

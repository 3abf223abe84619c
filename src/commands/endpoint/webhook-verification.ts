// `edgectl endpoint webhook-verification replace`: the verify-webhook action of an endpoint's
// Traffic Policy, as `webhook-verification replace` sets an edge route's module.
import * as z from "zod/mini";
import { bindingOf, endpointPath, getEndpoint, updateEndpoint, type Endpoint } from "../../api/endpoints.js";
import type { Provider } from "../../api-data/providers.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema } from "../input.js";
import { readSecret, secretFlags } from "../webhook-verification/secret-input.js";
import { setVerifyWebhook } from "./edit-policy.js";
import { dryRunFlag } from "../flags.js";
import { showSecretFlag } from "./fields.js";
import { checkEndpointInput, secretsOf } from "./policy-input.js";
import { parsePolicyText } from "../../policy/parse.js";
import { printEndpoints } from "./render.js";
import { turn } from "../../io/checkpoint.js";
import { MASK } from "../../secrets/index.js";
import { escapeControl } from "../../text/escape.js";

const args = { id: { arg: "<ep-id>", help: "endpoint id (ep_…)", schema: () => idSchema("endpoint") } };

export const replace = defineCommand({
  name: "replace",
  description: "Set the provider and secret of the verify-webhook action in an endpoint's Traffic Policy",
  args,
  flags: {
    ...secretFlags,
    rule: {
      flag: "--rule <name>",
      help: "the rule whose verify-webhook action to change (needed when the policy has several)",
      schema: () => z.optional(z.string()),
    },
    showSecret: showSecretFlag,
    dryRun: { ...dryRunFlag, help: "read the endpoint and print the PATCH (secrets masked) instead of sending it" },
  },
  about: `Reads the endpoint, changes only that action's provider and secret (a YAML policy keeps its
comments and layout; JSON stays JSON) and sends the policy back (PATCH). The secret comes from
exactly one of --secret-stdin, --secret-file, --secret, or else EDGECTL_WEBHOOK_SECRET; every
provider needs one here, sns included. A secret of "********" (the mask edgectl prints) keeps the
action's live secret (exit 2 when it holds none).`,
  examples: [
    "$ edgectl endpoint webhook-verification replace ep_2abc --provider github --secret-file ./gh.secret",
    `$ printf %s "$STRIPE_SECRET" | edgectl endpoint webhook-verification replace ep_2abc --provider stripe --secret-stdin --rule hooks`,
  ],
  run: async ({ id, provider, rule, showSecret, dryRun, ...sources }, deps) =>
    run(
      {
        id,
        provider,
        rule,
        showSecret,
        dryRun,
        secret: (await readSecret(sources, provider, deps, { secretAlways: true }))!,
      },
      deps,
    ),
});

export interface ReplaceOptions {
  id: string;
  provider: Provider;
  secret: string;
  rule?: string;
  showSecret: boolean;
  dryRun: boolean;
}

export async function run(options: ReplaceOptions, deps: Deps): Promise<void> {
  const reader = deps.client({ secrets: [options.secret] });
  let endpoint: Endpoint;
  try {
    endpoint = await getEndpoint(reader, options.id);
  } finally {
    reader.close();
  }
  const current = endpoint.traffic_policy ?? "";
  // A --secret of ******** (the mask edgectl prints) keeps the action's live secret, if it has one.
  const keep = options.secret === MASK;
  const { text, rule, kept } = await setVerifyWebhook(
    current,
    options.provider,
    keep ? undefined : options.secret,
    options.rule,
  );
  const policy = await parsePolicyText(text);
  checkEndpointInput({ url: endpoint.url, urlGiven: false, binding: bindingOf(endpoint), policy });
  await turn(); // a signal during the check is heard before anything is sent (src/io/checkpoint.ts)
  const body = { traffic_policy: text };
  if (options.dryRun) {
    if (kept) deps.io.stderr.write(`note: --secret: "${MASK}" keeps the live secret of rule ${escapeControl(rule)}\n`);
    return printDryRun(deps, "PATCH", endpointPath(options.id), body);
  }
  // The policy's other secrets too, should an answer or a log line echo them.
  const secrets = [options.secret, ...secretsOf(policy)];
  const client = deps.client({ secrets });
  try {
    const updated = await updateEndpoint(client, options.id, body);
    await printEndpoints(deps, updated, [updated], options.showSecret);
  } finally {
    client.close();
  }
}

import * as z from "zod/mini";
import { createEndpoint, endpointsPath, type Binding, type EndpointCreate } from "../../api/endpoints.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { printEndpoints } from "./render.js";
import { descriptionFlag, dryRunFlag, metadataFlag } from "../flags.js";
import { showSecretFlag } from "./fields.js";
import { checkEndpointInput, policyFileFlag, readPolicyText, secretsOf } from "./policy-input.js";
import { parsePolicyText } from "../../policy/parse.js";
import { refuseMasks } from "./live-secrets.js";
import { switchValue } from "../input.js";
import { every, turn } from "../../io/checkpoint.js";

/** What --binding takes. */
const BINDINGS = ["public", "internal"] as const satisfies readonly Binding[];

const required = (what: string) => () => z.string({ error: `required: ${what}` });

const flags = {
  url: {
    flag: "--url <url>",
    help: "the endpoint's URL: https://host, http://host, tls://host, tcp://host:port",
    schema: required("the endpoint's URL (e.g. https://shop.example.com)"),
  },
  trafficPolicyFile: {
    ...policyFileFlag("the Traffic Policy (JSON or YAML), sent as written; - reads stdin"),
    schema: required("a Traffic Policy file (JSON or YAML), or - for stdin"),
  },
  description: descriptionFlag("human-readable description (at most 255 bytes)"),
  metadata: metadataFlag("arbitrary metadata (at most 4096 bytes)"),
  binding: {
    flag: "--binding <binding>",
    help: "public (default) or internal (a *.internal URL)",
    schema: () => z.optional(z.enum(BINDINGS, { error: 'must be "public" or "internal"' })),
    complete: BINDINGS,
  },
  pooling: {
    flag: "--pooling",
    help: "let several endpoints share the URL (pooling_enabled)",
    ...switchValue(),
  },
  showSecret: showSecretFlag,
  dryRun: { ...dryRunFlag, help: "check and print the request (secrets masked) instead of sending it" },
};
export type CreateOptions = OptionsOf<object, typeof flags>;

export const create = defineCommand({
  name: "create",
  description: "Create a Cloud Endpoint with a Traffic Policy",
  flags,
  about: `The URL and the policy are checked first, as \`edgectl policy check\` does: any problem is
listed and nothing is sent (exit 2). The policy is sent as written (YAML stays YAML). A
"********" (the mask edgectl prints) at a secret place is refused (exit 2): write the secret.`,
  examples: [
    "$ edgectl endpoint create --url https://shop.example.com --traffic-policy-file policy.yml",
    "$ edgectl endpoint create --url https://api.internal --binding internal --traffic-policy-file - < policy.json",
    "$ id=$(edgectl endpoint create --url https://a.example.com --traffic-policy-file p.yml -o json | jq -r .id)",
  ],
  run: async ({ trafficPolicyFile, ...options }, deps) =>
    run({ ...options, trafficPolicy: await readPolicyText(trafficPolicyFile, deps) }, deps),
});

export interface CreateInput extends Omit<CreateOptions, "trafficPolicyFile"> {
  /** The policy's text as read. */
  trafficPolicy: string;
}

export async function run(options: CreateInput, deps: Deps): Promise<void> {
  const binding: Binding = options.binding ?? "public";
  const policy = await parsePolicyText(options.trafficPolicy, every(1000));
  // A "********" at a secret place is the mask edgectl prints, not a secret: there is no live one to keep.
  await refuseMasks(options.trafficPolicy);
  checkEndpointInput({ url: options.url, urlGiven: true, binding, policy, warn: (l) => deps.io.stderr.write(l) });
  await turn(); // a signal during the check is heard before anything is sent (src/io/checkpoint.ts)
  const body: EndpointCreate = { type: "cloud", url: options.url, traffic_policy: options.trafficPolicy };
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.binding !== undefined) body.bindings = [options.binding];
  if (options.pooling) body.pooling_enabled = true;
  if (options.dryRun) return printDryRun(deps, "POST", endpointsPath, body);
  const client = deps.client({ secrets: secretsOf(policy) });
  try {
    const created = await createEndpoint(client, body);
    await printEndpoints(deps, created, [created], options.showSecret);
  } finally {
    client.close();
  }
}

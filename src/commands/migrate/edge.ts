import * as z from "zod/mini";
import { createEndpoint, endpointsPath, type Endpoint, type EndpointCreate } from "../../api/endpoints.js";
import { UsageError } from "../../errors.js";
import { renderJson } from "../../output/json.js";
import { shownData } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRuns } from "../dry-run.js";
import { idSchema } from "../input.js";
import { parseMaps } from "../../migrate/internal-url.js";
import { planEdge, type NotMigrated, type Plan, type PlannedEndpoint } from "../../migrate/plan.js";
import { maskPolicy, policyJsonText, policySecrets, policyYaml } from "../../migrate/policy.js";
import { readEdgeAndBackends } from "../../migrate/read.js";

const args = { edgeId: { arg: "<edge-id>", help: "HTTPS edge id (edghts_…)", schema: () => idSchema("edge") } };
const flags = {
  maps: {
    flag: "--map <backend-id>=<url>",
    help: "forward this backend to an internal URL (https://….internal); repeatable",
    schema: () =>
      z.pipe(
        z.transform((v: unknown) => v ?? []),
        z.array(z.string()),
      ),
    repeat: (value: string, previous: string[] = []) => [...previous, value],
  },
  showSecret: { flag: "--show-secret", help: "print webhook secrets instead of ********", schema: () => z.boolean() },
  apply: { flag: "--apply", help: "create the endpoints (POST /endpoints) and print them", schema: () => z.boolean() },
  allowPartial: {
    flag: "--allow-partial",
    help: "with --apply: create them even though some items cannot be migrated",
    schema: () => z.boolean(),
  },
  dryRun: {
    flag: "--dry-run",
    help: "print the POST requests --apply would send, and send only the reads",
    schema: () => z.boolean(),
  },
};
export type EdgeOptions = OptionsOf<typeof args, typeof flags>;

export const edge = defineCommand({
  name: "edge",
  description: "Plan (and with --apply create) the Cloud Endpoints with a Traffic Policy that replace an HTTPS edge",
  args,
  flags,
  rules: [
    {
      ok: (o) => !o.allowPartial || o.apply || o.dryRun,
      message: "--allow-partial is only for --apply (or --dry-run)",
    },
  ],
  about: `Reads the edge and the backends its routes use (GETs only: works on a read-only account) and
prints, per hostport, the endpoint's Traffic Policy as YAML; -o json prints the whole plan.
Whatever cannot be carried over is listed as warnings on stderr (with -o json: in the plan).`,
  examples: [
    "$ edgectl migrate edge edghts_2abc",
    "$ edgectl migrate edge edghts_2abc --map bkdwd_1=https://api.internal -o json",
    "$ edgectl migrate edge edghts_2abc --apply --dry-run",
    "$ edgectl migrate edge edghts_2abc --apply",
  ],
  run,
});

export async function run(options: EdgeOptions, deps: Deps): Promise<void> {
  // Every usage problem is found before anything is sent.
  const maps = parseMaps(options.maps);
  const { plan, warnings } = await readAndPlan(options.edgeId, maps, deps);
  for (const w of warnings) deps.warn(w);
  if (!options.apply && !options.dryRun) {
    // With -o json the list is in the plan itself.
    if (deps.settings.output !== "json") for (const item of plan.not_migrated) deps.warn(notMigratedLine(item));
    return printPlan(plan, options.showSecret, deps);
  }
  for (const item of plan.not_migrated) deps.warn(notMigratedLine(item));
  if (plan.not_migrated.length > 0 && !options.allowPartial) {
    throw new UsageError(
      `${plan.not_migrated.length} item(s) of edge ${plan.edge_id} cannot be migrated (listed in the warnings); nothing was created. Rerun with --allow-partial to create the endpoints without them`,
    );
  }
  const secrets = plan.endpoints.flatMap((e) => policySecrets(e.traffic_policy));
  if (options.dryRun) {
    const requests = plan.endpoints.map((e) => ({
      method: "POST" as const,
      path: endpointsPath,
      body: createBody(e, false),
    }));
    return printDryRuns(deps, requests);
  }
  const created = await createAll(plan.endpoints, secrets, deps);
  const shown = await shownData(created, options.showSecret);
  printResult(deps, shown, (color) =>
    renderRows(
      ["ID", "URL"],
      shown.map((e) => [e.id, e.url]),
      color,
    ),
  );
}

async function readAndPlan(edgeId: string, maps: Map<string, string>, deps: Deps) {
  const client = deps.client();
  try {
    const { edge, backends } = await readEdgeAndBackends(client, edgeId, maps);
    return planEdge(edge, backends, maps);
  } finally {
    client.close();
  }
}

function notMigratedLine(item: NotMigrated): string {
  return `not migrated: ${item.route_id ? `route ${item.route_id}` : "edge"}: ${item.item}: ${item.reason}`;
}

function createBody(endpoint: PlannedEndpoint, withSecrets: boolean): EndpointCreate {
  const policy = withSecrets ? endpoint.traffic_policy : maskPolicy(endpoint.traffic_policy);
  return {
    type: "cloud",
    url: endpoint.url,
    description: endpoint.description,
    metadata: endpoint.metadata,
    traffic_policy: policyJsonText(policy),
  };
}

/** One POST at a time, in plan order; after a failure nothing more is sent, and what was created is told. */
async function createAll(endpoints: PlannedEndpoint[], secrets: string[], deps: Deps): Promise<Endpoint[]> {
  const client = deps.client({ secrets });
  const created: Endpoint[] = [];
  try {
    for (const endpoint of endpoints) {
      try {
        created.push(await createEndpoint(client, createBody(endpoint, true)));
      } catch (err) {
        for (const e of created) deps.warn(`created before the failure: ${e.id} ${e.url}`);
        deps.warn(
          `creating the endpoint ${endpoint.url} failed; it was not retried${created.length ? "" : " and no endpoint was created before it"}; check with \`edgectl api GET /endpoints\` before running --apply again`,
        );
        throw err;
      }
    }
  } finally {
    client.close();
  }
  return created;
}

async function printPlan(plan: Plan, showSecret: boolean, deps: Deps): Promise<void> {
  const shown = showSecret
    ? plan
    : { ...plan, endpoints: plan.endpoints.map((e) => ({ ...e, traffic_policy: maskPolicy(e.traffic_policy) })) };
  if (deps.settings.output === "json") return void deps.io.stdout.write(renderJson(shown));
  const docs = await Promise.all(shown.endpoints.map(async (e) => `# ${e.url}\n${await policyYaml(e.traffic_policy)}`));
  if (docs.length > 0) deps.io.stdout.write(docs.join("---\n"));
}

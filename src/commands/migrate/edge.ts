import type { Command } from "commander";
import * as z from "zod/mini";
import { createEndpoint, endpointsPath, type Endpoint, type EndpointCreate } from "../../api/endpoints.js";
import { redactText } from "../../api/redact.js";
import { UsageError } from "../../errors.js";
import { renderJson } from "../../output/json.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import type { Deps, AppContext } from "../deps.js";
import { printDryRuns } from "../dry-run.js";
import { idSchema, parseInput } from "../input.js";
import { parseMaps } from "../../migrate/internal-url.js";
import { planEdge, type NotMigrated, type Plan, type PlannedEndpoint } from "../../migrate/plan.js";
import { maskPolicy, policyJsonText, policySecrets, policyYaml } from "../../migrate/policy.js";
import { readEdgeAndBackends } from "../../migrate/read.js";

const EdgeOptions = z.object({
  edgeId: idSchema("edge"),
  maps: z.array(z.string()),
  showSecret: z.boolean(),
  apply: z.boolean(),
  allowPartial: z.boolean(),
  dryRun: z.boolean(),
});
export type EdgeOptions = z.infer<typeof EdgeOptions>;

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function register(parent: Command, app: AppContext): void {
  parent
    .command("edge")
    .description("Plan (and with --apply create) the Cloud Endpoints with a Traffic Policy that replace an HTTPS edge")
    .argument("<edge-id>", "HTTPS edge id (edghts_…)")
    .option("--map <backend-id>=<url>", "forward this backend to an internal URL (https://….internal); repeatable", collect)
    .option("--show-secret", "print webhook secrets instead of ********")
    .option("--apply", "create the endpoints (POST /endpoints) and print them")
    .option("--allow-partial", "with --apply: create them even though some items cannot be migrated")
    .option("--dry-run", "print the POST requests --apply would send, and send only the reads")
    .addHelpText(
      "after",
      `
Reads the edge and the backends its routes use (GETs only: works on a read-only account) and
prints, per hostport, the endpoint's Traffic Policy as YAML; -o json prints the whole plan.
Whatever cannot be carried over is listed as warnings on stderr (with -o json: in the plan).

Examples:
  $ edgectl migrate edge edghts_2abc
  $ edgectl migrate edge edghts_2abc --map bkdwd_1=https://api.internal -o json
  $ edgectl migrate edge edghts_2abc --apply --dry-run
  $ edgectl migrate edge edghts_2abc --apply`,
    )
    .action(async (edgeId: string, opts: Record<string, unknown>, cmd: Command) => {
      const options = parseInput(
        EdgeOptions,
        {
          edgeId,
          maps: opts.map ?? [],
          showSecret: Boolean(opts.showSecret),
          apply: Boolean(opts.apply),
          allowPartial: Boolean(opts.allowPartial),
          dryRun: Boolean(opts.dryRun),
        },
        { edgeId: "<edge-id>", maps: "--map" },
      );
      await run(options, await app.deps(cmd));
    });
}

export async function run(options: EdgeOptions, deps: Deps): Promise<void> {
  // Every usage problem is found before anything is sent.
  const maps = parseMaps(options.maps);
  if (options.allowPartial && !options.apply && !options.dryRun) throw new UsageError("--allow-partial is only for --apply (or --dry-run)");
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
    const requests = plan.endpoints.map((e) => ({ method: "POST" as const, path: endpointsPath, body: createBody(e, false) }));
    return printDryRuns(deps, requests, secrets);
  }
  const created = await createAll(plan.endpoints, secrets, deps);
  const shown = options.showSecret ? created : created.map((e) => (typeof e.traffic_policy === "string" ? { ...e, traffic_policy: redactText(e.traffic_policy, secrets) } : e));
  printResult(deps, shown, (color) => renderRows(["ID", "URL"], shown.map((e) => [e.id, e.url]), color));
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
  return { type: "cloud", url: endpoint.url, description: endpoint.description, metadata: endpoint.metadata, traffic_policy: policyJsonText(policy) };
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
        deps.warn(`creating the endpoint ${endpoint.url} failed; it was not retried${created.length ? "" : " and no endpoint was created before it"}; check with \`edgectl api GET /endpoints\` before running --apply again`);
        throw err;
      }
    }
  } finally {
    client.close();
  }
  return created;
}

async function printPlan(plan: Plan, showSecret: boolean, deps: Deps): Promise<void> {
  const shown = showSecret ? plan : { ...plan, endpoints: plan.endpoints.map((e) => ({ ...e, traffic_policy: maskPolicy(e.traffic_policy) })) };
  if (deps.settings.output === "json") return void deps.io.stdout.write(renderJson(shown));
  const docs = await Promise.all(shown.endpoints.map(async (e) => `# ${e.url}\n${await policyYaml(e.traffic_policy)}`));
  if (docs.length > 0) deps.io.stdout.write(docs.join("---\n"));
}

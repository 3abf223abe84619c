import { isDeepStrictEqual } from "node:util";
import * as z from "zod/mini";
import {
  createEndpoint,
  endpointsPath,
  listAllEndpoints,
  type Endpoint,
  type EndpointCreate,
} from "../../api/endpoints.js";
import { edgeKindOf, type AnyEdge, type EdgeKind } from "../../api/edges.js";
import { ID_RULES } from "../../api-data/ids.js";
import { CheckFailedError, UsageError } from "../../errors.js";
import { escapeControl } from "../../text/escape.js";
import { maskSecretsIn } from "../../output/mask.js";
import { printResult, renderData } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps, InterruptReport } from "../deps.js";
import { printDryRuns } from "../dry-run.js";
import { INTERNAL_SCHEMES, parseMaps } from "../../migrate/internal-url.js";
import {
  assertPlansValid,
  planEdges,
  policyTexts,
  type NotMigrated,
  type ParsedPolicy,
  type Plan,
  type PlannedEndpoint,
  type Warning,
} from "../../migrate/plan.js";
import { maskPolicy, policyJsonText, policyYaml, type TrafficPolicy } from "../../migrate/policy.js";
import { readEdges } from "../../migrate/read.js";
import type { VerifyReport } from "../../migrate/verify/index.js";
import { loadSchemes, loadSigner } from "../policy/schemes.js";
import { parsePolicyText } from "../../policy/parse.js";
import { switchValue } from "../input.js";
import { every, turn } from "../../io/checkpoint.js";

const args = {
  edgeIds: {
    arg: "[edge-id...]",
    help: "HTTPS, TLS or TCP edge id(s) (edghts_…, edgtls_…, edgtcp_…)",
    schema: () =>
      z.pipe(
        z.transform((v: unknown) => v ?? []),
        z.array(z.string().check(z.refine((v) => ID_RULES.anyEdge.re.test(v), ID_RULES.anyEdge.rule))),
      ),
  },
};
const flags = {
  all: { flag: "--all", help: "every edge of the three kinds (read by listing)", ...switchValue() },
  maps: {
    flag: "--map <backend-id>=<url>",
    help: "forward this backend to an internal URL (https://….internal, tls://….internal, tcp://….internal:<port>); repeatable",
    schema: () =>
      z.pipe(
        z.transform((v: unknown) => v ?? []),
        z.array(z.string()),
      ),
    repeat: (value: string, previous: string[] = []) => [...previous, value],
  },
  showSecret: {
    flag: "--show-secret",
    help: "print webhook and OAuth/OIDC client secrets instead of ********",
    ...switchValue(),
  },
  apply: { flag: "--apply", help: "create the endpoints (POST /endpoints) and print them", ...switchValue() },
  allowPartial: {
    flag: "--allow-partial",
    help: "with --apply: create them even though some items cannot be migrated (those fail closed)",
    ...switchValue(),
  },
  dryRun: {
    flag: "--dry-run",
    help: "print the POST requests --apply would send, and send only the reads",
    ...switchValue(),
  },
  verify: {
    flag: "--verify",
    help: "send generated requests through a model of each edge and through its plan; exit 1 if the plan lets through, or routes elsewhere, a request the edge did not",
    ...switchValue(),
  },
};
export type EdgeOptions = OptionsOf<typeof args, typeof flags>;

export const edge = defineCommand({
  name: "edge",
  description: "Plan (and with --apply create) the Cloud Endpoints with a Traffic Policy that replace edges",
  args,
  flags,
  rules: [
    {
      ok: (o) => !o.allowPartial || o.apply || o.dryRun,
      message: "--allow-partial is only for --apply (or --dry-run)",
    },
    { ok: (o) => o.all || o.edgeIds.length > 0, message: "give edge ids or --all" },
    { ok: (o) => !(o.all && o.edgeIds.length > 0), message: "give edge ids or --all, not both" },
  ],
  about: `Reads the edges and the backends they use (GETs only: works on a read-only account) and
prints, per hostport, the endpoint's Traffic Policy as YAML; -o json prints the whole plan.
Whatever cannot be carried over is listed on stderr (with -o json: in the plan) and fails closed.`,
  examples: [
    "$ edgectl migrate edge edghts_2abc",
    "$ edgectl migrate edge edghts_2abc edgtcp_3def --map bkdwd_1=https://api.internal -o json",
    "$ edgectl migrate edge --all",
    "$ edgectl migrate edge edghts_2abc --apply --dry-run",
    "$ edgectl migrate edge edghts_2abc --apply",
  ],
  run,
});

export async function run(options: EdgeOptions, deps: Deps): Promise<void> {
  // Every usage problem is found before anything is sent: a --map URL must suit the edges'
  // kinds when the ids name them (with --all the planner checks each use).
  const kinds = new Set<EdgeKind>(options.edgeIds.map((id) => edgeKindOf(id)!));
  const schemes = options.all ? undefined : [...kinds].flatMap((k) => INTERNAL_SCHEMES[k]);
  const maps = parseMaps(options.maps, schemes);
  const { plans, edges } = await readAndPlan(options, maps, deps);
  // A plan the validator refuses is a bug: nothing is printed or sent.
  assertPlansValid(plans);
  const verified = options.verify ? await verifyPlans(edges, plans) : undefined;
  // Each stage of the local work (parse, plan, check, mask) lets the event loop turn: a signal
  // is heard at once, and nothing is printed or sent after it (src/io/checkpoint.ts).
  await turn();
  const many = options.all || options.edgeIds.length > 1;
  if (!options.apply && !options.dryRun) {
    // With -o json or -o yaml the lists are in the plan itself.
    if (deps.settings.output === "table") reportItems(plans, deps);
    await printPlans(plans, many, options.showSecret, deps, verified);
    return verdict(verified, deps);
  }
  // A plan that lets through what the edge refused is never created.
  if (verified) verdict(verified, deps);
  const existing = await existingEndpoints(plans, deps);
  reportItems(plans, deps);
  const notMigrated = plans.flatMap((p) => p.not_migrated);
  if (notMigrated.length > 0 && !options.allowPartial) {
    throw new UsageError(
      `${notMigrated.length} item(s) cannot be migrated (each a "not migrated" warning); nothing was created. Rerun with --allow-partial to create the endpoints with those parts failing closed`,
      // -o json: the items as the plan lists them, for a script to read.
      { not_migrated: notMigrated },
    );
  }
  const todo = plans.flatMap((p) =>
    p.endpoints.filter((e) => !existing.has(e.url)).map((endpoint) => ({ edgeId: p.edge_id, endpoint })),
  );
  if (options.dryRun) {
    // The bodies are masked structurally: nothing else in them is touched.
    const requests = todo.map(({ endpoint }) => ({
      method: "POST" as const,
      path: endpointsPath,
      body: createBody(endpoint, false),
    }));
    return printDryRuns(deps, requests);
  }
  const created = await createAll(todo, deps);
  const endpoints = created.map((c) => c.endpoint);
  const shown = options.showSecret ? endpoints : ((await maskSecretsIn(endpoints)) as Endpoint[]);
  await turn();
  // Nothing created (all existed): a table shows nothing, JSON an empty array.
  if (shown.length === 0 && deps.settings.output === "table") return;
  printResult(deps, shown, (color) =>
    renderRows(
      ["ID", "URL", "EDGE"],
      shown.map((e, i) => [e.id, e.url, created[i]!.edgeId]),
      color,
      ["ID", "EDGE"],
    ),
  );
}

/** A progress line on stderr while reading, on a terminal only (as a batch's). */
export function progressOn(deps: Pick<Deps, "io">): { update?: (message: string) => void; done: () => void } {
  if (!deps.io.stderr.isTTY) return { done: () => {} };
  let drawn = false;
  return {
    update: (message) => {
      drawn = true;
      deps.io.stderr.write(`\r\x1b[2K${escapeControl(message)}`);
    },
    done: () => {
      if (drawn) deps.io.stderr.write("\r\x1b[2K");
    },
  };
}

async function readAndPlan(
  options: EdgeOptions,
  maps: Map<string, string>,
  deps: Deps,
): Promise<{ plans: Plan[]; edges: AnyEdge[] }> {
  const client = deps.client();
  const progress = progressOn(deps);
  let read;
  try {
    read = await readEdges(client, options.all ? { all: true } : { ids: options.edgeIds }, maps, progress.update);
  } finally {
    progress.done();
    client.close();
  }
  // Policy modules may be YAML: parsed here, where the library may be loaded.
  const policies = new Map<string, ParsedPolicy>();
  const checkpoint = every(20);
  for (const text of policyTexts(read.edges)) {
    await checkpoint();
    const parsed = await parsePolicyText(text);
    policies.set(
      text,
      parsed.ok ? { document: parsed.document } : { error: parsed.problems.map((p) => p.message).join("; ") },
    );
  }
  await turn();
  const plans = planEdges(read.edges, { backends: read.backends, maps, policies });
  await turn();
  return { plans, edges: read.edges };
}

/** --verify: each plan against the model of its edge (src/migrate/verify), the evaluator and the webhook schemes loaded only here. */
async function verifyPlans(edges: AnyEdge[], plans: Plan[]): Promise<VerifyReport[]> {
  const [{ verifyPlan }, evaluate, schemes, deliver] = await Promise.all([
    import("../../migrate/verify/index.js"),
    import("../../policy/evaluate/index.js"),
    loadSchemes(),
    loadSigner(),
  ]);
  const byId = new Map(edges.map((e) => [e.edge.id, e]));
  // Signed and checked at the same instant: the outcome does not depend on the clock.
  const now = new Date();
  const reports: VerifyReport[] = [];
  for (const plan of plans) {
    // Every plan comes from an edge read in this run.
    reports.push(verifyPlan(byId.get(plan.edge_id)!, plan, { ...evaluate, schemes, deliver, now }));
    await turn();
  }
  return reports;
}

/** One line per request whose outcome differs, then the count, on stderr; exit 1 when any is unsafe. */
function verdict(reports: VerifyReport[] | undefined, deps: Deps): void {
  if (!reports) return;
  const requests = reports.reduce((n, r) => n + r.requests, 0);
  const differences = reports.flatMap((r) => r.differences);
  const unsafe = reports.reduce((n, r) => n + r.unsafe, 0);
  // -o json / yaml carry them in each plan's `verify`.
  if (deps.settings.output === "table")
    for (const d of differences) {
      const r = d.request;
      const who = [`from ${r.client_ip}`, r.user_agent ? `UA ${JSON.stringify(r.user_agent)}` : "no UA"];
      if (r.email) who.push(`as ${r.email}`);
      if (r.signed) who.push("signed");
      const line = `verify: ${d.severity}: ${r.method} ${r.url} (${who.join(", ")}): edge ${d.edge}; plan ${d.plan}`;
      deps.io.stderr.write(`${escapeControl(line)}\n`);
    }
  const summary = `verify: ${requests} request(s); ${differences.length} differ, ${unsafe} let through or routed elsewhere what the edge did not`;
  if (unsafe > 0) throw new CheckFailedError(summary);
  deps.io.stderr.write(`${summary}\n`);
}

function notMigratedLine(item: NotMigrated): string {
  return `not migrated: edge ${item.edge_id}${item.route_id ? ` route ${item.route_id}` : ""}: ${item.item}: ${item.reason}`;
}

function warningLine(item: Warning): string {
  return `changed: edge ${item.edge_id}${item.route_id ? ` route ${item.route_id}` : ""}: ${item.item}: ${item.message}`;
}

function reportItems(plans: Plan[], deps: Deps): void {
  for (const plan of plans) {
    for (const item of plan.not_migrated) deps.warn(notMigratedLine(item));
    for (const item of plan.warnings) deps.warn(warningLine(item));
  }
}

/** A URL as endpoints compare: lower case, without the scheme's default port. */
export function comparableUrl(url: string): string {
  const lower = url.toLowerCase().replace(/\/$/, "");
  return lower.replace(/^(https|tls):\/\/([^/]+):443$/, "$1://$2").replace(/^http:\/\/([^/]+):80$/, "http://$1");
}

/**
 * --apply's first read: the account's endpoints. A planned URL that has one with the same
 * policy is skipped (reported as existing, so --apply can run again after a failure); one with
 * another policy is not migrated (item `endpoint`). Returns the planned URLs to skip.
 */
async function existingEndpoints(plans: Plan[], deps: Deps): Promise<Set<string>> {
  const client = deps.client();
  let endpoints: Endpoint[];
  try {
    endpoints = await listAllEndpoints(client);
  } finally {
    client.close();
  }
  const byUrl = new Map<string, Endpoint[]>();
  for (const e of endpoints) {
    const key = comparableUrl(e.url);
    byUrl.set(key, [...(byUrl.get(key) ?? []), e]);
  }
  const skip = new Set<string>();
  for (const plan of plans) {
    for (const planned of plan.endpoints) {
      const found = byUrl.get(comparableUrl(planned.url));
      if (!found) continue;
      let same: Endpoint | undefined;
      for (const e of found) {
        await turn();
        if (typeof e.traffic_policy !== "string") continue;
        const parsed = await parsePolicyText(e.traffic_policy);
        if (parsed.ok && isDeepStrictEqual(plainData(parsed.document), plainData(planned.traffic_policy))) same = e;
      }
      if (same) {
        skip.add(planned.url);
        deps.warn(`exists: ${planned.url} is already endpoint ${same.id} with this policy; it is not created again`);
      } else {
        plan.not_migrated.push({
          edge_id: plan.edge_id,
          route_id: null,
          item: "endpoint",
          reason: `${planned.url} is already endpoint ${found.map((e) => e.id).join(", ")} with another policy; compare and update or delete it by hand`,
        });
        skip.add(planned.url);
      }
    }
  }
  return skip;
}

/** Data as JSON would carry it (no undefined fields), for comparison. */
const plainData = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown;

function createBody(endpoint: PlannedEndpoint, withSecrets: boolean): EndpointCreate {
  const policy: TrafficPolicy = withSecrets ? endpoint.traffic_policy : maskPolicy(endpoint.traffic_policy);
  return {
    type: "cloud",
    url: endpoint.url,
    description: endpoint.description,
    metadata: endpoint.metadata,
    traffic_policy: policyJsonText(policy),
  };
}

/**
 * One POST at a time, in plan order; after a failure nothing more is sent, and what was created
 * is told. Ctrl-C or SIGTERM meanwhile says it too, as an interrupted batch does
 * (src/commands/batch.ts): the endpoints created and those not (`-o json`: the error's details).
 */
async function createAll(
  todo: { edgeId: string; endpoint: PlannedEndpoint }[],
  deps: Deps,
): Promise<{ edgeId: string; endpoint: Endpoint }[]> {
  const client = deps.client();
  const created: { edgeId: string; endpoint: Endpoint }[] = [];
  let inFlight: string | undefined;
  deps.reportOnInterrupt?.(() => interruptReport(todo, created, inFlight));
  try {
    for (const { edgeId, endpoint } of todo) {
      try {
        inFlight = endpoint.url;
        created.push({ edgeId, endpoint: await createEndpoint(client, createBody(endpoint, true)) });
        inFlight = undefined;
      } catch (err) {
        inFlight = undefined;
        for (const c of created) deps.warn(`created before the failure: ${c.endpoint.id} ${c.endpoint.url}`);
        deps.warn(
          `creating the endpoint ${endpoint.url} failed; it was not retried${created.length ? "" : " and no endpoint was created before it"}; check with \`edgectl api GET /endpoints\`, then run --apply again (endpoints already created with the same policy are skipped)`,
        );
        throw err;
      }
    }
  } finally {
    client.close();
  }
  return created;
}

/**
 * What an interrupted --apply did: the endpoints created (URL and id) and the rest, not created;
 * the one whose POST was in flight is not created, but may have been.
 */
function interruptReport(
  todo: { edgeId: string; endpoint: PlannedEndpoint }[],
  created: { edgeId: string; endpoint: Endpoint }[],
  inFlight: string | undefined,
): InterruptReport | undefined {
  if (todo.length === 0) return undefined;
  const done = created.map((c) => ({ url: c.endpoint.url, id: c.endpoint.id, edge_id: c.edgeId }));
  const notDone = todo.slice(created.length).map((t) => ({ url: t.endpoint.url, edge_id: t.edgeId }));
  const maybe =
    inFlight === undefined ? "" : `; 1 of them was in flight and may have been created: ${escapeControl(inFlight)}`;
  return {
    message: `${done.length} of ${todo.length} endpoints created, ${notDone.length} not${maybe}`,
    lines: [
      `created (${done.length}):${done.map((d) => ` ${escapeControl(d.url)} (${escapeControl(d.id)})`).join("")}`,
      `not created (${notDone.length}):${notDone.map((d) => ` ${escapeControl(d.url)}`).join("")}`,
      "check with `edgectl api GET /endpoints`, then run --apply again (endpoints already created with the same policy are skipped)",
    ],
    details: { done, not_done: notDone },
  };
}

async function printPlans(
  plans: Plan[],
  many: boolean,
  showSecret: boolean,
  deps: Deps,
  verified?: VerifyReport[],
): Promise<void> {
  const shown = plans.map((p, i) => ({
    ...p,
    endpoints: showSecret
      ? p.endpoints
      : p.endpoints.map((e) => ({ ...e, traffic_policy: maskPolicy(e.traffic_policy) })),
    // -o json / yaml: what --verify found, beside the plan it checked.
    ...(verified?.[i] ? { verify: verified[i] } : {}),
  }));
  await turn();
  const { output } = deps.settings;
  if (output !== "table") return void deps.io.stdout.write(renderData(output, many ? shown : shown[0]));
  const docs: string[] = [];
  for (const plan of shown)
    for (const e of plan.endpoints)
      // The comment line is text from the API: escaped, so no line break in it starts YAML.
      docs.push(`# ${escapeControl(e.url)} (edge ${escapeControl(plan.edge_id)})\n${policyYaml(e.traffic_policy)}`);
  if (docs.length > 0) deps.io.stdout.write(docs.join("---\n"));
}

// The migration planner: pure functions from what the API showed (edges of the three kinds and
// the backends they use) and the operator's --map to the Cloud Endpoints that replace them.
// Nothing here reads or writes; the command does that around it. The rule above all others:
// a planned endpoint never lets through a request the edge refused, and never sends a route's
// traffic somewhere the edge did not. What cannot be carried over is listed and fails closed.
import type { AnyEdge, EdgeKind, HttpsEdge, HttpsEdgeRoute, TcpEdge, TlsEdge } from "../api/edges.js";
import type { Backend } from "../api/backends.js";
import { OTHER_ROUTE_MODULES } from "../api-data/route-modules.js";
import { InternalError } from "../errors.js";
import { checkPolicy, type Protocol } from "../policy/index.js";
import { backendIdOf, hostCollisions, translateBackend } from "./modules/backends.js";
import { translateCircuitBreaker } from "./modules/circuit-breaker.js";
import { translateCompression } from "./modules/compression.js";
import { translateHeaders } from "./modules/headers.js";
import { translateIpRestriction } from "./modules/ip-restriction.js";
import { translateOauth } from "./modules/oauth.js";
import { translateOidc } from "./modules/oidc.js";
import { copyRule, translateEdgePolicy, translateRoutePolicy } from "./modules/route-policy.js";
import { translateTls } from "./modules/tls.js";
import { translateUserAgentFilter } from "./modules/user-agent-filter.js";
import { translateWebhookVerification } from "./modules/webhook-verification.js";
import {
  DENY_503,
  isObj,
  isOn,
  type ModuleTranslator,
  type Obj,
  type Step,
  type Translation,
} from "./modules/translator.js";
import {
  exactPathExpression,
  hostExpression,
  hostVariantExpression,
  pathPrefixExpression,
  type Action,
  type Rule,
  type TrafficPolicy,
} from "./policy.js";

export interface NotMigrated {
  edge_id: string;
  route_id: string | null;
  item: string;
  reason: string;
}

export interface Warning {
  edge_id: string;
  route_id: string | null;
  item: string;
  message: string;
}

export interface PlannedEndpoint {
  url: string;
  description: string;
  metadata: string;
  traffic_policy: TrafficPolicy;
}

export interface Plan {
  edge_id: string;
  endpoints: PlannedEndpoint[];
  not_migrated: NotMigrated[];
  warnings: Warning[];
}

/** Backends read so far by id; null for one the API does not have (404). */
export type BackendsRead = ReadonlyMap<string, Backend | null>;

/** A traffic_policy module's text parsed (JSON or YAML), or why it could not be. */
export type ParsedPolicy = { document: unknown } | { error: string };

export interface PlanInput {
  backends: BackendsRead;
  maps: ReadonlyMap<string, string>;
  /**
   * Policy module texts parsed by the caller (YAML needs a library loaded apart); a text not
   * in the map is read as JSON.
   */
  policies?: ReadonlyMap<string, ParsedPolicy>;
}

// Keys edgectl knows, per object: any other key whose value is not null is listed, never dropped.
const EDGE_COMMON = ["id", "description", "metadata", "created_at", "uri", "hostports"];
/** The modules an edge of each kind has (an HTTPS edge's others are its routes'). */
const EDGE_MODULES: Record<EdgeKind, readonly string[]> = {
  https: ["mutual_tls", "tls_termination"],
  tls: ["backend", "ip_restriction", "mutual_tls", "tls_termination", "traffic_policy"],
  tcp: ["backend", "ip_restriction", "traffic_policy"],
};
const KNOWN_KEYS: Record<EdgeKind | "route", ReadonlySet<string>> = {
  https: new Set([...EDGE_COMMON, ...EDGE_MODULES.https, "routes"]),
  tls: new Set([...EDGE_COMMON, ...EDGE_MODULES.tls]),
  tcp: new Set([...EDGE_COMMON, ...EDGE_MODULES.tcp]),
  route: new Set([
    "edge_id",
    "id",
    "created_at",
    "match_type",
    "match",
    "uri",
    "description",
    "metadata",
    "backend",
    "webhook_verification",
    ...OTHER_ROUTE_MODULES,
  ]),
};

const MODULE_KEYS: Record<string, readonly string[]> = {
  backend: ["backend"],
  ip_restriction: ["ip_policies"],
  circuit_breaker: [
    "tripped_duration",
    "rolling_window",
    "num_buckets",
    "volume_threshold",
    "error_threshold_percentage",
  ],
  compression: [],
  request_headers: ["add", "remove"],
  response_headers: ["add", "remove"],
  webhook_verification: ["provider", "secret"],
  oauth: [
    "provider",
    "options_passthrough",
    "cookie_prefix",
    "inactivity_timeout",
    "maximum_duration",
    "auth_check_interval",
  ],
  oidc: [
    "issuer",
    "client_id",
    "client_secret",
    "scopes",
    "options_passthrough",
    "cookie_prefix",
    "inactivity_timeout",
    "maximum_duration",
  ],
  user_agent_filter: ["allow", "deny"],
  traffic_policy: ["value"],
  mutual_tls: ["certificate_authorities"],
  tls_termination: ["terminate_at", "min_version"],
};

/** What one edge's planning collects. */
class Notes {
  readonly notMigrated: NotMigrated[] = [];
  readonly warnings: Warning[] = [];
  constructor(readonly edgeId: string) {}
  refuse(routeId: string | null, item: string, reason: string): void {
    if (!this.notMigrated.some((n) => n.route_id === routeId && n.item === item && n.reason === reason))
      this.notMigrated.push({ edge_id: this.edgeId, route_id: routeId, item, reason });
  }
  warn(routeId: string | null, item: string, message: string): void {
    if (!this.warnings.some((w) => w.route_id === routeId && w.item === item && w.message === message))
      this.warnings.push({ edge_id: this.edgeId, route_id: routeId, item, message });
  }
  refusedFor(routeId: string | null): boolean {
    return this.notMigrated.some((n) => n.route_id === routeId);
  }
  /** A module translator's refusals and warnings, for the route (or the edge: null); its rules back. */
  take(routeId: string | null, t: Translation): Translation {
    for (const w of t.warnings) this.warn(routeId, w.item, w.message);
    for (const r of t.refused) this.refuse(routeId, r.item, r.reason);
    return t;
  }
}

// ---------------------------------------------------------------------------------------------
// Hosts, matches, modules

/** `host:port` split and checked: a DNS name (a leading `*.` allowed) and a port 1–65535. */
export function parseHostport(hostport: string): { host: string; port: string } | { problem: string } {
  const colon = hostport.lastIndexOf(":");
  const host = (colon < 0 ? hostport : hostport.slice(0, colon)).toLowerCase();
  const port = colon < 0 ? "" : hostport.slice(colon + 1);
  const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
  if (!new RegExp(`^(?:\\*\\.)?(?:${label}\\.)+${label}$`).test(host) || host.length > 253)
    return { problem: `hostport ${JSON.stringify(hostport)} does not name a valid host` };
  if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535)
    return { problem: `hostport ${JSON.stringify(hostport)} has no valid port` };
  return { host, port };
}

/** A route's match split into the host it names (if any, lower case, :443 dropped) and its path. */
export function splitMatch(match: string): { host?: string; path: string } {
  if (match.startsWith("/")) return { path: match };
  const slash = match.indexOf("/");
  const rawHost = (slash < 0 ? match : match.slice(0, slash)).toLowerCase();
  const host = rawHost.endsWith(":443") ? rawHost.slice(0, -4) : rawHost;
  return { host, path: slash < 0 ? "/" : match.slice(slash) };
}

/** Unknown keys of an enabled module whose value is not null: listed, never dropped. */
function unknownModuleKeys(name: string, module: Obj): string[] {
  const known = new Set(["enabled", ...(MODULE_KEYS[name] ?? [])]);
  return Object.keys(module).filter((k) => !known.has(k) && module[k] !== null);
}

/** Edge and route keys edgectl does not know, with a value: listed (the legacy `policy` included). */
function unknownKeys(object: Obj, known: ReadonlySet<string>, notes: Notes, routeId: string | null): void {
  for (const [key, value] of Object.entries(object)) {
    if (known.has(key) || value === null || value === undefined) continue;
    notes.refuse(
      routeId,
      key,
      key === "policy"
        ? "the legacy policy module has no automatic translation; rebuild it as Traffic Policy rules by hand"
        : `the ${routeId ? "route" : "edge"} has a key edgectl does not know (${key}); carry it over by hand`,
    );
  }
}

/** Enabled modules of a route or edge, their unknown keys listed. */
function checkModuleKeys(object: Obj, names: readonly string[], notes: Notes, routeId: string | null): void {
  for (const name of names) {
    const module = object[name];
    if (module === null || module === undefined) continue;
    if (!isObj(module)) {
      notes.refuse(routeId, name, `the ${name} module is not an object`);
      continue;
    }
    if (!isOn(module)) continue;
    for (const key of unknownModuleKeys(name, module))
      notes.refuse(
        routeId,
        name,
        `the ${name} module has a field edgectl does not know (${key}); carry it over by hand`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// HTTPS routes

interface RoutePlan {
  id: string;
  host?: string;
  path: string;
  exact: boolean;
  /** The route's expressions (none for a path_prefix of /). */
  expressions: string[];
  /** Rules for on_http_request (each with the route's expressions), or undefined when refused. */
  request?: Rule[];
  /** on_http_response rules with their own expressions only (the route's condition added per endpoint). */
  response: Rule[];
}

/** Rules built in order: actions gather until a rule of its own (a condition) comes between. */
class RuleBuilder {
  readonly rules: Rule[] = [];
  private pending: Action[] = [];
  constructor(
    private readonly id: string,
    private readonly expressions: string[],
  ) {}
  private nameFor(what: string): string {
    return this.rules.length === 0 ? this.id : `${this.id} ${what}`;
  }
  add(...actions: Action[]): void {
    this.pending.push(...actions);
  }
  flush(): void {
    if (this.pending.length === 0) return;
    const what = this.pending[0]!.type;
    this.rules.push(this.rule(this.nameFor(what), [], this.pending));
    this.pending = [];
  }
  /** A rule with the route's expressions and `own` after them. */
  conditional(what: string, own: string[], actions: Action[]): void {
    this.flush();
    this.rules.push(this.rule(this.nameFor(what), own, actions));
  }
  copied(rule: Rule, index: number): void {
    this.flush();
    this.rules.push(
      copyRule(
        rule,
        this.nameFor(typeof rule.name === "string" && rule.name ? rule.name : `traffic_policy[${index}]`),
        this.expressions,
      ),
    );
  }
  /** A module translator's request steps, in order. */
  steps(steps: readonly Step[]): void {
    for (const step of steps) {
      if ("copied" in step) this.copied(step.copied, step.index);
      else if ("rule" in step) this.conditional(step.rule, step.expressions, step.actions);
      else this.add(...step.actions);
    }
  }
  private rule(name: string, own: string[], actions: Action[]): Rule {
    const expressions = [...this.expressions, ...own];
    return { name, ...(expressions.length ? { expressions } : {}), actions };
  }
}

/**
 * A route's modules of the request phase, in the order their rules run: 1. IP restriction,
 * 2. user agent filter, 3. OAuth (and the email rule) or OpenID Connect, 4. webhook
 * verification, 5. circuit breaker, 6. request headers. (Then the response phase, the route's
 * own policy and its backend, which need more of the route: planRoute.)
 */
const ROUTE_REQUEST: readonly (readonly [string, ModuleTranslator<undefined>])[] = [
  ["ip_restriction", translateIpRestriction],
  ["user_agent_filter", translateUserAgentFilter],
  ["oauth", translateOauth],
  ["oidc", translateOidc],
  ["webhook_verification", translateWebhookVerification],
  ["circuit_breaker", translateCircuitBreaker],
  ["request_headers", (m) => translateHeaders(m, { name: "request_headers" })],
];

function planRoute(
  route: HttpsEdgeRoute,
  input: PlanInput,
  collisions: ReadonlyMap<string, string[]>,
  notes: Notes,
): RoutePlan {
  const r = route as unknown as Obj;
  const id = route.id;
  const { host, path } = splitMatch(typeof route.match === "string" ? route.match : "");
  const exact = route.match_type === "exact_path";
  const expressions = exact ? [exactPathExpression(path)] : path === "/" ? [] : [pathPrefixExpression(path)];
  const plan: RoutePlan = { id, host, path, exact, expressions, response: [] };
  const refuse = (item: string, reason: string) => notes.refuse(id, item, reason);

  unknownKeys(r, KNOWN_KEYS.route, notes, id);
  checkModuleKeys(r, Object.keys(MODULE_KEYS), notes, id);
  if (route.match_type !== "exact_path" && route.match_type !== "path_prefix")
    refuse("match_type", `match_type ${JSON.stringify(route.match_type)} is neither exact_path nor path_prefix`);
  for (const m of ["saml", "websocket_tcp_converter"]) {
    if (isOn(r[m]))
      refuse(m, `the ${m} module has no Traffic Policy equivalent; protect the endpoint another way by hand`);
  }

  const b = new RuleBuilder(id, expressions);
  const module = (name: string): Obj | undefined => (isOn(r[name]) ? (r[name] as Obj) : undefined);
  const take = (t: Translation) => notes.take(id, t);
  let m: Obj | undefined;
  for (const [name, translate] of ROUTE_REQUEST) if ((m = module(name))) b.steps(take(translate(m, undefined)).steps);
  // Response phase: headers, compression, then the policy's own response rules.
  const response: Action[] = [];
  if ((m = module("response_headers")))
    response.push(...take(translateHeaders(m, { name: "response_headers" })).response);
  if (module("compression")) response.push(...take(translateCompression()).response);
  if (response.length > 0) plan.response.push({ name: id, actions: response });
  // 7. The route's own traffic policy.
  if ((m = module("traffic_policy"))) {
    const own = take(translateRoutePolicy(m, { routeId: id, expressions, input }));
    b.steps(own.steps);
    plan.response.push(...own.responseRules);
  }
  // 8. The backend, last.
  b.steps(
    take(
      translateBackend(isObj(r.backend) ? r.backend : {}, {
        kind: "https",
        port: "443",
        input,
        collisions,
        routeId: id,
      }),
    ).steps,
  );
  b.flush();
  if (!notes.refusedFor(id)) plan.request = b.rules;
  return plan;
}

/** Most specific first: exact paths, then prefixes by longer path; a host-qualified match before a bare one; else edge order. */
function bySpecificity(a: RoutePlan, b: RoutePlan): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  if (!a.exact && a.path.length !== b.path.length) return b.path.length - a.path.length;
  return Number(a.host === undefined) - Number(b.host === undefined);
}

export const NOT_FOUND_RULE: Rule = {
  name: "no route matched",
  actions: [{ type: "custom-response", config: { status_code: 404 } }],
};

interface EndpointSpot {
  host: string;
  port: string;
}

/** The hostports as endpoints (each URL once); a bad or non-public port is listed and left out. */
function endpointsOf(kind: EdgeKind, hostports: string[], notes: Notes): (EndpointSpot & { url: string })[] {
  const out: (EndpointSpot & { url: string })[] = [];
  for (const hp of hostports) {
    const parsed = parseHostport(hp);
    if ("problem" in parsed) {
      notes.refuse(null, "hostport", `${parsed.problem}; no endpoint is planned for it`);
      continue;
    }
    const { host, port } = parsed;
    if (kind !== "tcp" && port !== "443") {
      notes.refuse(
        null,
        "hostport",
        `${hp}: a public ${kind.toUpperCase()} endpoint listens on 443 only; no endpoint is planned for this hostport`,
      );
      continue;
    }
    const url = kind === "https" ? `https://${host}` : kind === "tls" ? `tls://${host}:443` : `tcp://${host}:${port}`;
    if (!out.some((e) => e.url === url)) out.push({ host, port, url });
  }
  return out;
}

/** Items that concern one endpoint only (its hostport, an existing endpoint): the others go on. */
const isEndpointItem = (n: NotMigrated) => n.route_id === null && (n.item === "hostport" || n.item === "endpoint");

/** Whether `host` (a route's match) lies under the wildcard `wild` (`*.example.com`): a name ending in `.example.com`. */
function isUnder(host: string, wild: string): boolean {
  return wild.startsWith("*.") && host !== wild && host.endsWith(wild.slice(1));
}

/** A route as placed on one endpoint: the host condition a wildcard endpoint adds before its expressions. */
interface Placed {
  rp: RoutePlan;
  /** `req.host == "<host>"` on a wildcard endpoint for a route naming a host under it; else none. */
  host: string[];
  /** The host condition and the route's expressions: what selects the route's traffic here. */
  expressions: string[];
}

function httpsEndpoints(
  edge: HttpsEdge,
  input: PlanInput,
  collisions: ReadonlyMap<string, string[]>,
  notes: Notes,
): PlannedEndpoint[] {
  const e = edge as unknown as Obj;
  unknownKeys(e, KNOWN_KEYS.https, notes, null);
  checkModuleKeys(e, EDGE_MODULES.https, notes, null);
  const tls = notes.take(null, translateTls(edge, { kind: "https" }));
  const spots = endpointsOf("https", edge.hostports ?? [], notes);
  const routes = (edge.routes ?? []).map((r) => planRoute(r, input, collisions, notes));
  for (const rp of routes) {
    if (rp.host === undefined) continue;
    const host = rp.host;
    // A route naming a wildcard under a wildcard endpoint's cannot be told apart by `req.host ==`:
    // not migrated, and its rule denies its path on that endpoint (fail closed).
    if (host.includes("*") && spots.some((s) => isUnder(host, s.host))) {
      notes.refuse(
        rp.id,
        "match",
        `the match names the wildcard ${host}, which a rule of the wildcard endpoint cannot select by host; rebuild the route by hand`,
      );
      rp.request = undefined;
    }
    if (
      !spots.some((s) => s.host === host || isUnder(host, s.host)) &&
      !(edge.hostports ?? []).some((hp) => hp.toLowerCase().startsWith(`${host}:`) || hp.toLowerCase() === host)
    )
      notes.warn(
        rp.id,
        "match",
        `the match names host ${host}, which the edge does not serve: the route can never be reached`,
      );
  }
  const ordered = [...routes].sort(bySpecificity);
  const edgeRefused = notes.notMigrated.some((n) => n.route_id === null && !isEndpointItem(n));
  return spots.map((spot) => {
    let policy: TrafficPolicy;
    if (edgeRefused) policy = { on_http_request: [{ name: edge.id, actions: [DENY_503] }] };
    else {
      // The routes this endpoint serves: bare ones, those naming its host, and on a wildcard
      // endpoint those naming a host under it, each of those behind `req.host == "<host>"`.
      const mine: Placed[] = [];
      for (const rp of ordered) {
        let host: string[];
        if (rp.host === undefined || rp.host === spot.host) host = [];
        else if (isUnder(rp.host, spot.host)) host = rp.host.includes("*") ? [] : [hostExpression(rp.host)];
        else continue;
        mine.push({ rp, host, expressions: [...host, ...rp.expressions] });
      }
      const request: Rule[] = [];
      // A Host naming a route's host in another case or with a port never reaches a less specific route.
      const guarded = new Set<string>();
      for (const { rp, host } of mine) {
        if (host.length === 0 || guarded.has(rp.host!)) continue;
        guarded.add(rp.host!);
        request.push({ name: `${rp.id} host`, expressions: [hostVariantExpression(rp.host!)], actions: [DENY_503] });
      }
      for (const { rp, host, expressions } of mine) {
        if (rp.request)
          request.push(
            ...rp.request.map((rule) =>
              host.length === 0
                ? rule
                : { name: rule.name, expressions: [...host, ...(rule.expressions ?? [])], actions: rule.actions },
            ),
          );
        else
          request.push({
            name: rp.id,
            ...(expressions.length ? { expressions } : {}),
            actions: [DENY_503],
          });
      }
      if (!mine.some((m) => !m.rp.exact && m.rp.path === "/" && m.host.length === 0)) request.push(NOT_FOUND_RULE);
      const response: Rule[] = [];
      mine.forEach(({ rp, expressions }, i) => {
        if (!rp.request || rp.response.length === 0) return;
        const before = mine.slice(0, i);
        // A more specific route that matches everything here leaves this one no traffic.
        if (before.some((m) => m.expressions.length === 0)) return;
        const condition = [...expressions, ...before.map((m) => `!(${m.expressions.join(" && ")})`)];
        for (const rule of rp.response) response.push(copyRule(rule, rule.name!, condition));
      });
      policy = {};
      const terminate = tls.steps.flatMap((step) => ("actions" in step ? step.actions : []));
      if (tls.refused.length === 0 && terminate.length > 0)
        policy.on_tcp_connect = [{ name: edge.id, actions: terminate }];
      policy.on_http_request = request;
      if (response.length > 0) policy.on_http_response = response;
    }
    return {
      url: spot.url,
      description: `Migrated from edge ${edge.id}`,
      metadata: edge.metadata ?? "",
      traffic_policy: policy,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// TLS and TCP edges

function streamEndpoints(
  kind: "tls" | "tcp",
  edge: TlsEdge | TcpEdge,
  input: PlanInput,
  collisions: ReadonlyMap<string, string[]>,
  notes: Notes,
): PlannedEndpoint[] {
  const e = edge as unknown as Obj;
  unknownKeys(e, KNOWN_KEYS[kind], notes, null);
  checkModuleKeys(e, EDGE_MODULES[kind], notes, null);
  // The edge's own modules, in order: IP restriction, TLS, its traffic policy.
  const first: Step[] = [];
  if (isOn(e.ip_restriction)) first.push(...notes.take(null, translateIpRestriction(e.ip_restriction as Obj)).steps);
  if (kind === "tls") first.push(...notes.take(null, translateTls(edge as TlsEdge, { kind: "tls" })).steps);
  if (isOn(e.traffic_policy))
    first.push(...notes.take(null, translateEdgePolicy(e.traffic_policy as Obj, { kind, input })).steps);
  const spots = endpointsOf(kind, edge.hostports ?? [], notes);
  const backendId = backendIdOf(e.backend);
  if (backendId === undefined) notes.refuse(null, "backend", "the edge has no enabled backend");
  const chains = spots.map((spot) =>
    backendId === undefined
      ? []
      : notes.take(
          null,
          translateBackend(e.backend as Obj, { kind, port: spot.port, input, collisions, routeId: null }),
        ).steps,
  );
  const refused = notes.notMigrated.some((n) => !isEndpointItem(n));
  return spots.map((spot, i) => {
    let rules: Rule[];
    if (refused) rules = [{ name: edge.id, actions: [{ type: "deny" }] }];
    else {
      const b = new RuleBuilder(edge.id, []);
      b.steps(first);
      b.steps(chains[i]!);
      b.flush();
      rules = b.rules;
    }
    return {
      url: spot.url,
      description: `Migrated from edge ${edge.id}`,
      metadata: edge.metadata ?? "",
      traffic_policy: { on_tcp_connect: rules },
    };
  });
}

// ---------------------------------------------------------------------------------------------

/** The plans for the edges, in order: one plan per edge. */
export function planEdges(edges: readonly AnyEdge[], input: PlanInput): Plan[] {
  const collisions = hostCollisions(edges, input);
  return edges.map((any) => {
    const notes = new Notes(any.edge.id);
    const endpoints =
      any.kind === "https"
        ? httpsEndpoints(any.edge, input, collisions, notes)
        : streamEndpoints(any.kind, any.edge, input, collisions, notes);
    if ((any.edge.hostports ?? []).length === 0)
      notes.warn(null, "hostports", `edge ${any.edge.id} has no hostports, so no endpoint replaces it`);
    return { edge_id: any.edge.id, endpoints, not_migrated: notes.notMigrated, warnings: notes.warnings };
  });
}

/** One edge's plan. */
export function planEdge(edge: AnyEdge, input: PlanInput): Plan {
  return planEdges([edge], input)[0]!;
}

/** The protocol of an endpoint URL (its scheme). */
export const protocolOf = (url: string): Protocol => url.slice(0, url.indexOf(":")) as Protocol;

/**
 * Every planned policy through the validator, before it is printed or sent: a plan it refuses
 * is a bug in the planner (exit 1, kind internal), named with the problems.
 */
export function assertPlansValid(plans: readonly Plan[]): void {
  for (const plan of plans) {
    for (const endpoint of plan.endpoints) {
      const problems = checkPolicy(endpoint.traffic_policy, { protocol: protocolOf(endpoint.url), internal: false });
      if (problems.length > 0)
        throw new InternalError(
          `the planned policy for ${endpoint.url} (edge ${plan.edge_id}) fails the Traffic Policy validator, a bug in edgectl: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
        );
    }
  }
}

/** Texts of every traffic_policy module of the edges (for the caller to parse before planning). */
export function policyTexts(edges: readonly AnyEdge[]): string[] {
  const texts = new Set<string>();
  const add = (m: unknown) => {
    if (isObj(m) && typeof m.value === "string") texts.add(m.value);
  };
  for (const any of edges) {
    if (any.kind === "https") for (const r of any.edge.routes ?? []) add(r.traffic_policy);
    else add(any.edge.traffic_policy);
  }
  return [...texts];
}

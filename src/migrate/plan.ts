// The migration planner: pure functions from what the API showed (edges of the three kinds and
// the backends they use) and the operator's --map to the Cloud Endpoints that replace them.
// Nothing here reads or writes; the command does that around it. The rule above all others:
// a planned endpoint never lets through a request the edge refused, and never sends a route's
// traffic somewhere the edge did not. What cannot be carried over is listed and fails closed.
import { backendKindOf, type Backend } from "../api/backends.js";
import type { AnyEdge, EdgeKind, HttpsEdge, HttpsEdgeRoute, TcpEdge, TlsEdge } from "../api/edges.js";
import { OAUTH_PROVIDERS, isProvider } from "../api-data/providers.js";
import { OTHER_ROUTE_MODULES } from "../api-data/route-modules.js";
import { InternalError } from "../errors.js";
import { checkPolicy, type Protocol } from "../policy/index.js";
import { INTERNAL_SCHEMES, internalUrlProblem, tunnelGroupHost } from "./internal-url.js";
import {
  celString,
  exactPathExpression,
  pathPrefixExpression,
  PHASES,
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

/** Nested failovers deeper than this are not followed (ngrok's own API nests far less). */
export const MAX_FAILOVER_DEPTH = 64;

const DENY_503: Action = { type: "deny", config: { status_code: 503 } };
const DENY_403: Action = { type: "deny", config: { status_code: 403 } };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
/** A module counts when it is an object whose `enabled` is not false (absent or null: on). */
const isOn = (m: unknown): boolean => isObj(m) && m.enabled !== false;

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

const OAUTH_PROVIDER_KEYS = new Set([
  "client_id",
  "client_secret",
  "scopes",
  "email_addresses",
  "email_domains",
  "teams",
  "organizations",
]);

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
}

/**
 * Text copied into a policy where ngrok interpolates `${…}`: a literal `${` is written
 * `${"${"}`, so the client gets the text the edge sent (a warning says where).
 */
function literal(text: string, notes: Notes, routeId: string | null, item: string, where: string): string {
  if (!text.includes("${")) return text;
  notes.warn(routeId, item, `a literal "\${" in ${where} is written \${"\${"} so ngrok does not read it as CEL`);
  return text.split("${").join('${"${"}');
}

// ---------------------------------------------------------------------------------------------
// Backends

/** The backend id an edge or route forwards to, when its backend module is enabled. */
function backendIdOf(module: unknown): string | undefined {
  if (!isOn(module)) return undefined;
  const ref = (module as Obj).backend;
  return isObj(ref) && typeof ref.id === "string" ? ref.id : undefined;
}

/** Every backend id an edge names directly (its routes', or its own). */
export function rootBackendIds(any: AnyEdge): string[] {
  if (any.kind === "https") return (any.edge.routes ?? []).flatMap((r) => backendIdOf(r.backend) ?? []);
  return [backendIdOf(any.edge.backend)].filter((id): id is string => id !== undefined);
}

/**
 * Walks every backend reachable from the edges: each id once, whatever the failovers repeat
 * (linear in the backends, never in the paths). `visit` sees each id once.
 */
function walkBackends(
  edges: readonly AnyEdge[],
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
  visit: (id: string, known: Backend | null | undefined) => void,
): void {
  const seen = new Set<string>();
  const stack = edges.flatMap(rootBackendIds).reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || maps.has(id)) continue;
    seen.add(id);
    const known = backends.get(id);
    visit(id, known);
    if (known?.kind === "failover") for (const child of [...known.backend.backends].reverse()) stack.push(child);
  }
}

/**
 * The backend ids still to be read before planning: those the edges use and the children of
 * failovers already read, minus those already read and those --map forwards (never read).
 */
export function backendsToRead(
  edges: readonly AnyEdge[],
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
): string[] {
  const wanted: string[] = [];
  walkBackends(edges, backends, maps, (id, known) => {
    if (known === undefined && backendKindOf(id)) wanted.push(id);
  });
  return wanted;
}

/** Tunnel groups whose labels give the same host as another label set's within the plan. */
function hostCollisions(edges: readonly AnyEdge[], input: PlanInput): Map<string, string[]> {
  const byHost = new Map<string, Map<string, string[]>>();
  walkBackends(edges, input.backends, input.maps, (id, known) => {
    if (known?.kind !== "tunnel_group") return;
    const labels = known.backend.labels ?? {};
    const host = tunnelGroupHost(labels);
    if (host === undefined) return;
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const sets = byHost.get(host) ?? new Map<string, string[]>();
    sets.set(key, [...(sets.get(key) ?? []), id]);
    byHost.set(host, sets);
  });
  const colliding = new Map<string, string[]>();
  for (const sets of byHost.values()) {
    if (sets.size < 2) continue;
    const ids = [...sets.values()].flat();
    for (const id of ids) colliding.set(id, ids);
  }
  return colliding;
}

type Chain = { actions: Action[]; problem?: undefined } | { problem: string; actions?: undefined };

interface ChainContext {
  kind: EdgeKind;
  /** The public endpoint's port (a TCP tunnel group is forwarded to the same port). */
  port: string;
  input: PlanInput;
  collisions: ReadonlyMap<string, string[]>;
  notes: Notes;
  routeId: string | null;
}

const mapHint = (id: string, kind: EdgeKind) =>
  `give its internal URL with --map ${id}=${kind === "tcp" ? "tcp://….internal:<port>" : kind === "tls" ? "tls://….internal" : "https://….internal"}`;

/** The actions a backend becomes: failovers flattened in order, each child once. */
function backendChain(rootId: string, cx: ChainContext): Chain {
  const out: Action[] = [];
  const seen = new Set<string>();
  const { input, kind, notes, routeId } = cx;
  const walk = (id: string, path: string[]): string | undefined => {
    if (path.includes(id)) return `failover cycle: ${[...path.slice(path.indexOf(id)), id].join(" → ")}`;
    if (out.at(-1)?.type === "custom-response") {
      notes.warn(
        routeId,
        "backend",
        `backend ${id} comes after an HTTP response, can never be reached and was left out`,
      );
      return undefined;
    }
    if (seen.has(id)) {
      notes.warn(routeId, "backend", `backend ${id} appears again in the failover and was left out the second time`);
      return undefined;
    }
    seen.add(id);
    const mapped = input.maps.get(id);
    if (mapped !== undefined) {
      const problem = internalUrlProblem(mapped, INTERNAL_SCHEMES[kind]);
      if (problem !== undefined) return `--map ${id}=${mapped}: for a ${kind.toUpperCase()} edge the URL ${problem}`;
      out.push({ type: "forward-internal", config: { url: literal(mapped, notes, routeId, "backend", "a URL") } });
      return undefined;
    }
    const found = input.backends.get(id);
    if (found === null)
      return `backend ${id} does not exist (the API answered 404); point the ${routeId ? "route" : "edge"} at a backend that exists, or ${mapHint(id, kind)}`;
    if (found === undefined)
      return backendKindOf(id)
        ? `backend ${id} was not read`
        : `backend ${id} is of a kind edgectl does not know; ${mapHint(id, kind)}`;
    switch (found.kind) {
      case "tunnel_group": {
        const host = tunnelGroupHost(found.backend.labels ?? {});
        if (host === undefined)
          return `tunnel group ${id}'s labels give no valid internal host (at most 63 characters of a-z, 0-9 and -, not starting or ending with -); ${mapHint(id, kind)}`;
        const others = cx.collisions.get(id);
        if (others)
          return `tunnel groups ${others.join(", ")} have different labels that give the same internal host ${host}; give each a URL with --map`;
        const url =
          kind === "https" ? `https://${host}` : kind === "tls" ? `tls://${host}:443` : `tcp://${host}:${cx.port}`;
        out.push({ type: "forward-internal", config: { url } });
        return undefined;
      }
      case "http_response": {
        if (kind !== "https") return `HTTP response backend ${id} has no ${kind.toUpperCase()} equivalent`;
        const { status_code, body, headers } = found.backend;
        const config: Obj = { status_code };
        if (body) config.body = literal(body, notes, routeId, "backend", `the body of ${id}`);
        const names = Object.keys(headers ?? {});
        if (names.length > 10)
          return `HTTP response backend ${id} has ${names.length} headers; custom-response takes at most 10`;
        if (names.length > 0) {
          if (names.some((n) => n.includes("${"))) return `HTTP response backend ${id} has a header name holding "\${"`;
          config.headers = Object.fromEntries(
            names.map((n) => [n, literal(headers![n]!, notes, routeId, "backend", `the headers of ${id}`)]),
          );
        }
        out.push({ type: "custom-response", config });
        return undefined;
      }
      case "weighted":
      case "static":
        return `${found.kind} backend ${id} has no Traffic Policy equivalent; ${mapHint(id, kind)}`;
      case "failover": {
        if (found.backend.backends.length === 0) return `failover ${id} has no backends`;
        if (path.length >= MAX_FAILOVER_DEPTH) return `failovers nested more than ${MAX_FAILOVER_DEPTH} deep at ${id}`;
        for (const child of found.backend.backends) {
          const problem = walk(child, [...path, id]);
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
    }
  };
  const problem = walk(rootId, []);
  if (problem !== undefined) return { problem };
  // Every forward-internal but the chain's last falls through to the next on error.
  const actions = out.map((a, i) =>
    a.type === "forward-internal" && i < out.length - 1 ? { ...a, config: { ...a.config, on_error: "continue" } } : a,
  );
  return { actions };
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

/** A positive whole number of seconds as a duration (`30s`), or undefined for absent or 0. */
const seconds = (v: unknown): string | undefined =>
  typeof v === "number" && Number.isInteger(v) && v > 0 ? `${v}s` : undefined;

/** Splits a list or an object's entries into groups of at most 10 (ngrok's per-action limit). */
function byTen<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 10) out.push(items.slice(i, i + 10));
  return out;
}

/** remove-headers then add-headers for a headers module, split by 10, empty ones left out. */
function headerActions(name: string, module: Obj, notes: Notes, routeId: string | null): Action[] | string {
  const remove = module.remove ?? [];
  const add = module.add ?? {};
  if (!isStrings(remove)) return `${name}.remove is not a list of header names`;
  if (!isObj(add) || !Object.values(add).every((v) => typeof v === "string"))
    return `${name}.add is not an object of header values`;
  const entries = Object.entries(add as Record<string, string>);
  if (entries.some(([n]) => n.includes("${"))) return `${name}.add has a header name holding "\${"`;
  const actions: Action[] = byTen(remove).map((headers) => ({ type: "remove-headers", config: { headers } }));
  for (const group of byTen(entries))
    actions.push({
      type: "add-headers",
      config: {
        headers: Object.fromEntries(group.map(([n, v]) => [n, literal(v, notes, routeId, name, `${name}.add`)])),
      },
    });
  return actions;
}

/** A traffic_policy module's document (an object of phases, each a list of rules), or why not. */
function policyDocument(module: Obj, input: PlanInput): { phases: Record<string, Rule[]> } | { problem: string } {
  const value = module.value;
  if (typeof value !== "string") return { problem: "the traffic_policy module has no policy text" };
  let parsed = input.policies?.get(value);
  if (parsed === undefined) {
    try {
      parsed = { document: JSON.parse(value) as unknown };
    } catch (e) {
      parsed = { error: (e as Error).message };
    }
  }
  if ("error" in parsed) return { problem: `the policy text is not JSON or YAML: ${parsed.error}` };
  const doc = parsed.document ?? {};
  if (!isObj(doc)) return { problem: "the policy is not an object of phases" };
  const phases: Record<string, Rule[]> = {};
  for (const [key, rules] of Object.entries(doc)) {
    if (rules === null) continue;
    if (!(PHASES as readonly string[]).includes(key))
      return { problem: `the policy has a phase ngrok does not know: ${key}` };
    if (!Array.isArray(rules) || !rules.every(isObj)) return { problem: `${key} is not a list of rules` };
    phases[key] = rules as unknown as Rule[];
  }
  return { phases };
}

/** Problems of policy rules checked as an internal endpoint's (no terminating end required). */
function policyProblems(phases: Record<string, Rule[]>, protocol: Protocol): string | undefined {
  const problems = checkPolicy(phases, { protocol, internal: true });
  return problems.length === 0 ? undefined : problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}

/** Copies a rule of the edge's own policy, with `expressions` first and its name prefixed. */
function copyRule(rule: Rule, name: string, expressions: string[]): Rule {
  const own = Array.isArray(rule.expressions) ? rule.expressions : [];
  const all = [...expressions, ...own];
  return { name, ...(all.length ? { expressions: all } : {}), actions: rule.actions };
}

/** restrict-ips for an ip_restriction module, or why not. */
function restrictIps(module: Obj): Action | string {
  const policies = module.ip_policies;
  if (!Array.isArray(policies) || !policies.every((p) => isObj(p) && typeof p.id === "string"))
    return "ip_restriction.ip_policies is not a list of IP policies";
  if (policies.length === 0) return "ip_restriction is enabled with no IP policies";
  return { type: "restrict-ips", config: { enforce: true, ip_policies: policies.map((p) => (p as Obj).id) } };
}

/** terminate-tls for mutual_tls / tls_termination (edge level), nothing, or why not. */
function terminateTls(
  edge: HttpsEdge | TlsEdge,
  kind: "https" | "tls",
  notes: Notes,
): Action | undefined | { problem: string; item: string } {
  const config: Obj = {};
  let terminates = false;
  const mtls = edge.mutual_tls as unknown;
  if (isOn(mtls)) {
    const cas = (mtls as Obj).certificate_authorities;
    if (!Array.isArray(cas) || !cas.every((c) => isObj(c) && typeof c.id === "string"))
      return {
        item: "mutual_tls",
        problem: "mutual_tls.certificate_authorities is not a list of certificate authorities",
      };
    if (cas.length === 0)
      return { item: "mutual_tls", problem: "mutual_tls is enabled with no certificate authorities" };
    config.mutual_tls_certificate_authorities = cas.map((c) => (c as Obj).id);
  }
  const term = edge.tls_termination as unknown;
  if (isOn(term)) {
    const { terminate_at, min_version } = term as Obj;
    if (terminate_at === "edge" || terminate_at === undefined || terminate_at === null) {
      // A TLS endpoint passes TLS through unless told to end it; an HTTPS one always ends it.
      terminates = kind === "tls";
      if (min_version !== undefined && min_version !== null && min_version !== "") {
        if (min_version === "1.0" || min_version === "1.1") {
          notes.warn(null, "tls_termination", `min_version ${min_version} becomes 1.2, the lowest ngrok offers`);
          config.min_version = "1.2";
        } else if (min_version === "1.2" || min_version === "1.3") config.min_version = min_version;
        else return { item: "tls_termination", problem: `min_version ${JSON.stringify(min_version)} is not 1.0–1.3` };
      }
    } else if (kind === "https") {
      return {
        item: "tls_termination",
        problem: `terminate_at ${JSON.stringify(terminate_at)}: an HTTPS endpoint ends TLS at ngrok and cannot pass it through`,
      };
    } else if (terminate_at !== "upstream" && terminate_at !== "agent") {
      return {
        item: "tls_termination",
        problem: `terminate_at ${JSON.stringify(terminate_at)} is not edge or upstream`,
      };
    }
  }
  if (Object.keys(config).length > 0) return { type: "terminate-tls", config };
  return terminates ? { type: "terminate-tls" } : undefined;
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
  private rule(name: string, own: string[], actions: Action[]): Rule {
    const expressions = [...this.expressions, ...own];
    return { name, ...(expressions.length ? { expressions } : {}), actions };
  }
}

function userAgentExpression(allow: string[], deny: string[]): string {
  const matches = (p: string) => `req.user_agent.matches(${celString(p)})`;
  const empty = 'req.user_agent == ""';
  const after = deny.length === 0 ? empty : `(${[...deny.map(matches), empty].join(" || ")})`;
  return allow.length === 0 ? after : `!(${allow.map(matches).join(" || ")}) && ${after}`;
}

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
  // 1. IP restriction.
  if (isOn(r.ip_restriction)) {
    const a = restrictIps(r.ip_restriction as Obj);
    if (typeof a === "string") refuse("ip_restriction", a);
    else b.add(a);
  }
  // 2. User agent filter.
  if (isOn(r.user_agent_filter)) {
    const m = r.user_agent_filter as Obj;
    const allow = m.allow ?? [];
    const deny = m.deny ?? [];
    if (!isStrings(allow) || !isStrings(deny)) refuse("user_agent_filter", "allow and deny must be lists of patterns");
    else b.conditional("user-agent-filter", [userAgentExpression(allow, deny)], [DENY_403]);
  }
  // 3. OAuth (and the email rule) or OpenID Connect.
  if (isOn(r.oauth)) planOauth(r.oauth as Obj, b, notes, id);
  if (isOn(r.oidc)) {
    const m = r.oidc as Obj;
    if (typeof m.issuer !== "string" || m.issuer === "") refuse("oidc", "the oidc module has no issuer");
    else {
      const config: Obj = { issuer_url: m.issuer };
      if (typeof m.client_id === "string" && m.client_id) config.client_id = m.client_id;
      if (typeof m.client_secret === "string" && m.client_secret) config.client_secret = m.client_secret;
      if (isStrings(m.scopes) && m.scopes.length > 0) config.scopes = m.scopes;
      if (m.options_passthrough === true) config.allow_cors_preflight = true;
      const idle = seconds(m.inactivity_timeout);
      const max = seconds(m.maximum_duration);
      if (idle) config.idle_session_duration = idle;
      if (max) config.max_session_duration = max;
      warnCookiePrefix(notes, id, "oidc", m.cookie_prefix);
      b.add({ type: "openid-connect", config });
    }
  }
  // 4. Webhook verification.
  if (isOn(r.webhook_verification)) {
    const m = r.webhook_verification as Obj;
    const provider = typeof m.provider === "string" ? m.provider.toLowerCase() : "";
    if (provider === "sns")
      refuse(
        "webhook_verification",
        "ngrok's verify-webhook needs a secret for sns, which the edge never held; verify SNS signatures by hand",
      );
    else if (!isProvider(provider))
      refuse("webhook_verification", `provider ${JSON.stringify(m.provider)} is not one verify-webhook takes`);
    else if (typeof m.secret !== "string" || m.secret === "")
      refuse(
        "webhook_verification",
        `the API did not show the ${provider} secret, so the verify-webhook action cannot be written`,
      );
    else b.add({ type: "verify-webhook", config: { provider, secret: m.secret } });
  }
  // 5. Circuit breaker.
  if (isOn(r.circuit_breaker)) {
    const m = r.circuit_breaker as Obj;
    const threshold = m.error_threshold_percentage;
    const durationBad = (v: unknown) =>
      v !== undefined && v !== null && v !== 0 && !(typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 120);
    if (typeof threshold !== "number" || threshold < 0 || threshold > 1)
      refuse("circuit_breaker", "error_threshold_percentage must be a fraction from 0 to 1");
    else if (durationBad(m.rolling_window) || durationBad(m.tripped_duration))
      refuse(
        "circuit_breaker",
        "rolling_window and tripped_duration must be 1–120 seconds, which is all ngrok's circuit-breaker takes",
      );
    else if (
      m.volume_threshold !== undefined &&
      m.volume_threshold !== null &&
      m.volume_threshold !== 0 &&
      !(
        typeof m.volume_threshold === "number" &&
        Number.isInteger(m.volume_threshold) &&
        m.volume_threshold >= 1 &&
        m.volume_threshold <= 2e9
      )
    )
      refuse("circuit_breaker", "volume_threshold must be a whole number from 1 to 2000000000");
    else {
      const config: Obj = { error_threshold: threshold };
      if (typeof m.volume_threshold === "number" && m.volume_threshold > 0)
        config.volume_threshold = m.volume_threshold;
      const window = seconds(m.rolling_window);
      const tripped = seconds(m.tripped_duration);
      if (window) config.window_duration = window;
      if (tripped) config.tripped_duration = tripped;
      if (m.num_buckets !== undefined && m.num_buckets !== null && m.num_buckets !== 0 && m.num_buckets !== 10)
        notes.warn(id, "circuit_breaker", `num_buckets ${String(m.num_buckets)} becomes 10, which ngrok fixes`);
      b.add({ type: "circuit-breaker", config });
    }
  }
  // 6. Request headers.
  if (isOn(r.request_headers)) {
    const actions = headerActions("request_headers", r.request_headers as Obj, notes, id);
    if (typeof actions === "string") refuse("request_headers", actions);
    else b.add(...actions);
  }
  // Response phase: headers, compression, then the policy's own response rules.
  const response: Action[] = [];
  if (isOn(r.response_headers)) {
    const actions = headerActions("response_headers", r.response_headers as Obj, notes, id);
    if (typeof actions === "string") refuse("response_headers", actions);
    else response.push(...actions);
  }
  if (isOn(r.compression)) response.push({ type: "compress-response" });
  if (response.length > 0) plan.response.push({ name: id, actions: response });
  // 7. The route's own traffic policy.
  if (isOn(r.traffic_policy)) {
    const doc = policyDocument(r.traffic_policy as Obj, input);
    if ("problem" in doc) refuse("traffic_policy", doc.problem);
    else if ((doc.phases.on_tcp_connect ?? []).length > 0)
      refuse("traffic_policy", "its on_tcp_connect rules cannot be limited to one route");
    else {
      const own = {
        on_http_request: doc.phases.on_http_request ?? [],
        on_http_response: doc.phases.on_http_response ?? [],
      };
      const problem = policyProblems(own, "https");
      // The route's later rules (its backend's too) match on the path: a rewritten path could
      // fall out of them into another route's backend, which the edge never did.
      const rewrites =
        expressions.length > 0 &&
        own.on_http_request.some(
          (rule) => Array.isArray(rule.actions) && rule.actions.some((a) => isObj(a) && a.type === "url-rewrite"),
        );
      if (problem !== undefined) refuse("traffic_policy", `the route's policy is not valid: ${problem}`);
      else if (rewrites)
        refuse(
          "traffic_policy",
          "its url-rewrite changes the path this route's other rules match on, so its requests could reach another route's backend; rebuild it by hand",
        );
      else {
        own.on_http_request.forEach((rule, i) => b.copied(rule, i));
        own.on_http_response.forEach((rule, i) =>
          plan.response.push(
            copyRule(
              rule,
              `${id} ${typeof rule.name === "string" && rule.name ? rule.name : `traffic_policy[${i}]`}`,
              [],
            ),
          ),
        );
      }
    }
  }
  // 8. The backend, last.
  const backendId = backendIdOf(r.backend);
  if (backendId === undefined) refuse("backend", "the route has no enabled backend");
  else {
    const chain = backendChain(backendId, { kind: "https", port: "443", input, collisions, notes, routeId: id });
    if (chain.problem !== undefined) refuse("backend", chain.problem);
    else b.add(...chain.actions);
  }
  b.flush();
  if (!notes.refusedFor(id)) plan.request = b.rules;
  return plan;
}

function planOauth(m: Obj, b: RuleBuilder, notes: Notes, id: string): void {
  const providers = isObj(m.provider)
    ? Object.entries(m.provider).filter(([, v]) => v !== null && v !== undefined)
    : [];
  if (providers.length !== 1) {
    notes.refuse(
      id,
      "oauth",
      providers.length === 0 ? "the oauth module names no provider" : "the oauth module names more than one provider",
    );
    return;
  }
  const [name, p] = providers[0]!;
  if (!(OAUTH_PROVIDERS as readonly string[]).includes(name) || !isObj(p)) {
    notes.refuse(id, "oauth", `oauth provider ${JSON.stringify(name)} is not one ngrok's oauth action takes`);
    return;
  }
  const unknown = Object.keys(p).filter((k) => !OAUTH_PROVIDER_KEYS.has(k) && p[k] !== null);
  if (unknown.length > 0) {
    notes.refuse(
      id,
      "oauth",
      `the ${name} provider has fields edgectl does not know (${unknown.join(", ")}); carry them over by hand`,
    );
    return;
  }
  let refused = false;
  for (const key of ["teams", "organizations"]) {
    const v = p[key];
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    notes.refuse(id, "oauth", `${key} has no equivalent in ngrok's oauth action; rebuild that check by hand`);
    refused = true;
  }
  const emails = p.email_addresses ?? [];
  const domains = p.email_domains ?? [];
  if (!isStrings(emails) || !isStrings(domains)) {
    notes.refuse(id, "oauth", "email_addresses and email_domains must be lists");
    return;
  }
  if (refused) return;
  const config: Obj = { provider: name };
  if (typeof p.client_id === "string" && p.client_id) config.client_id = p.client_id;
  if (typeof p.client_secret === "string" && p.client_secret) config.client_secret = p.client_secret;
  if (isStrings(p.scopes) && p.scopes.length > 0) config.scopes = p.scopes;
  if (m.options_passthrough === true) config.allow_cors_preflight = true;
  const idle = seconds(m.inactivity_timeout);
  const max = seconds(m.maximum_duration);
  const refresh = seconds(m.auth_check_interval);
  if (idle) config.idle_session_timeout = idle;
  if (max) config.max_session_duration = max;
  if (refresh) config.userinfo_refresh_interval = refresh;
  warnCookiePrefix(notes, id, "oauth", m.cookie_prefix);
  b.add({ type: "oauth", config });
  if (emails.length > 0 || domains.length > 0) {
    const email = "actions.ngrok.oauth.identity.email";
    const terms = [
      ...emails.map((e) => `${email} == ${celString(e)}`),
      ...domains.map((d) => `${email}.endsWith(${celString(`@${d}`)})`),
    ];
    b.conditional("oauth-email", [`!(${terms.join(" || ")})`], [DENY_403]);
  }
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

function httpsEndpoints(
  edge: HttpsEdge,
  input: PlanInput,
  collisions: ReadonlyMap<string, string[]>,
  notes: Notes,
): PlannedEndpoint[] {
  const e = edge as unknown as Obj;
  unknownKeys(e, KNOWN_KEYS.https, notes, null);
  checkModuleKeys(e, EDGE_MODULES.https, notes, null);
  const tls = terminateTls(edge, "https", notes);
  if (tls && "problem" in tls) notes.refuse(null, tls.item, tls.problem);
  const spots = endpointsOf("https", edge.hostports ?? [], notes);
  const routes = (edge.routes ?? []).map((r) => planRoute(r, input, collisions, notes));
  for (const rp of routes) {
    if (
      rp.host !== undefined &&
      !spots.some((s) => s.host === rp.host) &&
      !(edge.hostports ?? []).some((hp) => hp.toLowerCase().startsWith(`${rp.host}:`) || hp.toLowerCase() === rp.host)
    )
      notes.warn(
        rp.id,
        "match",
        `the match names host ${rp.host}, which the edge does not serve: the route can never be reached`,
      );
  }
  const ordered = [...routes].sort(bySpecificity);
  const edgeRefused = notes.notMigrated.some((n) => n.route_id === null && !isEndpointItem(n));
  return spots.map((spot) => {
    let policy: TrafficPolicy;
    if (edgeRefused) policy = { on_http_request: [{ name: edge.id, actions: [DENY_503] }] };
    else {
      const mine = ordered.filter((rp) => rp.host === undefined || rp.host === spot.host);
      const request: Rule[] = [];
      for (const rp of mine) {
        if (rp.request) request.push(...rp.request);
        else
          request.push({
            name: rp.id,
            ...(rp.expressions.length ? { expressions: rp.expressions } : {}),
            actions: [DENY_503],
          });
      }
      if (!mine.some((rp) => !rp.exact && rp.path === "/")) request.push(NOT_FOUND_RULE);
      const response: Rule[] = [];
      mine.forEach((rp, i) => {
        if (!rp.request || rp.response.length === 0) return;
        const before = mine.slice(0, i);
        // A more specific route that matches everything here leaves this one no traffic.
        if (before.some((m) => m.expressions.length === 0)) return;
        const condition = [...rp.expressions, ...before.map((m) => `!(${m.expressions.join(" && ")})`)];
        for (const rule of rp.response) response.push(copyRule(rule, rule.name!, condition));
      });
      policy = {};
      if (tls && !("problem" in tls)) policy.on_tcp_connect = [{ name: edge.id, actions: [tls] }];
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
  const first: Action[] = [];
  if (isOn(e.ip_restriction)) {
    const a = restrictIps(e.ip_restriction as Obj);
    if (typeof a === "string") notes.refuse(null, "ip_restriction", a);
    else first.push(a);
  }
  if (kind === "tls") {
    const tls = terminateTls(edge as TlsEdge, "tls", notes);
    if (tls && "problem" in tls) notes.refuse(null, tls.item, tls.problem);
    else if (tls) first.push(tls);
  }
  let own: Rule[] = [];
  if (isOn(e.traffic_policy)) {
    const doc = policyDocument(e.traffic_policy as Obj, input);
    if ("problem" in doc) notes.refuse(null, "traffic_policy", doc.problem);
    else {
      const others = Object.keys(doc.phases).filter((p) => p !== "on_tcp_connect" && doc.phases[p]!.length > 0);
      if (others.length > 0)
        notes.refuse(null, "traffic_policy", `a ${kind.toUpperCase()} endpoint has no ${others.join(" or ")} phase`);
      else {
        own = doc.phases.on_tcp_connect ?? [];
        const problem = policyProblems({ on_tcp_connect: own }, kind);
        if (problem !== undefined) notes.refuse(null, "traffic_policy", `the edge's policy is not valid: ${problem}`);
      }
    }
  }
  const spots = endpointsOf(kind, edge.hostports ?? [], notes);
  const backendId = backendIdOf(e.backend);
  if (backendId === undefined) notes.refuse(null, "backend", "the edge has no enabled backend");
  const chains = spots.map((spot) => {
    if (backendId === undefined) return undefined;
    const chain = backendChain(backendId, { kind, port: spot.port, input, collisions, notes, routeId: null });
    if (chain.problem !== undefined) notes.refuse(null, "backend", chain.problem);
    return chain.actions;
  });
  const refused = notes.notMigrated.some((n) => !isEndpointItem(n));
  return spots.map((spot, i) => {
    let rules: Rule[];
    if (refused) rules = [{ name: edge.id, actions: [{ type: "deny" }] }];
    else {
      const b = new RuleBuilder(edge.id, []);
      b.add(...first);
      own.forEach((rule, j) => b.copied(rule, j));
      b.add(...chains[i]!);
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

/**
 * A cookie prefix the operator chose is a warning: ngrok names the cookie itself. The API fills
 * in `ngrok.` when none was given (every OAuth/OIDC module reads it back): warning about the
 * default would flag every route for nothing lost.
 */
function warnCookiePrefix(notes: Notes, routeId: string, module: "oauth" | "oidc", prefix: unknown): void {
  if (typeof prefix === "string" && prefix !== "" && prefix !== "ngrok.")
    notes.warn(
      routeId,
      module,
      `cookie_prefix ${JSON.stringify(prefix)} has no equivalent; ngrok names the cookie itself`,
    );
}

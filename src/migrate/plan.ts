// The migration planner: pure functions from what the API showed (an HTTPS edge and the
// backends its routes use) and the operator's --map to the Cloud Endpoints that replace the
// edge. Nothing here reads or writes; the command does that around it.
import { backendKindOf, type Backend } from "../api/backends.js";
import type { HttpsEdge, HttpsEdgeRoute } from "../api/edges.js";
import { OTHER_ROUTE_MODULES } from "../api-data/route-modules.js";
import { tunnelGroupUrl } from "./internal-url.js";
import { exactPathExpression, pathPrefixExpression, type Action, type Rule, type TrafficPolicy } from "./policy.js";

export interface NotMigrated {
  route_id: string | null;
  item: string;
  reason: string;
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
}

export interface PlanResult {
  plan: Plan;
  /** What was carried over but changed (unreachable failover children dropped, …). */
  warnings: string[];
}

const enabled = (module: { enabled?: boolean | null } | null | undefined): boolean =>
  Boolean(module) && module!.enabled !== false;

/** The backend a route forwards to, when its backend module is enabled. */
export function routeBackendId(route: HttpsEdgeRoute): string | undefined {
  return enabled(route.backend) ? (route.backend?.backend?.id ?? undefined) : undefined;
}

/** Backends read so far by id; null for one the API does not have (404). */
export type BackendsRead = ReadonlyMap<string, Backend | null>;

/**
 * The backend ids still to be read before planning: those the routes use and the children of
 * failovers already read, minus those already read and those --map forwards (never read).
 */
export function backendsToRead(edge: HttpsEdge, backends: BackendsRead, maps: ReadonlyMap<string, string>): string[] {
  const wanted = new Set<string>();
  const visit = (id: string, seen: Set<string>) => {
    if (maps.has(id) || seen.has(id) || !backendKindOf(id)) return;
    const known = backends.get(id);
    if (known === null) return;
    if (!known) return void wanted.add(id);
    if (known.kind === "failover") for (const child of known.backend.backends) visit(child, new Set([...seen, id]));
  };
  for (const route of edge.routes ?? []) {
    const id = routeBackendId(route);
    if (id) visit(id, new Set());
  }
  return [...wanted];
}

/** A route's match split into the host it names (if any) and its path. */
export function splitMatch(match: string): { host?: string; path: string } {
  if (match.startsWith("/")) return { path: match };
  const slash = match.indexOf("/");
  if (slash < 0) return { host: match.toLowerCase(), path: "/" };
  return { host: match.slice(0, slash).toLowerCase(), path: match.slice(slash) };
}

/** `host:port` → the endpoint URL: https://host for 443, else https://host:port. */
export function endpointUrl(hostport: string): { url: string; host: string; hostport: string } {
  const colon = hostport.lastIndexOf(":");
  const host = (colon < 0 ? hostport : hostport.slice(0, colon)).toLowerCase();
  const port = colon < 0 ? "443" : hostport.slice(colon + 1);
  return { host, hostport: `${host}:${port}`, url: port === "443" ? `https://${host}` : `https://${host}:${port}` };
}

type Chain =
  | { actions: Action[]; problem?: undefined; dropped: string[] }
  | { problem: string; actions?: undefined; dropped?: undefined };

/** The terminating actions a backend becomes, failovers flattened in order. */
export function backendActions(
  id: string,
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
  path: string[] = [],
): Chain {
  const mapped = maps.get(id);
  if (mapped !== undefined) return { actions: [{ type: "forward-internal", config: { url: mapped } }], dropped: [] };
  if (path.includes(id)) return { problem: `failover cycle: ${[...path.slice(path.indexOf(id)), id].join(" → ")}` };
  const found = backends.get(id);
  if (found === null)
    return {
      problem: `backend ${id} does not exist (the API answered 404); point the route at a backend that exists, or give an internal URL with --map ${id}=https://….internal`,
    };
  if (!found) {
    return {
      problem: backendKindOf(id)
        ? `backend ${id} was not read`
        : `backend ${id} is of a kind edgectl does not know; give its internal URL with --map ${id}=https://….internal`,
    };
  }
  switch (found.kind) {
    case "tunnel_group": {
      const url = tunnelGroupUrl(found.backend.labels ?? {});
      if (!url)
        return {
          problem: `tunnel group ${id} has no labels to name an internal URL; give one with --map ${id}=https://….internal`,
        };
      return { actions: [{ type: "forward-internal", config: { url } }], dropped: [] };
    }
    case "http_response": {
      const { status_code, body, headers } = found.backend;
      const config: { status_code: number; body: string; headers?: Record<string, string> } = {
        status_code,
        body: body ?? "",
      };
      if (headers && Object.keys(headers).length > 0) config.headers = headers;
      return { actions: [{ type: "custom-response", config }], dropped: [] };
    }
    case "weighted":
    case "static":
      return {
        problem: `${found.kind} backend ${id} has no Traffic Policy equivalent; give its internal URL with --map ${id}=https://….internal`,
      };
    case "failover": {
      if (found.backend.backends.length === 0) return { problem: `failover ${id} has no backends` };
      const actions: Action[] = [];
      const dropped: string[] = [];
      for (const child of found.backend.backends) {
        // After a custom-response nothing runs: later children can never be reached.
        if (actions.at(-1)?.type === "custom-response") {
          dropped.push(`${child} (after an HTTP response in failover ${id})`);
          continue;
        }
        const sub = backendActions(child, backends, maps, [...path, id]);
        if (sub.problem !== undefined) return sub;
        actions.push(...sub.actions);
        dropped.push(...sub.dropped);
      }
      return { actions, dropped };
    }
  }
}

/** Every forward-internal but the chain's last action falls through to the next on error. */
function chainOnError(actions: Action[]): Action[] {
  return actions.map((a, i) =>
    a.type === "forward-internal" && i < actions.length - 1
      ? { type: a.type, config: { url: a.config.url, on_error: "continue" } }
      : a.type === "forward-internal"
        ? { type: a.type, config: { url: a.config.url } }
        : a,
  );
}

interface RoutePlan {
  route: HttpsEdgeRoute;
  host?: string;
  path: string;
  exact: boolean;
  actions: Action[];
}

function planRoute(
  route: HttpsEdgeRoute,
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
  notMigrated: NotMigrated[],
  warnings: string[],
): RoutePlan | undefined {
  const problems: NotMigrated[] = [];
  for (const module of OTHER_ROUTE_MODULES) {
    if (enabled(route[module]))
      problems.push({
        route_id: route.id,
        item: module,
        reason: `the ${module} module has no automatic translation; rebuild it as Traffic Policy actions by hand`,
      });
  }
  const actions: Action[] = [];
  const wv = route.webhook_verification;
  if (wv && enabled(wv)) {
    const provider = wv.provider.toLowerCase();
    if (provider === "sns") actions.push({ type: "verify-webhook", config: { provider } });
    else if (wv.secret) actions.push({ type: "verify-webhook", config: { provider, secret: wv.secret } });
    else
      problems.push({
        route_id: route.id,
        item: "webhook_verification",
        reason: `the API did not show the ${provider} secret, so the verify-webhook action cannot be written`,
      });
  }
  if (route.match_type !== "exact_path" && route.match_type !== "path_prefix") {
    problems.push({
      route_id: route.id,
      item: "match",
      reason: `match_type "${route.match_type}" is neither exact_path nor path_prefix`,
    });
  }
  const backendId = routeBackendId(route);
  if (backendId === undefined)
    problems.push({ route_id: route.id, item: "backend", reason: "the route has no enabled backend" });
  else {
    const chain = backendActions(backendId, backends, maps);
    if (chain.problem !== undefined) problems.push({ route_id: route.id, item: "backend", reason: chain.problem });
    else {
      actions.push(...chainOnError(chain.actions));
      for (const d of chain.dropped)
        warnings.push(`route ${route.id}: backend ${d} can never be reached and was left out`);
    }
  }
  if (problems.length > 0) {
    notMigrated.push(...problems);
    return undefined;
  }
  const { host, path } = splitMatch(route.match);
  return { route, host, path, exact: route.match_type === "exact_path", actions };
}

/** Most specific first: exact paths, then prefixes by longer path; a host-qualified match before a bare one; else edge order. */
function bySpecificity(a: RoutePlan, b: RoutePlan): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  if (!a.exact && a.path.length !== b.path.length) return b.path.length - a.path.length;
  return Number(a.host === undefined) - Number(b.host === undefined);
}

function ruleOf(rp: RoutePlan): Rule {
  if (!rp.exact && rp.path === "/") return { name: rp.route.id, actions: rp.actions };
  const expression = rp.exact ? exactPathExpression(rp.path) : pathPrefixExpression(rp.path);
  return { name: rp.route.id, expressions: [expression], actions: rp.actions };
}

/** A match's host names an endpoint by its host, or by host:port. */
const namesEndpoint = (matchHost: string, e: { host: string; hostport: string }) =>
  matchHost === e.host || matchHost === e.hostport;

export const NOT_FOUND_RULE: Rule = {
  name: "no route matched",
  actions: [{ type: "custom-response", config: { status_code: 404 } }],
};

/** The plan for one edge. `backends` holds every backend backendsToRead asked for. */
export function planEdge(edge: HttpsEdge, backends: BackendsRead, maps: ReadonlyMap<string, string>): PlanResult {
  const notMigrated: NotMigrated[] = [];
  const warnings: string[] = [];
  if (enabled(edge.mutual_tls)) {
    notMigrated.push({
      route_id: null,
      item: "mutual_tls",
      reason: "the edge's mutual TLS has no automatic translation; set it up on the new endpoints by hand",
    });
  }
  const hostports = edge.hostports ?? [];
  if (hostports.length === 0) warnings.push(`edge ${edge.id} has no hostports, so no endpoint replaces it`);
  const endpoints = hostports.map((hp) => endpointUrl(hp));
  const routes = (edge.routes ?? [])
    .map((r) => planRoute(r, backends, maps, notMigrated, warnings))
    .filter((r): r is RoutePlan => r !== undefined);
  for (const rp of routes) {
    if (rp.host !== undefined && !endpoints.some((e) => namesEndpoint(rp.host!, e))) {
      notMigrated.push({
        route_id: rp.route.id,
        item: "match",
        reason: `the match names host ${rp.host}, which is none of the edge's hostports`,
      });
    }
  }
  const ordered = [...routes].sort(bySpecificity);
  return {
    plan: {
      edge_id: edge.id,
      endpoints: endpoints.map((endpoint) => {
        const { url } = endpoint;
        const mine = ordered.filter((rp) => rp.host === undefined || namesEndpoint(rp.host, endpoint));
        const rules = mine.map(ruleOf);
        if (!rules.some((r) => r.expressions === undefined)) rules.push(NOT_FOUND_RULE);
        return {
          url,
          description: `Migrated from edge ${edge.id}`,
          metadata: edge.metadata ?? "",
          traffic_policy: { on_http_request: rules },
        };
      }),
      not_migrated: notMigrated,
    },
    warnings,
  };
}

// How an HTTPS edge handled a request, for `migrate edge --verify` (contract, "Proving a
// migration": "The edge model is code of its own, not the planner's"). Written from what the
// contract states of the edge ("Routes (HTTPS)": which route a request reached, and what each
// module did with it) and ngrok's module pages; it shares no code with src/migrate/plan.ts or its
// translators, so a planner bug cannot hide itself by being copied here.
import { RE2JS } from "@bufbuild/re2";
import type { HttpsEdge, HttpsEdgeRoute } from "../../api/edges.js";

/** A request as the edge saw it: the parts its routes and modules read. */
export interface EdgeRequest {
  host: string;
  /** The path as sent (before any decoding: the edge matched the raw path, as `req.url.path` shows it). */
  path: string;
  clientIp: string;
  userAgent: string;
  /** Signed in (oauth / oidc) as this email; none: not signed in. */
  email?: string;
  /** Carries a valid signature of the route's webhook provider. */
  signed: boolean;
}

export type EdgeDecision =
  /** A module refused it. */
  | { kind: "refused"; status: number; route: string; module: string }
  /** OAuth / OIDC sent the browser to sign in. */
  | { kind: "sign-in"; route: string; module: "oauth" | "oidc" | "saml" }
  /** It reached the route's backend. */
  | { kind: "route"; route: string }
  /** No route matched: the edge answered 404. */
  | { kind: "no-route" };

/** IP policies by id → the CIDRs that let a client through (verify gives each policy its own range). */
export type IpPolicies = ReadonlyMap<string, readonly string[]>;

const on = (m: unknown): m is Record<string, unknown> =>
  m !== null && typeof m === "object" && (m as { enabled?: unknown }).enabled !== false;

/** A route's match, split: `host/path`, or `/path` for every host. */
export function routeMatch(route: HttpsEdgeRoute): { host?: string; path: string } {
  if (route.match.startsWith("/")) return { path: route.match };
  const slash = route.match.indexOf("/");
  const host = (slash < 0 ? route.match : route.match.slice(0, slash)).toLowerCase().replace(/:443$/, "");
  return { host, path: slash < 0 ? "/" : route.match.slice(slash) };
}

/**
 * The route a request reaches: an exact_path route whose path is the request's, else the
 * path_prefix route with the longest matching prefix (a string prefix, as `startsWith`); at equal
 * paths a route naming the host wins over a bare one (contract, "Routes (HTTPS)": "ordered most
 * specific route first").
 */
export function chooseRoute(routes: readonly HttpsEdgeRoute[], host: string, path: string): HttpsEdgeRoute | undefined {
  let best: { route: HttpsEdgeRoute; score: [number, number, number] } | undefined;
  for (const route of routes) {
    const m = routeMatch(route);
    if (m.host !== undefined && m.host !== host) continue;
    const exact = route.match_type === "exact_path";
    if (exact ? path !== m.path : !path.startsWith(m.path)) continue;
    const score: [number, number, number] = [exact ? 1 : 0, m.path.length, m.host === undefined ? 0 : 1];
    if (!best || compare(score, best.score) > 0) best = { route, score };
  }
  return best?.route;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function ipv4(ip: string): number | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether an IPv4 address is in an IPv4 CIDR (verify makes only such ranges). */
export function inRange(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const a = ipv4(ip);
  const b = ipv4(base ?? "");
  const n = Number(bits);
  if (a === undefined || b === undefined || !(n >= 0 && n <= 32)) return false;
  const size = 2 ** (32 - n);
  return Math.floor(a / size) === Math.floor(b / size);
}

const regexCache = new Map<string, RE2JS | null>();
function matchesRe2(pattern: string, text: string): boolean {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RE2JS(pattern);
    } catch {
      re = null;
    }
    regexCache.set(pattern, re);
  }
  // A pattern RE2 refuses never matched on the edge either (it could not have been saved).
  return re !== null && re.test(text);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

/** What the edge did with the request (first module to refuse wins, in the edge's module order). */
export function edgeDecides(edge: HttpsEdge, req: EdgeRequest, ipPolicies: IpPolicies): EdgeDecision {
  const route = chooseRoute(edge.routes ?? [], req.host, req.path);
  if (!route) return { kind: "no-route" };
  const id = route.id;
  // ip_restriction: a client in none of the route's IP policies is refused (403).
  if (on(route.ip_restriction)) {
    const ids = (Array.isArray(route.ip_restriction.ip_policies) ? route.ip_restriction.ip_policies : [])
      .map((p) => (p as { id?: unknown }).id)
      .filter((p): p is string => typeof p === "string");
    if (!ids.some((p) => (ipPolicies.get(p) ?? []).some((cidr) => inRange(req.clientIp, cidr))))
      return { kind: "refused", status: 403, route: id, module: "ip_restriction" };
  }
  // user_agent_filter: an agent matching an allow pattern passes whatever the deny patterns say;
  // otherwise one matching a deny pattern, or an empty one, is refused (403).
  if (on(route.user_agent_filter)) {
    const allow = strings(route.user_agent_filter.allow);
    const deny = strings(route.user_agent_filter.deny);
    const allowed = allow.some((p) => matchesRe2(p, req.userAgent));
    if (!allowed && (req.userAgent === "" || deny.some((p) => matchesRe2(p, req.userAgent))))
      return { kind: "refused", status: 403, route: id, module: "user_agent_filter" };
  }
  // oauth / oidc / saml: not signed in → the sign-in redirect; oauth's email lists refuse the rest (403).
  for (const module of ["oauth", "oidc", "saml"] as const) {
    const m = route[module];
    if (!on(m)) continue;
    if (req.email === undefined) return { kind: "sign-in", route: id, module };
    if (module === "oauth") {
      const provider = Object.values(m.provider ?? {}).find(on) as Record<string, unknown> | undefined;
      const emails = strings(provider?.email_addresses);
      const domains = strings(provider?.email_domains);
      const listed = emails.includes(req.email) || domains.some((d) => req.email!.endsWith(`@${d}`));
      if ((emails.length > 0 || domains.length > 0) && !listed)
        return { kind: "refused", status: 403, route: id, module: "oauth" };
    }
  }
  // webhook_verification: a delivery without a valid signature is refused (403).
  if (on(route.webhook_verification) && !req.signed)
    return { kind: "refused", status: 403, route: id, module: "webhook_verification" };
  return { kind: "route", route: id };
}

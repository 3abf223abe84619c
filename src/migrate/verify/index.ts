// `migrate edge … --verify` (contract, "Proving a migration"): for each planned endpoint,
// generated requests go through the edge model (./edge-model.ts, code of its own) and through the
// planned policy with the evaluator (src/policy/evaluate), and every request whose outcome
// differs is listed. A request the edge refused that the plan lets through, or one the plan
// sends to another route, is what makes `--verify` exit 1 (`unsafe`).
import type { AnyEdge, HttpsEdge } from "../../api/edges.js";
import type { EvalContext, EvalRequest, Outcome } from "../../policy/evaluate/index.js";
import type { Delivery, Scheme, SignInput } from "../../webhooks/scheme.js";
import type { Plan } from "../plan.js";
import {
  chooseRoute,
  edgeDecides,
  routeMatch,
  type EdgeDecision,
  type EdgeRequest,
  type IpPolicies,
} from "./edge-model.js";

/** What verify needs from outside: the evaluator and the webhook schemes (to sign and to verify). */
export interface VerifyDeps {
  evaluateRequest: (policy: unknown, req: EvalRequest, ctx: EvalContext) => { outcome: Outcome };
  createState: () => EvalContext["state"];
  schemes: (provider: string) => Scheme | undefined;
  /** src/webhooks' signDelivery: the whole delivery a scheme makes. */
  deliver: (scheme: Scheme, input: SignInput) => Delivery;
  /** The requests' time (injected). */
  now: Date;
}

export type Severity =
  /** The edge refused it (or had no route, or asked to sign in); the plan lets it through. */
  | "let-through"
  /** Both let it through, to different routes. */
  | "elsewhere"
  /** The edge let it through; the plan refuses it (a part that fails closed, say). */
  | "refused"
  /** Both refuse, differently (another status, sign-in for a refusal). */
  | "other"
  /** The evaluator could not work the plan's outcome out. */
  | "unknown";

export interface Difference {
  endpoint: string;
  request: { method: string; url: string; client_ip: string; user_agent: string; email?: string; signed: boolean };
  edge: string;
  plan: string;
  severity: Severity;
}

export interface VerifyReport {
  edge_id: string;
  requests: number;
  differences: Difference[];
  /** Differences that make the exit code 1 (let-through, elsewhere). */
  unsafe: number;
}

const OUTSIDE_IP = "192.0.2.7"; // TEST-NET-1 (RFC 5737): in no policy verify makes
const DEFAULT_UA = "edgectl-verify/1.0";
const BODY = Buffer.from('{"edgectl":"verify"}');

/** The IP policies an edge names, each given a range of its own (10.<n>.0.0/16): verify checks the plan names the same policies on the same routes. */
function ipPoliciesOf(edge: HttpsEdge): IpPolicies {
  const map = new Map<string, string[]>();
  for (const route of edge.routes ?? []) {
    const m = route.ip_restriction as { ip_policies?: unknown } | null | undefined;
    for (const p of Array.isArray(m?.ip_policies) ? m.ip_policies : []) {
      const id = (p as { id?: unknown }).id;
      if (typeof id === "string" && !map.has(id)) map.set(id, [`10.${map.size + 1}.0.0/16`]);
    }
  }
  return map;
}

/** A route's path and its near misses: the prefix's boundary, a trailing slash, letter case, an encoded character. */
export function nearMisses(path: string, exact: boolean): string[] {
  const out = new Set<string>([path]);
  out.add(path.endsWith("/") ? path.slice(0, -1) || "/" : `${path}/`);
  out.add(`${path}x`);
  if (!exact) out.add(`${path.endsWith("/") ? path : `${path}/`}deeper`);
  if (path.length > 1) out.add(path.slice(0, -1));
  if (path.toUpperCase() !== path) out.add(path.toUpperCase());
  const letter = /[A-Za-z0-9]/.exec(path);
  if (letter)
    out.add(
      path.slice(0, letter.index) +
        `%${letter[0].charCodeAt(0).toString(16).toUpperCase()}` +
        path.slice(letter.index + 1),
    );
  return [...out];
}

/** User agents worth sending to a filter: none, a plain one, and each pattern's literal text. */
function userAgents(edge: HttpsEdge): string[] {
  const out = new Set<string>([DEFAULT_UA]);
  for (const route of edge.routes ?? []) {
    const f = route.user_agent_filter as { allow?: unknown; deny?: unknown } | null | undefined;
    if (!f) continue;
    out.add("");
    for (const p of [...(Array.isArray(f.allow) ? f.allow : []), ...(Array.isArray(f.deny) ? f.deny : [])])
      if (typeof p === "string") out.add(p.replace(/\(\?i\)|[\\^$.*+?()[\]{}|]/g, "") || "agent");
  }
  return [...out];
}

/** Emails worth signing in with: each listed address, someone at each listed domain, and an outsider. */
function emails(edge: HttpsEdge): (string | undefined)[] {
  const out = new Set<string | undefined>();
  for (const route of edge.routes ?? []) {
    for (const module of [route.oauth, route.oidc] as unknown[]) {
      if (module === null || typeof module !== "object") continue;
      out.add(undefined);
      out.add("outsider@verify.invalid");
      for (const p of Object.values((module as { provider?: object }).provider ?? {}) as unknown[]) {
        if (p === null || typeof p !== "object") continue;
        const { email_addresses: a, email_domains: d } = p as { email_addresses?: unknown; email_domains?: unknown };
        for (const e of Array.isArray(a) ? a : []) if (typeof e === "string") out.add(e);
        for (const e of Array.isArray(d) ? d : []) if (typeof e === "string") out.add(`someone@${e}`);
      }
    }
  }
  return out.size === 0 ? [undefined] : [...out];
}

function describeEdge(d: EdgeDecision): string {
  switch (d.kind) {
    case "refused":
      return `refused ${d.status} by ${d.module} of ${d.route}`;
    case "sign-in":
      return `sign-in (${d.module} of ${d.route})`;
    case "route":
      return `route ${d.route}`;
    case "no-route":
      return "404 (no route)";
  }
}

type PlanView =
  EdgeDecision | { kind: "fail-closed"; status: number; rule: string } | { kind: "unknown"; reason: string };

/** The route a rule belongs to: the planner names a route's rules `<route-id>` or `<route-id> <what>`. */
const routeOfRule = (rule: string) => rule.split(" ")[0]!;

function planView(outcome: Outcome, routeIds: ReadonlySet<string>): PlanView {
  const rule = outcome.by?.rule ?? "";
  const route = routeOfRule(rule);
  switch (outcome.kind) {
    case "forward":
      return routeIds.has(route)
        ? { kind: "route", route }
        : { kind: "unknown", reason: `forwarded by rule ${JSON.stringify(rule)}, of no route` };
    case "response":
      if (routeIds.has(route)) return { kind: "route", route };
      return outcome.status === 404
        ? { kind: "no-route" }
        : { kind: "refused", status: outcome.status, route, module: "custom-response" };
    case "deny":
      return outcome.status === 503
        ? { kind: "fail-closed", status: 503, rule }
        : { kind: "refused", status: outcome.status, route, module: outcome.by.action };
    case "close":
      return { kind: "refused", status: 0, route, module: "close-connection" };
    case "redirect":
      return outcome.by.action === "oauth" || outcome.by.action === "openid-connect"
        ? { kind: "sign-in", route, module: outcome.by.action === "oauth" ? "oauth" : "oidc" }
        : { kind: "refused", status: outcome.status, route, module: "redirect" };
    case "unknown":
      return { kind: "unknown", reason: outcome.reason };
  }
}

function describePlan(v: PlanView): string {
  if (v.kind === "fail-closed") return `refused ${v.status} (fails closed: ${v.rule})`;
  if (v.kind === "unknown") return `unknown: ${v.reason}`;
  return describeEdge(v);
}

function severity(edge: EdgeDecision, plan: PlanView): Severity | undefined {
  if (plan.kind === "unknown") return "unknown";
  const through = (v: PlanView) => v.kind === "route";
  if (edge.kind === "route") {
    if (plan.kind === "route") return plan.route === edge.route ? undefined : "elsewhere";
    return "refused";
  }
  if (through(plan)) return "let-through";
  if (edge.kind === "no-route" && plan.kind === "no-route") return undefined;
  if (edge.kind === "sign-in" && plan.kind === "sign-in") return undefined;
  if (edge.kind === "refused" && plan.kind === "refused" && edge.status === plan.status) return undefined;
  return "other";
}

/** Checks one HTTPS edge's plan. TLS and TCP edges carry no routes: their plans are checked by the planner's own rules. */
export function verifyPlan(edge: AnyEdge, plan: Plan, deps: VerifyDeps): VerifyReport {
  const report: VerifyReport = { edge_id: plan.edge_id, requests: 0, differences: [], unsafe: 0 };
  if (edge.kind !== "https") return report;
  const https = edge.edge;
  const routes = https.routes ?? [];
  const routeIds = new Set(routes.map((r) => r.id));
  const ipPolicies = ipPoliciesOf(https);
  const ips = [OUTSIDE_IP, ...[...ipPolicies.values()].map((cidrs) => cidrs[0]!.replace(/0\.0\/16$/, "0.7"))];
  const agents = userAgents(https);
  const people = emails(https);
  const signing = routes.some((r) => r.webhook_verification) ? [false, true] : [false];
  for (const endpoint of plan.endpoints) {
    if (!endpoint.url.startsWith("https://")) continue;
    const endpointHost = endpoint.url.slice("https://".length);
    const hosts = new Set<string>();
    const paths = new Set<string>(["/", "/edgectl-verify-nothing-here"]);
    for (const route of routes) {
      const m = routeMatch(route);
      const host = m.host ?? (endpointHost.startsWith("*.") ? `verify${endpointHost.slice(1)}` : endpointHost);
      if (endpointHost.startsWith("*.") ? !host.endsWith(endpointHost.slice(1)) : host !== endpointHost) continue;
      hosts.add(host);
      for (const p of nearMisses(m.path, route.match_type === "exact_path")) paths.add(p);
    }
    if (hosts.size === 0) hosts.add(endpointHost.startsWith("*.") ? `verify${endpointHost.slice(1)}` : endpointHost);
    for (const host of hosts)
      for (const path of paths)
        for (const clientIp of ips)
          for (const userAgent of agents)
            for (const email of people)
              for (const signed of signing) {
                const req: EdgeRequest = { host, path, clientIp, userAgent, ...(email ? { email } : {}), signed };
                const route = chooseRoute(routes, host, path);
                const wh = route?.webhook_verification as
                  { provider?: string; secret?: string | null } | null | undefined;
                // A signature only means something for a route that checks one, with a scheme edgectl can sign.
                if (signed && !(wh?.provider && deps.schemes(wh.provider.toLowerCase()))) continue;
                report.requests++;
                const decision = edgeDecides(https, req, ipPolicies);
                const evalReq = requestFor(req, wh, deps);
                const ctx: EvalContext = {
                  protocol: "https",
                  kind: "public",
                  state: deps.createState(),
                  schemes: deps.schemes,
                  ...(email ? { identity: { email } } : {}),
                  ipPolicies: new Map([...ipPolicies].map(([id, allow]) => [id, { allow: [...allow], deny: [] }])),
                };
                const view = planView(deps.evaluateRequest(endpoint.traffic_policy, evalReq, ctx).outcome, routeIds);
                const s = severity(decision, view);
                if (s === undefined) continue;
                if (s === "let-through" || s === "elsewhere") report.unsafe++;
                report.differences.push({
                  endpoint: endpoint.url,
                  request: {
                    method: "POST",
                    url: `https://${host}${path}`,
                    client_ip: clientIp,
                    user_agent: userAgent,
                    ...(email ? { email } : {}),
                    signed,
                  },
                  edge: describeEdge(decision),
                  plan: describePlan(view),
                  severity: s,
                });
              }
  }
  return report;
}

function requestFor(
  req: EdgeRequest,
  wh: { provider?: string; secret?: string | null } | null | undefined,
  deps: VerifyDeps,
): EvalRequest {
  const url = `https://${req.host}${req.path}`;
  const headers: Record<string, string[]> = { host: [req.host], "content-type": ["application/json"] };
  if (req.userAgent !== "") headers["user-agent"] = [req.userAgent];
  let body: Buffer = BODY;
  let signedUrl = url;
  const scheme = req.signed && wh?.provider ? deps.schemes(wh.provider.toLowerCase()) : undefined;
  if (scheme) {
    const delivery = deps.deliver(scheme, {
      body: BODY,
      secret: wh?.secret ?? "",
      url,
      timestamp: Math.floor(deps.now.getTime() / 1000),
      contentType: "application/json",
    });
    ({ body, url: signedUrl } = delivery);
    for (const [name, value] of Object.entries(delivery.headers)) headers[name.toLowerCase()] = [value];
  }
  return { method: "POST", url: signedUrl, headers, body, clientIp: req.clientIp, time: deps.now };
}

// `migrate edge --verify` (contract, "Proving a migration"): the planner's plans pass; a plan
// that lets through what the edge refused, or routes a request elsewhere, is found and counted
// as unsafe; a plan that fails closed is listed but safe. The plans go through the evaluator
// (src/policy/evaluate), the edges through the model of their own (src/migrate/verify/edge-model.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createState, evaluateRequest } from "../../../src/policy/evaluate/index.js";
import { planEdge, type Plan } from "../../../src/migrate/plan.js";
import { verifyPlan, type VerifyDeps } from "../../../src/migrate/verify/index.js";
import type { Rule } from "../../../src/migrate/policy.js";
import { schemeFor, signDelivery } from "../../../src/webhooks/index.js";
import { backendMap, edge, https, httpResponse, route, tunnelGroup } from "../fixtures.js";

const deps: VerifyDeps = {
  evaluateRequest,
  createState,
  schemes: schemeFor,
  deliver: signDelivery,
  now: new Date("2026-01-01T00:00:00Z"),
};
const backends = backendMap(tunnelGroup("bkdtg_app", { app: "shop" }), httpResponse("bkdhr_gone", 410, "gone"));
const input = { backends, maps: new Map<string, string>(), policies: new Map() };

const shop = edge([
  route("rt_api", "path_prefix", "/api", "bkdtg_app", {
    ip_restriction: { enabled: true, ip_policies: [{ id: "ipp_office" }] },
  }),
  route("rt_old", "exact_path", "/old", "bkdhr_gone"),
  route("rt_ua", "path_prefix", "/public", "bkdtg_app", {
    user_agent_filter: { enabled: true, allow: [], deny: ["(?i)bot"] },
  }),
  route("rt_hook", "exact_path", "/hooks/github", "bkdtg_app", {
    webhook_verification: { enabled: true, provider: "github", secret: "s3cret" },
  }),
  route("rt_login", "path_prefix", "/admin", "bkdtg_app", {
    oauth: { enabled: true, provider: { google: { email_domains: ["example.com"] } } },
  }),
]);

/** The plan with `edit` applied to its one endpoint's request rules. */
function doctored(plan: Plan, edit: (rules: Rule[]) => Rule[]): Plan {
  const [endpoint] = plan.endpoints;
  const policy = {
    ...endpoint!.traffic_policy,
    on_http_request: edit([...(endpoint!.traffic_policy.on_http_request ?? [])]),
  };
  return { ...plan, endpoints: [{ ...endpoint!, traffic_policy: policy }] };
}

describe("verifyPlan", () => {
  const plan = planEdge(https(shop), input);

  it("finds nothing unsafe in the planner's plan, over every generated request", () => {
    const report = verifyPlan(https(shop), plan, deps);
    expect(report.requests).toBeGreaterThan(100);
    expect(report.differences).toEqual([]);
    expect(report.unsafe).toBe(0);
  });

  it("a plan without the route's restrict-ips lets through clients the edge refused", () => {
    const open = doctored(plan, (rules) =>
      rules.map((r) => ({ ...r, actions: r.actions.filter((a) => a.type !== "restrict-ips") })),
    );
    const report = verifyPlan(https(shop), open, deps);
    expect(report.unsafe).toBeGreaterThan(0);
    const d = report.differences.find((x) => x.severity === "let-through")!;
    expect(d).toMatchObject({
      request: { client_ip: "192.0.2.7" },
      edge: "refused 403 by ip_restriction of rt_api",
      plan: "route rt_api",
    });
  });

  it("a plan whose prefix lost its boundary routes a near miss elsewhere", () => {
    const wide = doctored(plan, (rules) =>
      rules.map((r) => (r.name === "rt_old" ? { ...r, expressions: ['req.url.path.startsWith("/old")'] } : r)),
    );
    const report = verifyPlan(https(shop), wide, deps);
    expect(report.differences.map((d) => [d.request.url, d.severity])).toContainEqual([
      "https://shop.example.com/oldx",
      "let-through",
    ]);
  });

  it("a plan that fails closed is listed, never unsafe", () => {
    const closed = doctored(plan, (rules) => [
      { name: "edghts_1", actions: [{ type: "deny", config: { status_code: 503 } }] },
      ...rules,
    ]);
    const report = verifyPlan(https(shop), closed, deps);
    expect(report.unsafe).toBe(0);
    // What the edge let through is refused (503); what it refused is refused still, with 503 for its 403: "other".
    expect(new Set(report.differences.map((d) => d.severity))).toEqual(new Set(["refused", "other"]));
    expect(report.differences.find((d) => d.severity === "refused")).toMatchObject({
      plan: "refused 503 (fails closed: edghts_1)",
    });
  });

  it("property: on random edges the planner's plan never lets through or reroutes what the edge did not", () => {
    const paths = fc.constantFrom("/", "/a", "/a/b", "/ab", "/B", "/a/");
    const arbRoute = fc.record({
      exact: fc.boolean(),
      path: paths,
      ip: fc.boolean(),
      ua: fc.boolean(),
      backend: fc.constantFrom("bkdtg_app", "bkdhr_gone"),
    });
    fc.assert(
      fc.property(fc.array(arbRoute, { minLength: 1, maxLength: 4 }), (specs) => {
        const e = edge(
          specs.map((s, i) =>
            route(`rt_${i}`, s.exact ? "exact_path" : "path_prefix", s.path, s.backend, {
              ...(s.ip ? { ip_restriction: { enabled: true, ip_policies: [{ id: `ipp_${i % 2}` }] } } : {}),
              ...(s.ua ? { user_agent_filter: { enabled: true, allow: ["good"], deny: ["bot"] } } : {}),
            }),
          ),
        );
        const report = verifyPlan(https(e), planEdge(https(e), input), deps);
        expect(report.differences.filter((d) => d.severity !== "refused")).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});

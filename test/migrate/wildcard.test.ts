// Issue 25 item 16: a wildcard hostport (`*.wild.example.com:443`) becomes a wildcard endpoint
// whose rules dispatch by host exactly as the edge did (contract, "Leaving Edges": "A wildcard
// hostport … becomes a wildcard endpoint (`https://*.example.com`) whose rules add `req.host ==
// "<host>"` for each route that names a host under it"), never a route dropped as "a host the
// edge does not serve" while its traffic reaches a less protected route.
// Docs: api-reference/edgeshttpsroutes/create.mdx (a route's match), traffic-policy/variables/req
// (`req.host`: "The value of the host header field value for this request").
import { describe, expect, it } from "vitest";
import { assertPlansValid, planEdge, type Plan } from "../../src/migrate/plan.js";
import type { Rule } from "../../src/migrate/policy.js";
import { backendMap, edge, https, route, tunnelGroup } from "./fixtures.js";

const PUBLIC = tunnelGroup("bkdtg_pub", { svc: "pub" });
const ADMIN = tunnelGroup("bkdtg_adm", { svc: "adm" });
const ADMIN_HOST = "admin.wild.example.com";
const ON_ADMIN = `req.host == "${ADMIN_HOST}"`;
const IP = { enabled: true, ip_policies: [{ id: "ipp_office", uri: "https://api.ngrok.com/ip_policies/ipp_office" }] };
const OAUTH = {
  enabled: true,
  provider: { google: { client_id: "id", client_secret: "s", scopes: [], email_addresses: [], email_domains: [] } },
};

function plan(routes: ReturnType<typeof route>[], hostports = ["*.wild.example.com:443"]): Plan {
  const p = planEdge(https(edge(routes, { hostports })), {
    backends: backendMap(PUBLIC, ADMIN),
    maps: new Map(),
  });
  assertPlansValid([p]);
  return p;
}
const request = (p: Plan, i = 0): Rule[] => p.endpoints[i]!.traffic_policy.on_http_request!;
const actionsOf = (rules: Rule[], name: string) => rules.filter((r) => r.name === name).flatMap((r) => r.actions);

describe("a wildcard hostport with a route for one host under it (issue 25 item 16)", () => {
  const routes = [
    route("edghtsrt_admin", "path_prefix", ADMIN_HOST, "bkdtg_adm", { ip_restriction: IP, oauth: OAUTH }),
    route("edghtsrt_root", "path_prefix", "/", "bkdtg_pub"),
  ];

  it("plans one wildcard endpoint, the admin route kept (no 'does not serve' warning), nothing left out", () => {
    const p = plan(routes);
    expect(p.endpoints.map((e) => e.url)).toEqual(["https://*.wild.example.com"]);
    expect(p.warnings.filter((w) => w.item === "match")).toEqual([]);
    expect(p.not_migrated).toEqual([]);
  });

  it("the admin route's every rule starts with req.host == its host, and they all come before the bare /", () => {
    const rules = request(plan(routes));
    const admin = rules.filter((r) => r.name?.startsWith("edghtsrt_admin") && r.name !== "edghtsrt_admin host");
    expect(admin.length).toBeGreaterThan(0);
    for (const r of admin) expect(r.expressions?.[0]).toBe(ON_ADMIN);
    const lastAdmin = Math.max(...admin.map((r) => rules.indexOf(r)));
    expect(rules.findIndex((r) => r.name === "edghtsrt_root")).toBeGreaterThan(lastAdmin);
    // The edge's checks, then its backend: restrict-ips, oauth, forward to the admin group.
    expect(actionsOf(rules, "edghtsrt_admin").map((a) => a.type)).toEqual([
      "restrict-ips",
      "oauth",
      "forward-internal",
    ]);
    expect(actionsOf(rules, "edghtsrt_admin").at(-1)!.config!.url).toMatch(/^https:\/\/svc-adm/);
    // The bare / forwards to the public group with no host condition; no 404 rule after it.
    expect(rules.at(-1)).toMatchObject({ name: "edghtsrt_root", actions: [{ type: "forward-internal" }] });
    expect(rules.at(-1)!.expressions).toBeUndefined();
  });

  it("a Host that names the admin host in another letter case or with a port is refused before any route, never sent to the public backend", () => {
    const rules = request(plan(routes));
    const guard = rules[0]!;
    expect(guard.name).toBe("edghtsrt_admin host");
    expect(guard.actions).toEqual([{ type: "deny", config: { status_code: 503 } }]);
    expect(guard.expressions).toEqual([
      `req.host != ${JSON.stringify(ADMIN_HOST)} && (req.host.lowerAscii() == ${JSON.stringify(ADMIN_HOST)} || req.host.lowerAscii().startsWith(${JSON.stringify(`${ADMIN_HOST}:`)}))`,
    ]);
  });

  it("a host-qualified route not migrated denies on its host alone (fail closed), the / route still serves the rest", () => {
    const p = plan([
      route("edghtsrt_admin", "path_prefix", ADMIN_HOST, "bkdtg_adm", { saml: { enabled: true } }),
      route("edghtsrt_root", "path_prefix", "/", "bkdtg_pub"),
    ]);
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([["edghtsrt_admin", "saml"]]);
    const rules = request(p);
    expect(rules.find((r) => r.name === "edghtsrt_admin")).toEqual({
      name: "edghtsrt_admin",
      expressions: [ON_ADMIN],
      actions: [{ type: "deny", config: { status_code: 503 } }],
    });
  });

  it("without a bare / route, a host-qualified / does not stand for all traffic: the 404 rule still ends the policy", () => {
    const rules = request(plan([routes[0]!]));
    expect(rules.at(-1)!.name).toBe("no route matched");
  });

  it("response rules of a host-qualified route carry its host; a bare route's exclude it", () => {
    const p = plan([
      route("edghtsrt_admin", "path_prefix", `${ADMIN_HOST}/x`, "bkdtg_adm", { compression: { enabled: true } }),
      route("edghtsrt_root", "path_prefix", "/", "bkdtg_pub", { compression: { enabled: true } }),
    ]);
    expect(p.endpoints[0]!.traffic_policy.on_http_response).toEqual([
      {
        name: "edghtsrt_admin",
        expressions: [ON_ADMIN, 'req.url.path.startsWith("/x")'],
        actions: [{ type: "compress-response" }],
      },
      {
        name: "edghtsrt_root",
        expressions: [`!(${ON_ADMIN} && req.url.path.startsWith("/x"))`],
        actions: [{ type: "compress-response" }],
      },
    ]);
  });

  it("a route for a host outside the wildcard is still warned about as one the edge does not serve", () => {
    const p = plan([route("edghtsrt_x", "path_prefix", "other.example.com", "bkdtg_adm"), routes[1]!]);
    expect(p.warnings.map((w) => [w.route_id, w.item])).toEqual([["edghtsrt_x", "match"]]);
    expect(request(p).map((r) => r.name)).toEqual(["edghtsrt_root"]);
  });

  it("a route naming a wildcard under the endpoint's wildcard cannot be told by req.host ==: not migrated, its path denied", () => {
    const p = plan([route("edghtsrt_sub", "path_prefix", "*.a.wild.example.com/p", "bkdtg_adm"), routes[1]!]);
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([["edghtsrt_sub", "match"]]);
    expect(request(p)[0]).toEqual({
      name: "edghtsrt_sub",
      expressions: ['req.url.path.startsWith("/p")'],
      actions: [{ type: "deny", config: { status_code: 503 } }],
    });
  });

  it("next to an exact hostport for the same host, that endpoint takes the route with no host condition", () => {
    const p = plan(routes, ["*.wild.example.com:443", `${ADMIN_HOST}:443`]);
    expect(p.endpoints.map((e) => e.url)).toEqual(["https://*.wild.example.com", `https://${ADMIN_HOST}`]);
    const exact = request(p, 1);
    expect(exact[0]).toMatchObject({ name: "edghtsrt_admin" });
    expect(exact[0]!.expressions).toBeUndefined();
  });
});

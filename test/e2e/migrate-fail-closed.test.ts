// `migrate edge` fails closed end to end, the real bin against a real server ("Leaving Edges"
// in the contract; the planner's rules are held in test/migrate/plan.test.ts): keys the
// planner does not know (which only works if the read layer keeps them), OAuth teams and
// organizations, a TCP edge whose backend is an HTTP response, and --apply reading every page
// of GET /endpoints before deciding what exists.
import { describe, expect, it } from "vitest";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { backendModule, edge, httpResponse, route, tcpEdge, tunnelGroup } from "../migrate/fixtures.js";
import { post, useEmulator } from "./leaving-edges.support.js";
import { useFaultServer, type FaultSuite } from "./support.js";

const DENY_503 = { type: "deny", config: { status_code: 503 } };
const FWD_APP = { type: "forward-internal", config: { url: "https://service-app.internal" } };
const APP = tunnelGroup("bkdtg_app", { service: "app" });

interface NotMigrated {
  edge_id: string;
  route_id: string | null;
  item: string;
  reason: string;
}
interface PlanJson {
  edge_id: string;
  endpoints: { url: string; traffic_policy: Record<string, unknown> }[];
  not_migrated: NotMigrated[];
}

/**
 * The fault server answers GETs of `objects` (by path) and GET /endpoints from `endpointPages`
 * (by query, the first `limit=100`); POST /endpoints is refused, so that none may slip by unseen.
 */
function answerAccount(suite: FaultSuite, objects: Record<string, object>, endpointPages: Record<string, object> = {}) {
  suite.server.fallback = (req): Reply => {
    const [path, query = ""] = req.path.split("?");
    if (req.method === "GET" && path === "/endpoints") {
      const page = endpointPages[query];
      if (page) return json(200, page);
      if (query === "limit=100") return json(200, { endpoints: [], uri: `${suite.server.url}/endpoints` });
    }
    if (req.method === "GET" && objects[req.path]) return json(200, objects[req.path]!);
    if (req.method === "POST") return apiError(500, "this test never lets an endpoint be created");
    return apiError(404, `nothing at ${req.method} ${req.path}`);
  };
}

const posts = (suite: FaultSuite) => suite.server.requests.filter((q) => q.method === "POST");

/** The error `-o json` prints on stderr for a refused --apply: the items not migrated. */
function refusedItems(stderr: string): NotMigrated[] {
  const { error } = JSON.parse(stderr) as { error: { kind: string; details: { not_migrated: NotMigrated[] } } };
  expect(error.kind).toBe("usage");
  return error.details.not_migrated;
}

describe("keys the planner does not know, with a value (fault server)", () => {
  const suite = useFaultServer("key_fail_closed_unknown_1");
  const LEGACY = { enabled: true, inbound: [{ actions: [{ type: "deny" }] }], outbound: [] };

  it("an edge-level module and a route's legacy policy: both listed, the whole endpoint only denies; --apply exits 2, nothing created", async () => {
    const e = edge(
      [
        route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", { policy: LEGACY }),
        route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app"),
      ],
      { some_new_module: { enabled: true } },
    );
    answerAccount(suite, { "/edges/https/edghts_1": e, "/backends/tunnel_group/bkdtg_app": APP });

    const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as PlanJson;
    expect(plan.not_migrated).toHaveLength(2);
    expect(plan.not_migrated).toEqual(
      expect.arrayContaining([
        {
          edge_id: "edghts_1",
          route_id: null,
          item: "some_new_module",
          reason: expect.stringMatching(/does not know/),
        },
        { edge_id: "edghts_1", route_id: "edghtsrt_1", item: "policy", reason: expect.stringMatching(/legacy policy/) },
      ]),
    );
    expect(plan.endpoints.map((p) => p.traffic_policy)).toEqual([
      { on_http_request: [{ name: "edghts_1", actions: [DENY_503] }] },
    ]);

    suite.server.requests.length = 0;
    const apply = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(apply.exitCode).toBe(2);
    expect(apply.stdout).toBe("");
    expect(refusedItems(apply.stderr).map((n) => [n.route_id, n.item])).toEqual(
      expect.arrayContaining([
        [null, "some_new_module"],
        ["edghtsrt_1", "policy"],
      ]),
    );
    expect(posts(suite)).toEqual([]);
  });

  it("a route's legacy policy alone: that route's rule denies 503, the other route is kept", async () => {
    const e = edge([
      route("edghtsrt_1", "path_prefix", "/m", "bkdtg_app", { policy: LEGACY }),
      route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app"),
    ]);
    answerAccount(suite, { "/edges/https/edghts_1": e, "/backends/tunnel_group/bkdtg_app": APP });

    const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as PlanJson;
    expect(plan.not_migrated.map((n) => [n.route_id, n.item])).toEqual([["edghtsrt_1", "policy"]]);
    expect(plan.endpoints[0]!.traffic_policy).toEqual({
      on_http_request: [
        { name: "edghtsrt_ok", expressions: ['req.url.path == "/ok"'], actions: [FWD_APP] },
        { name: "edghtsrt_1", expressions: ['req.url.path.startsWith("/m")'], actions: [DENY_503] },
        { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
      ],
    });
  });
});

describe("OAuth with teams or organizations (emulator)", () => {
  const emu = useEmulator();

  it.each([
    ["teams", "teams.example.com", { teams: ["octo-org/admins"] }],
    ["organizations", "orgs.example.com", { organizations: ["octo-org"] }],
  ])(
    "github %s: not migrated, the route denies 503; --apply exits 2 and creates nothing; --allow-partial stores the deny",
    async (key, host, restriction) => {
      const app = await post(emu.url, "/backends/tunnel_group", { labels: { service: "app" } });
      const { id: edgeId } = await post(emu.url, "/edges/https", { hostports: [`${host}:443`] });
      const addRoute = (match_type: string, match: string, extra: object = {}) =>
        post(emu.url, `/edges/https/${edgeId}/routes`, {
          match_type,
          match,
          backend: { enabled: true, backend_id: app.id },
          ...extra,
        });
      const ok = await addRoute("exact_path", "/ok");
      const admin = await addRoute("path_prefix", "/admin", {
        oauth: { enabled: true, provider: { github: restriction } },
      });
      const url = `https://${host}`;
      const expected = {
        on_http_request: [
          { name: ok.id, expressions: ['req.url.path == "/ok"'], actions: [FWD_APP] },
          { name: admin.id, expressions: ['req.url.path.startsWith("/admin")'], actions: [DENY_503] },
          { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
        ],
      };

      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([
        { edge_id: edgeId, route_id: admin.id, item: "oauth", reason: expect.stringContaining(key) },
      ]);
      expect(plan.endpoints).toEqual([expect.objectContaining({ url, traffic_policy: expected })]);

      const refused = await emu.run(["migrate", "edge", edgeId, "--apply", "-o", "json"]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stdout).toBe("");
      expect(refusedItems(refused.stderr).map((n) => [n.route_id, n.item])).toEqual([[admin.id, "oauth"]]);
      expect((await emu.endpoints()).filter((e) => e.url === url)).toEqual([]);

      const partial = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial", "-o", "json"]);
      expect(partial.exitCode, partial.stderr).toBe(0);
      const stored = (await emu.endpoints()).filter((e) => e.url === url);
      expect(stored).toHaveLength(1);
      expect(JSON.parse(stored[0]!.traffic_policy)).toEqual(expected);
    },
  );
});

describe("a TCP edge whose backend is an HTTP response (fault server)", () => {
  const suite = useFaultServer("key_fail_closed_tcp_1");

  it("is not migrated (item backend), the endpoint only denies on_tcp_connect; --apply exits 2, nothing created", async () => {
    answerAccount(suite, {
      "/edges/tcp/edgtcp_1": tcpEdge({ hostports: ["1.tcp.ngrok.io:12345"], backend: backendModule("bkdhr_1") }),
      "/backends/http_response/bkdhr_1": httpResponse("bkdhr_1", 200, "hello"),
    });

    const r = await suite.run(["migrate", "edge", "edgtcp_1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as PlanJson;
    expect(plan.not_migrated).toEqual([
      { edge_id: "edgtcp_1", route_id: null, item: "backend", reason: expect.any(String) },
    ]);
    expect(plan.endpoints).toEqual([
      expect.objectContaining({
        url: "tcp://1.tcp.ngrok.io:12345",
        traffic_policy: { on_tcp_connect: [{ name: "edgtcp_1", actions: [{ type: "deny" }] }] },
      }),
    ]);

    suite.server.requests.length = 0;
    const apply = await suite.run(["migrate", "edge", "edgtcp_1", "--apply", "-o", "json"]);
    expect(apply.exitCode).toBe(2);
    expect(apply.stdout).toBe("");
    expect(refusedItems(apply.stderr).map((n) => [n.route_id, n.item])).toEqual([[null, "backend"]]);
    expect(posts(suite)).toEqual([]);
  });
});

describe("--apply reads every page of GET /endpoints (fault server)", () => {
  const suite = useFaultServer("key_fail_closed_pages_1");
  const SHOP = edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")]);
  const NEXT = "before_id=ep_other_99&limit=100";
  const objects = { "/edges/https/edghts_1": SHOP, "/backends/tunnel_group/bkdtg_app": APP };

  /** Page 1: 100 endpoints on other URLs and a next page; page 2: `last` alone. */
  function pages(last: object): Record<string, object> {
    const others = Array.from({ length: 100 }, (_, i) => ({
      id: `ep_other_${i}`,
      type: "cloud",
      url: `https://other-${i}.example.com`,
      traffic_policy: '{"on_http_request":[]}',
    }));
    return {
      "limit=100": {
        endpoints: others,
        uri: `${suite.server.url}/endpoints`,
        next_page_uri: `${suite.server.url}/endpoints?${NEXT}`,
      },
      [NEXT]: { endpoints: [last], uri: `${suite.server.url}/endpoints?${NEXT}`, next_page_uri: null },
    };
  }

  async function plannedPolicy(): Promise<object> {
    answerAccount(suite, objects);
    const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as PlanJson;
    expect(plan.not_migrated).toEqual([]);
    expect(plan.endpoints.map((e) => e.url)).toEqual(["https://shop.example.com"]);
    return plan.endpoints[0]!.traffic_policy;
  }

  it("the planned URL with the planned policy on page 2: exists, exit 0, no POST", async () => {
    const policy = await plannedPolicy();
    const shop = {
      id: "ep_shop",
      type: "cloud",
      url: "https://shop.example.com",
      traffic_policy: JSON.stringify(policy),
    };
    answerAccount(suite, objects, pages(shop));
    suite.server.requests.length = 0;

    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toContain("exists: https://shop.example.com is already endpoint ep_shop with this policy");
    expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toContain(`GET /endpoints?${NEXT}`);
    expect(posts(suite)).toEqual([]);
  });

  it("another policy at the planned URL on page 2: not migrated (item endpoint), exit 2, no POST", async () => {
    await plannedPolicy();
    const shop = {
      id: "ep_shop",
      type: "cloud",
      url: "https://shop.example.com",
      traffic_policy: '{"on_http_request":[{"actions":[{"type":"deny","config":{"status_code":403}}]}]}',
    };
    answerAccount(suite, objects, pages(shop));
    suite.server.requests.length = 0;

    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(refusedItems(r.stderr)).toEqual([
      { edge_id: "edghts_1", route_id: null, item: "endpoint", reason: expect.stringContaining("ep_shop") },
    ]);
    expect(posts(suite)).toEqual([]);
  });
});

// HTTPS edges, their routes and the routes' modules, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call, makeRoute } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

const ROUTE_MODULES = [
  "backend",
  "ip_restriction",
  "circuit_breaker",
  "compression",
  "request_headers",
  "response_headers",
  "webhook_verification",
  "oauth",
  "saml",
  "oidc",
  "websocket_tcp_converter",
  "user_agent_filter",
  "traffic_policy",
];

describe("POST /edges/https and GET /edges/https/{id}", () => {
  it("creates an edge with an edghts_ id and the API's fields; GET returns the same", async () => {
    const r = await call(emu.url, "POST", "/edges/https", {
      body: {
        description: "shop",
        metadata: '{"team":"web"}',
        hostports: ["shop.example.com:443"],
        mutual_tls: { certificate_authority_ids: ["ca_1"] },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^edghts_[A-Za-z0-9]{27}$/);
    expect(Object.keys(r.json)).toEqual([
      "id",
      "description",
      "metadata",
      "created_at",
      "uri",
      "hostports",
      "mutual_tls",
      "tls_termination",
      "routes",
    ]);
    expect(r.json).toMatchObject({
      description: "shop",
      metadata: '{"team":"web"}',
      uri: `${emu.url}/edges/https/${r.json.id}`,
      hostports: ["shop.example.com:443"],
      mutual_tls: {
        enabled: true,
        certificate_authorities: [{ id: "ca_1", uri: `${emu.url}/certificate_authorities/ca_1` }],
      },
      tls_termination: null,
      routes: [],
    });
    expect(r.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const g = await call(emu.url, "GET", `/edges/https/${r.json.id}`);
    expect(g.status).toBe(200);
    expect(g.json).toEqual(r.json);
  });

  it("takes a wildcard hostport as ngrok did (*.example.com:443), on HTTPS and TLS edges, shown as sent (issue 25)", async () => {
    for (const kind of ["https", "tls"]) {
      const hp = `*.wild-${kind}.example.com:443`;
      const r = await call(emu.url, "POST", `/edges/${kind}`, { body: { hostports: [hp] } });
      expect([kind, r.status, r.json.hostports]).toEqual([kind, 201, [hp]]);
      const p = await call(emu.url, "PATCH", `/edges/${kind}/${r.json.id}`, {
        body: { hostports: [hp, `x-${kind}.example.com:443`] },
      });
      expect(p.status).toBe(200);
      // One edge per hostport, wildcards included.
      const dup = await call(emu.url, "POST", "/edges/https", { body: { hostports: [hp] } });
      expect(dup.json.error_code).toBe("ERR_NGROK_7122");
    }
    for (const hp of [
      "*example.com:443",
      "a.*.example.com:443",
      "*.:443",
      "*:443",
      "**.example.com:443",
      "*.example.com",
    ]) {
      const r = await call(emu.url, "POST", "/edges/https", { body: { hostports: [hp] } });
      expect([hp, r.status]).toEqual([hp, 400]);
    }
    // A TCP edge takes only reserved TCP addresses, never a wildcard.
    const tcp = await call(emu.url, "POST", "/edges/tcp", { body: { hostports: ["*.tcp.ngrok.io:12345"] } });
    expect(tcp.status).toBe(400);
  });

  it("refuses a malformed hostport and a hostport another edge has (ERR_NGROK_7122)", async () => {
    const bad = await call(emu.url, "POST", "/edges/https", { body: { hostports: ["no-port"] } });
    expect(bad.status).toBe(400);
    expect(bad.json.msg).toMatch(/hostports\[0\]/);
    await call(emu.url, "POST", "/edges/https", { body: { hostports: ["taken.example.com:443"] } });
    const dup = await call(emu.url, "POST", "/edges/https", { body: { hostports: ["taken.example.com:443"] } });
    expect(dup.status).toBe(400);
    expect(dup.json.error_code).toBe("ERR_NGROK_7122");
  });

  it("refuses unknown fields with ERR_NGROK_214", async () => {
    const r = await call(emu.url, "POST", "/edges/https", { body: { hostport: "x:1" } });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_214");
  });

  it("answers 404 without error_code for an edge that does not exist, and 400 ERR_NGROK_227 for a malformed id", async () => {
    const missing = await call(emu.url, "GET", "/edges/https/edghts_missing");
    expect(missing.status).toBe(404);
    expect(missing.json.error_code).toBeUndefined();
    expect(missing.json.details.operation_id).toMatch(/^op_/);
    expect((await call(emu.url, "GET", "/edges/https/bkdfo_1")).json.error_code).toBe("ERR_NGROK_227");
  });

  it("PATCH changes only the fields given", async () => {
    const e = await call(emu.url, "POST", "/edges/https", { body: { description: "before", metadata: "m" } });
    const p = await call(emu.url, "PATCH", `/edges/https/${e.json.id}`, { body: { description: "after" } });
    expect(p.status).toBe(200);
    expect(p.json).toEqual({ ...e.json, description: "after" });
  });

  it("DELETE answers 204 and the edge (with its routes) is gone; a second DELETE is 404", async () => {
    const made = await makeRoute(emu.url);
    const d = await call(emu.url, "DELETE", `/edges/https/${made.edgeId}`);
    expect(d.status).toBe(204);
    expect(d.text).toBe("");
    expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}`)).status).toBe(404);
    expect((await call(emu.url, "GET", made.path)).status).toBe(404);
    expect((await call(emu.url, "DELETE", `/edges/https/${made.edgeId}`)).status).toBe(404);
  });

  it("answers 405 with Allow for a method a path does not take", async () => {
    const r = await call(emu.url, "PUT", "/edges/https");
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, POST");
  });
});

describe("GET /edges/https", () => {
  it("lists under https_edges, newest first, paged by limit and before_id with next_page_uri", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await call(fresh.url, "POST", "/edges/https", { body: { description: `#${i}` } })).json.id);
      const all = await call(fresh.url, "GET", "/edges/https");
      expect(Object.keys(all.json)).toEqual(["https_edges", "uri", "next_page_uri"]);
      expect(all.json.https_edges.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
      expect(all.json.next_page_uri).toBeNull();
      const page = await call(fresh.url, "GET", "/edges/https?limit=2");
      expect(page.json.https_edges.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
      expect(page.json.uri).toBe(`${fresh.url}/edges/https?limit=2`);
      expect(page.json.next_page_uri).toBe(`${fresh.url}/edges/https?before_id=${ids[3]}&limit=2`);
      const next = await call(fresh.url, "GET", page.json.next_page_uri);
      expect(next.json.https_edges.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
      expect((await call(fresh.url, "GET", "/edges/https?limit=101")).json.error_code).toBe("ERR_NGROK_233");
      expect((await call(fresh.url, "GET", "/edges/https?before_id=bkdfo_1")).json.error_code).toBe("ERR_NGROK_227");
    } finally {
      await fresh.close();
    }
  });

  it("shows each edge's routes inside it (there is no call that lists routes)", async () => {
    const made = await makeRoute(emu.url, { route: { match_type: "exact_path", match: "/only" } });
    const list = await call(emu.url, "GET", "/edges/https");
    const edge = list.json.https_edges.find((e: { id: string }) => e.id === made.edgeId);
    expect(edge.routes.map((r: { id: string; match: string }) => [r.id, r.match])).toEqual([[made.routeId, "/only"]]);
    expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}/routes`)).status).toBe(405);
  });
});

describe("routes", () => {
  it("creates a route with an edghtsrt_ id, every module null by default, and shows it in its edge", async () => {
    const e = await call(emu.url, "POST", "/edges/https", { body: {} });
    const r = await call(emu.url, "POST", `/edges/https/${e.json.id}/routes`, {
      body: { match_type: "path_prefix", match: "/blog", description: "blog" },
    });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^edghtsrt_[A-Za-z0-9]{27}$/);
    expect(Object.keys(r.json)).toEqual([
      "edge_id",
      "id",
      "created_at",
      "match_type",
      "match",
      "uri",
      "description",
      ...ROUTE_MODULES,
      "policy",
    ]);
    expect(r.json).toMatchObject({
      edge_id: e.json.id,
      match_type: "path_prefix",
      match: "/blog",
      description: "blog",
      uri: `${emu.url}/edges/https/${e.json.id}/routes/${r.json.id}`,
    });
    for (const m of [...ROUTE_MODULES, "policy"]) expect(r.json[m]).toBeNull();
    expect((await call(emu.url, "GET", `/edges/https/${e.json.id}/routes/${r.json.id}`)).json).toEqual(r.json);
    expect((await call(emu.url, "GET", `/edges/https/${e.json.id}`)).json.routes).toEqual([r.json]);
  });

  it("takes every module on create: written with ids ({backend_id}, {ip_policy_ids}), read with references ({id, uri}), defaults filled in", async () => {
    const e = await call(emu.url, "POST", "/edges/https", { body: {} });
    const r = await call(emu.url, "POST", `/edges/https/${e.json.id}/routes`, {
      body: {
        match_type: "exact_path",
        match: "example.com/login",
        backend: { backend_id: "bkdtg_abc" },
        webhook_verification: { provider: "stripe", secret: "whsec" },
        oauth: { provider: { google: {} } },
        ip_restriction: { enabled: false, ip_policy_ids: ["ipp_1"] },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.backend).toEqual({
      enabled: true,
      backend: { id: "bkdtg_abc", uri: `${emu.url}/backends/tunnel_group/bkdtg_abc` },
    });
    expect(r.json.webhook_verification).toEqual({ enabled: true, provider: "stripe", secret: "whsec" });
    // As the API's examples show it: every provider key (null when unused) and the defaults.
    expect(r.json.oauth).toEqual({
      options_passthrough: false,
      inactivity_timeout: 0,
      maximum_duration: 0,
      cookie_prefix: "ngrok.",
      auth_check_interval: 0,
      enabled: true,
      provider: {
        amazon: null,
        facebook: null,
        github: null,
        gitlab: null,
        google: { scopes: [], email_addresses: [], email_domains: [] },
        linkedin: null,
        microsoft: null,
        twitch: null,
      },
    });
    expect(r.json.ip_restriction).toEqual({
      enabled: false,
      ip_policies: [{ id: "ipp_1", uri: `${emu.url}/ip_policies/ipp_1` }],
    });
  });

  it.each([
    [{ match: "/x" }, /match_type/],
    [{ match_type: "regex", match: "/x" }, /match_type/],
    [{ match_type: "exact_path" }, /match is required/],
    [{ match_type: "exact_path", match: "/x", backend: { backend_id: "nope" } }, /backend_id/],
    [
      { match_type: "exact_path", match: "/x", webhook_verification: { provider: "githib", secret: "x" } },
      /did you mean "github"/,
    ],
  ])("refuses an invalid route %j with 400", async (body, msg) => {
    const e = await call(emu.url, "POST", "/edges/https", { body: {} });
    const r = await call(emu.url, "POST", `/edges/https/${e.json.id}/routes`, { body });
    expect(r.status).toBe(400);
    expect(r.json.msg).toMatch(msg);
    expect((await call(emu.url, "GET", `/edges/https/${e.json.id}`)).json.routes).toEqual([]);
  });

  it("refuses a body naming another edge with ERR_NGROK_7110", async () => {
    const e = await call(emu.url, "POST", "/edges/https", { body: {} });
    const r = await call(emu.url, "POST", `/edges/https/${e.json.id}/routes`, {
      body: { edge_id: "edghts_other", match_type: "path_prefix", match: "/" },
    });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_7110");
  });

  it("answers 404 for a route on an edge that does not exist, and for a route id the edge does not have", async () => {
    expect(
      (
        await call(emu.url, "POST", "/edges/https/edghts_missing/routes", {
          body: { match_type: "path_prefix", match: "/" },
        })
      ).status,
    ).toBe(404);
    const made = await makeRoute(emu.url);
    expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}/routes/edghtsrt_missing`)).status).toBe(404);
    const other = await makeRoute(emu.url);
    expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}/routes/${other.routeId}`)).status).toBe(404);
  });

  it("DELETE removes the route from its edge; PATCH changes the fields given", async () => {
    const made = await makeRoute(emu.url);
    const p = await call(emu.url, "PATCH", made.path, { body: { match: "/v2", description: "v2" } });
    expect(p.json).toMatchObject({ match_type: "path_prefix", match: "/v2", description: "v2" });
    expect((await call(emu.url, "DELETE", made.path)).status).toBe(204);
    expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}`)).json.routes).toEqual([]);
    expect((await call(emu.url, "GET", made.webhook)).status).toBe(404);
  });
});

describe("route modules", () => {
  it("backend: PUT {enabled, backend_id} → {enabled, backend: {id, uri}}; GET; DELETE; then GET 404", async () => {
    const made = await makeRoute(emu.url);
    const path = `${made.path}/backend`;
    expect((await call(emu.url, "GET", path)).status).toBe(404);
    const put = await call(emu.url, "PUT", path, { body: { enabled: true, backend_id: "bkdfo_chain" } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      enabled: true,
      backend: { id: "bkdfo_chain", uri: `${emu.url}/backends/failover/bkdfo_chain` },
    });
    expect((await call(emu.url, "GET", path)).json).toEqual(put.json);
    expect((await call(emu.url, "GET", made.path)).json.backend).toEqual(put.json);
    expect((await call(emu.url, "DELETE", path)).status).toBe(204);
    expect((await call(emu.url, "GET", path)).status).toBe(404);
    expect((await call(emu.url, "GET", made.path)).json.backend).toBeNull();
  });

  it("backend: refuses a missing or malformed backend_id and unknown fields", async () => {
    const made = await makeRoute(emu.url);
    const path = `${made.path}/backend`;
    expect((await call(emu.url, "PUT", path, { body: { enabled: true } })).json.msg).toMatch(/backend_id is required/);
    expect((await call(emu.url, "PUT", path, { body: { backend_id: "edghts_1" } })).json.error_code).toBe(
      "ERR_NGROK_242",
    );
    expect((await call(emu.url, "PUT", path, { body: { backend_id: "bkdhr_1", weight: 1 } })).json.error_code).toBe(
      "ERR_NGROK_214",
    );
  });

  it("webhook_verification set through its module shows in the route and in its edge", async () => {
    const made = await makeRoute(emu.url);
    await call(emu.url, "PUT", made.webhook, { body: { provider: "github", secret: "s" } });
    const edge = await call(emu.url, "GET", `/edges/https/${made.edgeId}`);
    expect(edge.json.routes[0].webhook_verification).toEqual({ enabled: true, provider: "github", secret: "s" });
  });

  it("every module of a route that does not exist answers 404", async () => {
    const made = await makeRoute(emu.url);
    for (const m of ["backend", "webhook_verification", "oauth"]) {
      expect((await call(emu.url, "GET", `/edges/https/${made.edgeId}/routes/edghtsrt_nope/${m}`)).status).toBe(404);
      expect(
        (
          await call(emu.url, "PUT", `/edges/https/${made.edgeId}/routes/edghtsrt_nope/${m}`, {
            body: { enabled: true },
          })
        ).status,
      ).toBe(404);
    }
  });

  it("answers 404 for a module name the API does not have", async () => {
    const made = await makeRoute(emu.url);
    expect((await call(emu.url, "GET", `${made.path}/nonsense`)).status).toBe(404);
  });
});

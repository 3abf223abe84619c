import { describe, expect, it } from "vitest";
import { backendsToRead, endpointUrl, planEdge, splitMatch } from "../../src/migrate/plan.js";
import { backendMap, edge, failover, httpResponse, route, staticBackend, tunnelGroup, weighted } from "./fixtures.js";

const APP = tunnelGroup("bkdtg_app", { service: "app" });
const none = new Map<string, string>();
const rulesOf = (result: ReturnType<typeof planEdge>, i = 0) =>
  result.plan.endpoints[i]!.traffic_policy.on_http_request;

describe("endpoint URL per hostport", () => {
  it.each([
    ["shop.example.com:443", "https://shop.example.com"],
    ["shop.example.com:8443", "https://shop.example.com:8443"],
    ["Shop.Example.com:443", "https://shop.example.com"],
  ])("%s becomes %s", (hostport, url) => {
    expect(endpointUrl(hostport).url).toBe(url);
  });

  it("plans one endpoint per hostport, with the edge's metadata and a description naming the edge", () => {
    const r = planEdge(
      edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], {
        hostports: ["a.example.com:443", "b.example.com:8443"],
      }),
      backendMap(APP),
      none,
    );
    expect(r.plan.endpoints.map((e) => [e.url, e.description, e.metadata])).toEqual([
      ["https://a.example.com", "Migrated from edge edghts_1", '{"team":"web"}'],
      ["https://b.example.com:8443", "Migrated from edge edghts_1", '{"team":"web"}'],
    ]);
  });

  it("warns that an edge without hostports gets no endpoint", () => {
    const r = planEdge(edge([], { hostports: [] }), backendMap(), none);
    expect(r.plan.endpoints).toEqual([]);
    expect(r.warnings.join("\n")).toMatch(/no hostports/);
  });
});

describe("match splitting", () => {
  it.each([
    ["/blog", { path: "/blog" }],
    ["example.com", { host: "example.com", path: "/" }],
    ["Example.com/blog", { host: "example.com", path: "/blog" }],
  ])("%s", (match, expected) => {
    expect(splitMatch(match)).toEqual(expected);
  });
});

describe("rule order: most specific first", () => {
  it("puts exact paths first, then prefixes by longer path, and / last without expressions", () => {
    const routes = [
      route("edghtsrt_root", "path_prefix", "/", "bkdtg_app"),
      route("edghtsrt_a", "path_prefix", "/a", "bkdtg_app"),
      route("edghtsrt_abc", "path_prefix", "/abc", "bkdtg_app"),
      route("edghtsrt_exact", "exact_path", "/a/login", "bkdtg_app"),
    ];
    const rules = rulesOf(planEdge(edge(routes), backendMap(APP), none));
    expect(rules.map((r) => [r.name, r.expressions])).toEqual([
      ["edghtsrt_exact", ['req.url.path == "/a/login"']],
      ["edghtsrt_abc", ['req.url.path.startsWith("/abc")']],
      ["edghtsrt_a", ['req.url.path.startsWith("/a")']],
      ["edghtsrt_root", undefined],
    ]);
  });

  it("adds a last catch-all 404 rule when no route is path_prefix /", () => {
    const rules = rulesOf(
      planEdge(edge([route("edghtsrt_a", "exact_path", "/a", "bkdtg_app")]), backendMap(APP), none),
    );
    expect(rules.at(-1)).toEqual({
      name: "no route matched",
      actions: [{ type: "custom-response", config: { status_code: 404 } }],
    });
    expect(rules).toHaveLength(2);
  });

  it("applies a host-qualified match only to that host's endpoint, with its path part", () => {
    const routes = [
      route("edghtsrt_b", "path_prefix", "b.example.com/api", "bkdtg_app"),
      route("edghtsrt_all", "path_prefix", "/api", "bkdtg_app"),
    ];
    const r = planEdge(edge(routes, { hostports: ["a.example.com:443", "b.example.com:443"] }), backendMap(APP), none);
    expect(rulesOf(r, 0).map((x) => x.name)).toEqual(["edghtsrt_all", "no route matched"]);
    expect(rulesOf(r, 1).map((x) => [x.name, x.expressions])).toEqual([
      ["edghtsrt_b", ['req.url.path.startsWith("/api")']],
      ["edghtsrt_all", ['req.url.path.startsWith("/api")']],
      ["no route matched", undefined],
    ]);
  });

  it("matches a host given with its port to that hostport only", () => {
    const r = planEdge(
      edge([route("edghtsrt_p", "path_prefix", "a.example.com:8443/x", "bkdtg_app")], {
        hostports: ["a.example.com:443", "a.example.com:8443"],
      }),
      backendMap(APP),
      none,
    );
    expect(rulesOf(r, 0).map((x) => x.name)).toEqual(["no route matched"]);
    expect(rulesOf(r, 1).map((x) => x.name)).toEqual(["edghtsrt_p", "no route matched"]);
    expect(r.plan.not_migrated).toEqual([]);
  });

  it("lists a route whose host is none of the edge's hostports", () => {
    const r = planEdge(
      edge([route("edghtsrt_x", "path_prefix", "other.example.com", "bkdtg_app")]),
      backendMap(APP),
      none,
    );
    expect(r.plan.not_migrated).toEqual([
      { route_id: "edghtsrt_x", item: "match", reason: expect.stringMatching(/other\.example\.com/) },
    ]);
    expect(rulesOf(r).map((x) => x.name)).toEqual(["no route matched"]);
  });
});

describe("actions", () => {
  it("verifies webhooks first (provider lower case), then forwards to the tunnel group's internal URL", () => {
    const wv = { enabled: true, provider: "GITHUB", secret: "whsec_1" };
    const rules = rulesOf(
      planEdge(
        edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", { webhook_verification: wv })]),
        backendMap(APP),
        none,
      ),
    );
    expect(rules[0]!.actions).toEqual([
      { type: "verify-webhook", config: { provider: "github", secret: "whsec_1" } },
      { type: "forward-internal", config: { url: "https://service-app.internal" } },
    ]);
  });

  it("writes no secret for sns, and skips a disabled webhook verification", () => {
    const sns = rulesOf(
      planEdge(
        edge([
          route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", {
            webhook_verification: { enabled: true, provider: "sns", secret: "" },
          }),
        ]),
        backendMap(APP),
        none,
      ),
    );
    expect(sns[0]!.actions[0]).toEqual({ type: "verify-webhook", config: { provider: "sns" } });
    const off = rulesOf(
      planEdge(
        edge([
          route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", {
            webhook_verification: { enabled: false, provider: "github", secret: "s" },
          }),
        ]),
        backendMap(APP),
        none,
      ),
    );
    expect(off[0]!.actions.map((a) => a.type)).toEqual(["forward-internal"]);
  });

  it.each([
    [{ service: "app" }, "https://service-app.internal"],
    [{ service: "api", dc: "eu" }, "https://dc-eu-service-api.internal"],
    [{ Team: "Web_1", "x.y": "a b" }, "https://team-web-1-x-y-a-b.internal"],
  ])("tunnel group labels %j → %s", (labels, url) => {
    const rules = rulesOf(
      planEdge(
        edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_t")]),
        backendMap(tunnelGroup("bkdtg_t", labels)),
        none,
      ),
    );
    expect(rules[0]!.actions).toEqual([{ type: "forward-internal", config: { url } }]);
  });

  it("answers an HTTP response backend with custom-response, headers only when there are some", () => {
    const withHeaders = httpResponse("bkdhr_1", 503, "down", { "Retry-After": "60" });
    const r1 = rulesOf(
      planEdge(edge([route("edghtsrt_1", "path_prefix", "/", "bkdhr_1")]), backendMap(withHeaders), none),
    );
    expect(r1[0]!.actions).toEqual([
      { type: "custom-response", config: { status_code: 503, body: "down", headers: { "Retry-After": "60" } } },
    ]);
    for (const headers of [null, {}]) {
      const r2 = rulesOf(
        planEdge(
          edge([route("edghtsrt_1", "path_prefix", "/", "bkdhr_2")]),
          backendMap(httpResponse("bkdhr_2", 200, "ok", headers)),
          none,
        ),
      );
      expect(r2[0]!.actions).toEqual([{ type: "custom-response", config: { status_code: 200, body: "ok" } }]);
    }
  });

  it("flattens nested failovers in order, every forward but the last continuing on error", () => {
    const backends = backendMap(
      failover("bkdfo_outer", ["bkdtg_a", "bkdfo_inner", "bkdtg_d"]),
      failover("bkdfo_inner", ["bkdtg_b", "bkdtg_c"]),
      tunnelGroup("bkdtg_a", { s: "a" }),
      tunnelGroup("bkdtg_b", { s: "b" }),
      tunnelGroup("bkdtg_c", { s: "c" }),
      tunnelGroup("bkdtg_d", { s: "d" }),
    );
    const rules = rulesOf(planEdge(edge([route("edghtsrt_1", "path_prefix", "/", "bkdfo_outer")]), backends, none));
    expect(rules[0]!.actions).toEqual([
      { type: "forward-internal", config: { url: "https://s-a.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-b.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-c.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-d.internal" } },
    ]);
  });

  it("ends a failover at an HTTP response, dropping the children after it with a warning", () => {
    const backends = backendMap(
      failover("bkdfo_1", ["bkdtg_a", "bkdhr_x", "bkdtg_b"]),
      tunnelGroup("bkdtg_a", { s: "a" }),
      tunnelGroup("bkdtg_b", { s: "b" }),
      httpResponse("bkdhr_x", 503, "sorry"),
    );
    const r = planEdge(edge([route("edghtsrt_1", "path_prefix", "/", "bkdfo_1")]), backends, none);
    expect(rulesOf(r)[0]!.actions).toEqual([
      { type: "forward-internal", config: { url: "https://s-a.internal", on_error: "continue" } },
      { type: "custom-response", config: { status_code: 503, body: "sorry" } },
    ]);
    expect(r.warnings).toEqual([expect.stringMatching(/edghtsrt_1: backend bkdtg_b .*never be reached/)]);
    expect(r.plan.not_migrated).toEqual([]);
  });

  it("forwards a --map'd backend of any kind to the URL given, without reading it", () => {
    const maps = new Map([
      ["bkdwd_w", "https://weighted.internal"],
      ["bkdfo_f", "https://whole-failover.internal"],
    ]);
    const e = edge([
      route("edghtsrt_1", "path_prefix", "/w", "bkdwd_w"),
      route("edghtsrt_2", "path_prefix", "/", "bkdfo_f"),
    ]);
    expect(backendsToRead(e, new Map(), maps)).toEqual([]);
    const rules = rulesOf(planEdge(e, new Map(), maps));
    expect(rules.map((r) => r.actions)).toEqual([
      [{ type: "forward-internal", config: { url: "https://weighted.internal" } }],
      [{ type: "forward-internal", config: { url: "https://whole-failover.internal" } }],
    ]);
  });
});

describe("backends to read", () => {
  it("asks for the routes' backends, then failover children as they become known, each once", () => {
    const e = edge([
      route("edghtsrt_1", "path_prefix", "/", "bkdfo_1"),
      route("edghtsrt_2", "path_prefix", "/x", "bkdfo_1"),
      route("edghtsrt_3", "exact_path", "/y", null),
    ]);
    expect(backendsToRead(e, new Map(), none)).toEqual(["bkdfo_1"]);
    const known = backendMap(failover("bkdfo_1", ["bkdtg_a", "bkdfo_1", "bkdwd_z"]));
    expect(backendsToRead(e, known, new Map([["bkdwd_z", "https://z.internal"]]))).toEqual(["bkdtg_a"]);
  });
});

describe("not migrated", () => {
  const cases: [string, ReturnType<typeof route>, object[], { item: string; reason: RegExp }][] = [
    [
      "a weighted backend without --map",
      route("edghtsrt_1", "path_prefix", "/w", "bkdwd_1"),
      [weighted("bkdwd_1", { bkdtg_a: 1 })],
      { item: "backend", reason: /weighted backend bkdwd_1 .*--map bkdwd_1=/ },
    ],
    [
      "a static backend without --map",
      route("edghtsrt_1", "path_prefix", "/s", "bkdsc_1"),
      [staticBackend("bkdsc_1", "10.0.0.1:80")],
      { item: "backend", reason: /static backend bkdsc_1/ },
    ],
    [
      "a failover cycle",
      route("edghtsrt_1", "path_prefix", "/c", "bkdfo_a"),
      [failover("bkdfo_a", ["bkdfo_b"]), failover("bkdfo_b", ["bkdfo_a"])],
      { item: "backend", reason: /cycle: bkdfo_a → bkdfo_b → bkdfo_a/ },
    ],
    [
      "a weighted child inside a failover",
      route("edghtsrt_1", "path_prefix", "/f", "bkdfo_a"),
      [failover("bkdfo_a", ["bkdwd_1"]), weighted("bkdwd_1", {})],
      { item: "backend", reason: /weighted backend bkdwd_1/ },
    ],
    [
      "a route without a backend",
      route("edghtsrt_1", "path_prefix", "/n", null),
      [],
      { item: "backend", reason: /no enabled backend/ },
    ],
    [
      "a disabled backend",
      route("edghtsrt_1", "path_prefix", "/n", "bkdtg_app", {
        backend: { enabled: false, backend: { id: "bkdtg_app" } },
      }),
      [APP],
      { item: "backend", reason: /no enabled backend/ },
    ],
    [
      "a tunnel group without labels",
      route("edghtsrt_1", "path_prefix", "/t", "bkdtg_n"),
      [tunnelGroup("bkdtg_n", {})],
      { item: "backend", reason: /no labels/ },
    ],
    ...([
      "oauth",
      "saml",
      "oidc",
      "ip_restriction",
      "circuit_breaker",
      "compression",
      "request_headers",
      "response_headers",
      "websocket_tcp_converter",
      "user_agent_filter",
      "traffic_policy",
    ].map((m) => [
      `an enabled ${m} module`,
      route("edghtsrt_1", "path_prefix", "/m", "bkdtg_app", { [m]: { enabled: true } }),
      [APP],
      { item: m, reason: /by hand/ },
    ]) as [string, ReturnType<typeof route>, object[], { item: string; reason: RegExp }][]),
  ];

  it.each(cases)("lists %s, and the route gets no rule", (_name, r, objects, expected) => {
    const result = planEdge(
      edge([r, route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app")]),
      backendMap(APP, ...(objects as { id: string }[])),
      none,
    );
    expect(result.plan.not_migrated).toEqual([
      { route_id: "edghtsrt_1", item: expected.item, reason: expect.stringMatching(expected.reason) },
    ]);
    expect(rulesOf(result).map((x) => x.name)).toEqual(["edghtsrt_ok", "no route matched"]);
  });

  it("ignores a module that is present but disabled", () => {
    const r = planEdge(
      edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", { oauth: { enabled: false, provider: {} } })]),
      backendMap(APP),
      none,
    );
    expect(r.plan.not_migrated).toEqual([]);
  });

  it("lists an enabled edge mutual_tls with a null route id and still plans the endpoints", () => {
    const r = planEdge(
      edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], {
        mutual_tls: { enabled: true, certificate_authorities: [] },
      }),
      backendMap(APP),
      none,
    );
    expect(r.plan.not_migrated).toEqual([{ route_id: null, item: "mutual_tls", reason: expect.any(String) }]);
    expect(rulesOf(r).map((x) => x.name)).toEqual(["edghtsrt_1"]);
  });

  it("adds the 404 rule when the / route itself could not be migrated", () => {
    const r = planEdge(
      edge([route("edghtsrt_1", "path_prefix", "/", "bkdwd_1")]),
      backendMap(weighted("bkdwd_1", {})),
      none,
    );
    expect(rulesOf(r).map((x) => x.name)).toEqual(["no route matched"]);
  });
});

describe("a backend the API does not have", () => {
  it("is not read again, and its route is listed as not migrated", () => {
    const e = edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_gone")]);
    const backends = new Map([["bkdtg_gone", null]]);
    expect(backendsToRead(e, backends, none)).toEqual([]);
    const { plan } = planEdge(e, backends, none);
    expect(plan.not_migrated).toEqual([
      { route_id: "edghtsrt_1", item: "backend", reason: expect.stringContaining("bkdtg_gone does not exist") },
    ]);
  });
});

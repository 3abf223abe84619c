// The planner, rule by rule of the contract's "Leaving Edges": edges in, policies out.
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import type { AnyEdge } from "../../src/api/edges.js";
import { InternalError } from "../../src/errors.js";
import { backendsToRead } from "../../src/migrate/modules/backends.js";
import {
  assertPlansValid,
  planEdge,
  planEdges,
  splitMatch,
  type ParsedPolicy,
  type Plan,
} from "../../src/migrate/plan.js";
import type { Rule } from "../../src/migrate/policy.js";
import {
  backendMap,
  backendModule,
  edge,
  failover,
  https,
  httpResponse,
  route,
  staticBackend,
  tcp,
  tcpEdge,
  tls,
  tlsEdge,
  tunnelGroup,
  weighted,
} from "./fixtures.js";

const APP = tunnelGroup("bkdtg_app", { service: "app" });
const FWD_APP = { type: "forward-internal", config: { url: "https://service-app.internal" } };
const DENY_503 = { type: "deny", config: { status_code: 503 } };
const DENY_403 = { type: "deny", config: { status_code: 403 } };
const none = new Map<string, string>();
const hash8 = (canonical: string) => createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 8);

function plan(e: AnyEdge, objects: { id: string }[] = [APP], maps = none, policies?: Map<string, ParsedPolicy>): Plan {
  return planEdge(e, { backends: backendMap(...objects), maps, policies });
}
const request = (p: Plan, i = 0) => p.endpoints[i]!.traffic_policy.on_http_request!;
const names = (rules: Rule[]) => rules.map((r) => r.name);
/** An HTTPS edge with one route `/` to `bkdtg_app` carrying `modules`. */
const oneRoute = (modules: Record<string, unknown>, match = "/", type: "path_prefix" | "exact_path" = "path_prefix") =>
  https(edge([route("edghtsrt_1", type, match, "bkdtg_app", modules)]));

describe("endpoint URL per edge kind", () => {
  it("HTTPS: https://<host> for 443; another port is not migrated (item hostport), the other hostports are", () => {
    const p = plan(
      https(
        edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], {
          hostports: ["A.example.com:443", "b.example.com:8443"],
        }),
      ),
    );
    expect(p.endpoints.map((e) => [e.url, e.description, e.metadata])).toEqual([
      ["https://a.example.com", "Migrated from edge edghts_1", '{"team":"web"}'],
    ]);
    expect(p.not_migrated).toEqual([
      { edge_id: "edghts_1", route_id: null, item: "hostport", reason: expect.stringContaining("b.example.com:8443") },
    ]);
    expect(request(p)).toEqual([{ name: "edghtsrt_1", actions: [FWD_APP] }]);
  });

  it("TLS: tls://<host>:443, another port not migrated; TCP: tcp://<host>:<port>", () => {
    const t = plan(
      tls(tlsEdge({ hostports: ["db.example.com:443", "db.example.com:9443"], backend: backendModule("bkdtg_app") })),
    );
    expect(t.endpoints.map((e) => e.url)).toEqual(["tls://db.example.com:443"]);
    expect(t.not_migrated.map((n) => n.item)).toEqual(["hostport"]);
    const c = plan(
      tcp(
        tcpEdge({ hostports: ["1.tcp.ngrok.io:12345", "2.tcp.ngrok.io:23456"], backend: backendModule("bkdtg_app") }),
      ),
    );
    expect(c.endpoints.map((e) => e.url)).toEqual(["tcp://1.tcp.ngrok.io:12345", "tcp://2.tcp.ngrok.io:23456"]);
    expect(c.not_migrated).toEqual([]);
  });

  it.each(["bad_host!:443", "example.com", "example.com:0", "-x.example.com:443", "example.com:99999"])(
    "lists the invalid hostport %j and plans no endpoint for it",
    (hp) => {
      const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], { hostports: [hp] })));
      expect(p.endpoints).toEqual([]);
      expect(p.not_migrated.map((n) => n.item)).toEqual(["hostport"]);
    },
  );

  it("warns that an edge without hostports gets no endpoint", () => {
    const p = plan(https(edge([], { hostports: [] })));
    expect(p.endpoints).toEqual([]);
    expect(p.warnings).toEqual([
      { edge_id: "edghts_1", route_id: null, item: "hostports", message: expect.stringMatching(/no hostports/) },
    ]);
    expect(plan(tcp(tcpEdge({ hostports: null, backend: backendModule("bkdtg_app") }))).endpoints).toEqual([]);
  });
});

describe("routes: order and expressions", () => {
  it.each([
    ["/blog", { path: "/blog" }],
    ["example.com", { host: "example.com", path: "/" }],
    ["Example.com/blog", { host: "example.com", path: "/blog" }],
    ["example.com:443/x", { host: "example.com", path: "/x" }],
  ])("match %s splits into host and path", (match, expected) => {
    expect(splitMatch(match)).toEqual(expected);
  });

  it("exact paths first, then prefixes by longer path, at equal paths a host-qualified one first; / has no expressions", () => {
    const routes = [
      route("edghtsrt_root", "path_prefix", "/", "bkdtg_app"),
      route("edghtsrt_a", "path_prefix", "/a", "bkdtg_app"),
      route("edghtsrt_hosta", "path_prefix", "shop.example.com/a", "bkdtg_app"),
      route("edghtsrt_abc", "path_prefix", "/abc", "bkdtg_app"),
      route("edghtsrt_exact", "exact_path", "/a/login", "bkdtg_app"),
    ];
    const rules = request(plan(https(edge(routes))));
    expect(rules.map((r) => [r.name, r.expressions])).toEqual([
      ["edghtsrt_exact", ['req.url.path == "/a/login"']],
      ["edghtsrt_abc", ['req.url.path.startsWith("/abc")']],
      ["edghtsrt_hosta", ['req.url.path.startsWith("/a")']],
      ["edghtsrt_a", ['req.url.path.startsWith("/a")']],
      ["edghtsrt_root", undefined],
    ]);
  });

  it("writes the path as a JSON-escaped string literal", () => {
    const rules = request(plan(https(edge([route("edghtsrt_q", "exact_path", '/a"b\\c', "bkdtg_app")]))));
    expect(rules[0]!.expressions).toEqual(['req.url.path == "/a\\"b\\\\c"']);
  });

  it("a host-only match counts as / and applies only to that host's endpoint", () => {
    const routes = [
      route("edghtsrt_b", "path_prefix", "b.example.com", "bkdtg_app"),
      route("edghtsrt_api", "path_prefix", "b.example.com/api", "bkdtg_app"),
      route("edghtsrt_all", "path_prefix", "/api", "bkdtg_app"),
    ];
    const p = plan(https(edge(routes, { hostports: ["a.example.com:443", "b.example.com:443"] })));
    expect(request(p, 0).map((x) => [x.name, x.expressions])).toEqual([
      ["edghtsrt_all", ['req.url.path.startsWith("/api")']],
      ["no route matched", undefined],
    ]);
    expect(request(p, 1).map((x) => [x.name, x.expressions])).toEqual([
      ["edghtsrt_api", ['req.url.path.startsWith("/api")']],
      ["edghtsrt_all", ['req.url.path.startsWith("/api")']],
      ["edghtsrt_b", undefined],
    ]);
  });

  it("warns about a route whose host the edge does not serve (it can never be reached)", () => {
    const p = plan(https(edge([route("edghtsrt_x", "path_prefix", "other.example.com", "bkdtg_app")])));
    expect(p.warnings).toEqual([
      {
        edge_id: "edghts_1",
        route_id: "edghtsrt_x",
        item: "match",
        message: expect.stringMatching(/other\.example\.com/),
      },
    ]);
    expect(p.not_migrated).toEqual([]);
    expect(names(request(p))).toEqual(["no route matched"]);
  });

  it("ends with a 404 custom-response when no route is path_prefix /", () => {
    const rules = request(plan(https(edge([route("edghtsrt_a", "exact_path", "/a", "bkdtg_app")]))));
    expect(rules.at(-1)).toEqual({
      name: "no route matched",
      actions: [{ type: "custom-response", config: { status_code: 404 } }],
    });
  });
});

describe("a route's rules, in the contract's order", () => {
  const ALL = {
    ip_restriction: {
      enabled: true,
      ip_policies: [
        { id: "ipp_1", uri: "u" },
        { id: "ipp_2", uri: "u" },
      ],
    },
    user_agent_filter: { enabled: true, allow: ["^good$"], deny: ["bot", 'x"y'] },
    oauth: {
      enabled: true,
      provider: {
        amazon: null,
        github: null,
        google: {
          client_id: "cid",
          client_secret: "csecret",
          scopes: ["email"],
          email_addresses: ["alan@example.com"],
          email_domains: ["example.org"],
        },
      },
      options_passthrough: true,
      cookie_prefix: "",
      inactivity_timeout: 300,
      maximum_duration: 0,
      auth_check_interval: 60,
    },
    webhook_verification: { enabled: true, provider: "GitHub", secret: "whsec_1" },
    circuit_breaker: {
      enabled: true,
      error_threshold_percentage: 0.25,
      volume_threshold: 20,
      rolling_window: 30,
      tripped_duration: 120,
      num_buckets: 10,
    },
    request_headers: { enabled: true, add: { "x-a": "1" }, remove: ["cookie"] },
    traffic_policy: {
      enabled: true,
      value: JSON.stringify({
        on_http_request: [
          {
            name: "rw",
            expressions: ["req.method == 'GET'"],
            actions: [{ type: "log", config: { metadata: { m: "x" } } }],
          },
        ],
      }),
    },
  };

  it("restrict-ips, user agent filter, oauth + email rule, verify-webhook, circuit-breaker, headers, own policy, backend", () => {
    const p = plan(oneRoute(ALL, "/app"));
    const e = ['req.url.path.startsWith("/app")'];
    expect(request(p)).toEqual([
      {
        name: "edghtsrt_1",
        expressions: e,
        actions: [{ type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_1", "ipp_2"] } }],
      },
      {
        name: "edghtsrt_1 user-agent-filter",
        expressions: [
          ...e,
          '!(req.user_agent.matches("^good$")) && (req.user_agent.matches("bot") || req.user_agent.matches("x\\"y") || req.user_agent == "")',
        ],
        actions: [DENY_403],
      },
      {
        name: "edghtsrt_1 oauth",
        expressions: e,
        actions: [
          {
            type: "oauth",
            config: {
              provider: "google",
              client_id: "cid",
              client_secret: "csecret",
              scopes: ["email"],
              allow_cors_preflight: true,
              idle_session_timeout: "300s",
              userinfo_refresh_interval: "60s",
            },
          },
        ],
      },
      {
        name: "edghtsrt_1 oauth-email",
        expressions: [
          ...e,
          '!(actions.ngrok.oauth.identity.email == "alan@example.com" || actions.ngrok.oauth.identity.email.endsWith("@example.org"))',
        ],
        actions: [DENY_403],
      },
      {
        name: "edghtsrt_1 verify-webhook",
        expressions: e,
        actions: [
          { type: "verify-webhook", config: { provider: "github", secret: "whsec_1" } },
          {
            type: "circuit-breaker",
            config: { error_threshold: 0.25, volume_threshold: 20, window_duration: "30s", tripped_duration: "120s" },
          },
          { type: "remove-headers", config: { headers: ["cookie"] } },
          { type: "add-headers", config: { headers: { "x-a": "1" } } },
        ],
      },
      {
        name: "edghtsrt_1 rw",
        expressions: [...e, "req.method == 'GET'"],
        actions: [{ type: "log", config: { metadata: { m: "x" } } }],
      },
      { name: "edghtsrt_1 forward-internal", expressions: e, actions: [FWD_APP] },
      { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
    ]);
    expect(p.not_migrated).toEqual([]);
    expect(p.warnings).toEqual([]);
  });

  it.each([
    [{ allow: ["a"], deny: [] }, '!(req.user_agent.matches("a")) && req.user_agent == ""'],
    [{ allow: [], deny: ["d"] }, '(req.user_agent.matches("d") || req.user_agent == "")'],
    [{ allow: null, deny: null }, 'req.user_agent == ""'],
    [
      { allow: ["a", "b"], deny: ["d"] },
      '!(req.user_agent.matches("a") || req.user_agent.matches("b")) && (req.user_agent.matches("d") || req.user_agent == "")',
    ],
  ])("user agent filter %j → %s", (filter, expression) => {
    const rules = request(plan(oneRoute({ user_agent_filter: { enabled: true, ...filter } })));
    expect(rules[0]).toEqual({ name: "edghtsrt_1", expressions: [expression], actions: [DENY_403] });
  });

  it("oauth: zero values and empty lists left out, no email rule without emails, a chosen cookie_prefix warned about", () => {
    const p = plan(
      oneRoute({
        oauth: {
          enabled: true,
          provider: {
            github: { client_id: null, client_secret: null, scopes: [], email_addresses: [], email_domains: [] },
          },
          options_passthrough: false,
          cookie_prefix: "shop.",
          inactivity_timeout: 0,
          maximum_duration: 0,
          auth_check_interval: 0,
        },
      }),
    );
    expect(request(p)[0]!.actions).toEqual([{ type: "oauth", config: { provider: "github" } }, FWD_APP]);
    expect(p.warnings.map((w) => [w.route_id, w.item])).toEqual([["edghtsrt_1", "oauth"]]);
  });

  it("oauth: the API's default cookie_prefix (ngrok.) is no warning", () => {
    const p = plan(
      oneRoute({
        oauth: {
          enabled: true,
          provider: { github: { client_id: null, client_secret: null, scopes: [] } },
          cookie_prefix: "ngrok.",
        },
      }),
    );
    expect(p.warnings).toEqual([]);
  });

  it("oidc becomes openid-connect with its session fields", () => {
    const p = plan(
      oneRoute({
        oidc: {
          enabled: true,
          issuer: "https://accounts.google.com",
          client_id: "id",
          client_secret: "sec",
          scopes: ["openid"],
          options_passthrough: false,
          cookie_prefix: "",
          inactivity_timeout: 60,
          maximum_duration: 3600,
        },
      }),
    );
    expect(request(p)[0]!.actions[0]).toEqual({
      type: "openid-connect",
      config: {
        issuer_url: "https://accounts.google.com",
        client_id: "id",
        client_secret: "sec",
        scopes: ["openid"],
        idle_session_duration: "60s",
        max_session_duration: "3600s",
      },
    });
    expect(p.not_migrated).toEqual([]);
  });

  it("circuit-breaker: num_buckets other than 0 or 10 is a warning", () => {
    const p = plan(oneRoute({ circuit_breaker: { enabled: true, error_threshold_percentage: 0.5, num_buckets: 5 } }));
    expect(request(p)[0]!.actions[0]).toEqual({ type: "circuit-breaker", config: { error_threshold: 0.5 } });
    expect(p.warnings.map((w) => w.item)).toEqual(["circuit_breaker"]);
  });

  it("request headers: more than 10 names make several actions", () => {
    const add = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-${i}`, `${i}`]));
    const remove = Array.from({ length: 12 }, (_, i) => `r-${i}`);
    const actions = request(plan(oneRoute({ request_headers: { enabled: true, add, remove } })))[0]!.actions;
    expect(actions.map((a) => [a.type, Object.keys((a.config!.headers ?? a.config) as object).length])).toEqual([
      ["remove-headers", 10],
      ["remove-headers", 2],
      ["add-headers", 10],
      ["add-headers", 1],
      ["forward-internal", 1],
    ]);
  });

  it("the route's own policy may be YAML (parsed by the caller)", () => {
    const text = "on_http_request:\n  - actions:\n      - type: log\n        config: {metadata: {a: 1}}\n";
    const policies = new Map<string, ParsedPolicy>([[text, { document: parseYaml(text) }]]);
    const p = plan(oneRoute({ traffic_policy: { enabled: true, value: text } }, "/x"), [APP], none, policies);
    expect(request(p)[0]).toEqual({
      name: "edghtsrt_1",
      expressions: ['req.url.path.startsWith("/x")'],
      actions: [{ type: "log", config: { metadata: { a: 1 } } }],
    });
  });
});

describe("the response phase, scoped to each route alone", () => {
  it("response headers, compression and the route policy's response rules, each excluding every more specific route", () => {
    const routes = [
      route("edghtsrt_root", "path_prefix", "/", "bkdtg_app", {
        compression: { enabled: true },
        traffic_policy: {
          enabled: true,
          value: JSON.stringify({
            on_http_response: [
              {
                expressions: ["res.status_code == 500"],
                actions: [{ type: "custom-response", config: { status_code: 502 } }],
              },
            ],
          }),
        },
      }),
      route("edghtsrt_a", "path_prefix", "/a", "bkdtg_app", {
        response_headers: { enabled: true, add: { "x-frame-options": "DENY" }, remove: [] },
      }),
      route("edghtsrt_x", "exact_path", "/a/x", "bkdtg_app"),
    ];
    const p = plan(https(edge(routes)));
    expect(p.endpoints[0]!.traffic_policy.on_http_response).toEqual([
      {
        name: "edghtsrt_a",
        expressions: ['req.url.path.startsWith("/a")', '!(req.url.path == "/a/x")'],
        actions: [{ type: "add-headers", config: { headers: { "x-frame-options": "DENY" } } }],
      },
      {
        name: "edghtsrt_root",
        expressions: ['!(req.url.path == "/a/x")', '!(req.url.path.startsWith("/a"))'],
        actions: [{ type: "compress-response" }],
      },
      {
        name: "edghtsrt_root traffic_policy[0]",
        expressions: ['!(req.url.path == "/a/x")', '!(req.url.path.startsWith("/a"))', "res.status_code == 500"],
        actions: [{ type: "custom-response", config: { status_code: 502 } }],
      },
    ]);
  });

  it("has no response phase when no route has response modules", () => {
    expect(plan(oneRoute({})).endpoints[0]!.traffic_policy.on_http_response).toBeUndefined();
  });
});

describe("backends", () => {
  it.each([
    [{ service: "app" }, "https://service-app.internal"],
    // Anything but one [a-z0-9]+ label carries a hash of the labels (issue 25 item 17 a).
    [{ service: "api", dc: "eu" }, `https://dc-eu-service-api-${hash8('{"dc":"eu","service":"api"}')}.internal`],
    [{ Team: "Web_1", "x.y": "a b" }, `https://team-web-1-x-y-a-b-${hash8('{"Team":"Web_1","x.y":"a b"}')}.internal`],
  ])("tunnel group labels %j → %s", (labels, url) => {
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_t")])), [tunnelGroup("bkdtg_t", labels)]);
    expect(request(p)[0]!.actions).toEqual([{ type: "forward-internal", config: { url } }]);
  });

  it("an HTTP response backend becomes custom-response, headers only when there are some", () => {
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdhr_1")])), [
      httpResponse("bkdhr_1", 503, "down", { "retry-after": "60" }),
    ]);
    expect(request(p)[0]!.actions).toEqual([
      { type: "custom-response", config: { status_code: 503, body: "down", headers: { "retry-after": "60" } } },
    ]);
    for (const headers of [null, {}]) {
      const q = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdhr_2")])), [
        httpResponse("bkdhr_2", 200, "ok", headers),
      ]);
      expect(request(q)[0]!.actions).toEqual([{ type: "custom-response", config: { status_code: 200, body: "ok" } }]);
    }
  });

  it("failovers flatten in order, a child seen before dropped, every forward but the last continuing on error", () => {
    const objects = [
      failover("bkdfo_outer", ["bkdtg_a", "bkdfo_inner", "bkdtg_a", "bkdtg_d"]),
      failover("bkdfo_inner", ["bkdtg_b", "bkdtg_c", "bkdtg_b"]),
      tunnelGroup("bkdtg_a", { s: "a" }),
      tunnelGroup("bkdtg_b", { s: "b" }),
      tunnelGroup("bkdtg_c", { s: "c" }),
      tunnelGroup("bkdtg_d", { s: "d" }),
    ];
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdfo_outer")])), objects);
    expect(request(p)[0]!.actions).toEqual([
      { type: "forward-internal", config: { url: "https://s-a.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-b.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-c.internal", on_error: "continue" } },
      { type: "forward-internal", config: { url: "https://s-d.internal" } },
    ]);
    expect(p.warnings.map((w) => w.item)).toEqual(["backend", "backend"]);
    expect(p.not_migrated).toEqual([]);
  });

  it("children after an HTTP response are dropped with a warning", () => {
    const objects = [
      failover("bkdfo_1", ["bkdtg_a", "bkdhr_x", "bkdtg_b"]),
      tunnelGroup("bkdtg_a", { s: "a" }),
      tunnelGroup("bkdtg_b", { s: "b" }),
      httpResponse("bkdhr_x", 503, "sorry"),
    ];
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdfo_1")])), objects);
    expect(request(p)[0]!.actions).toEqual([
      { type: "forward-internal", config: { url: "https://s-a.internal", on_error: "continue" } },
      { type: "custom-response", config: { status_code: 503, body: "sorry" } },
    ]);
    expect(p.warnings).toEqual([
      {
        edge_id: "edghts_1",
        route_id: "edghtsrt_1",
        item: "backend",
        message: expect.stringMatching(/bkdtg_b .*never be reached/),
      },
    ]);
  });

  it("--map forwards a backend of any kind to the URL given, without reading it", () => {
    const maps = new Map([
      ["bkdwd_w", "https://weighted.internal"],
      ["bkdfo_f", "http://whole-failover.internal:8080"],
    ]);
    const e = https(
      edge([route("edghtsrt_1", "path_prefix", "/w", "bkdwd_w"), route("edghtsrt_2", "path_prefix", "/", "bkdfo_f")]),
    );
    expect(backendsToRead([e], new Map(), maps)).toEqual([]);
    expect(request(plan(e, [], maps)).map((r) => r.actions)).toEqual([
      [{ type: "forward-internal", config: { url: "https://weighted.internal" } }],
      [{ type: "forward-internal", config: { url: "http://whole-failover.internal:8080" } }],
    ]);
  });

  it("reads the routes' backends, then failover children as they become known, each once", () => {
    const e = https(
      edge([
        route("edghtsrt_1", "path_prefix", "/", "bkdfo_1"),
        route("edghtsrt_2", "path_prefix", "/x", "bkdfo_1"),
        route("edghtsrt_3", "exact_path", "/y", null),
      ]),
    );
    expect(backendsToRead([e], new Map(), none)).toEqual(["bkdfo_1"]);
    const known = backendMap(failover("bkdfo_1", ["bkdtg_a", "bkdfo_1", "bkdwd_z", "bkdtg_a"]));
    expect(backendsToRead([e], known, new Map([["bkdwd_z", "https://z.internal"]]))).toEqual(["bkdtg_a"]);
  });

  it("repeated failover children nested 24 deep plan at once, each backend once (issue 17 item 6)", () => {
    const objects: { id: string }[] = [tunnelGroup("bkdtg_leaf", { s: "leaf" })];
    let child = "bkdtg_leaf";
    for (let i = 0; i < 24; i++) {
      objects.push(failover(`bkdfo_${i}`, [child, child]));
      child = `bkdfo_${i}`;
    }
    const e = https(edge([route("edghtsrt_1", "path_prefix", "/", child)]));
    const known = backendMap(...objects);
    expect(backendsToRead([e], known, none)).toEqual([]);
    const p = plan(e, objects);
    expect(request(p)[0]!.actions).toEqual([{ type: "forward-internal", config: { url: "https://s-leaf.internal" } }]);
    expect(p.not_migrated).toEqual([]);
  });

  it("a failover nested deeper than 64 is not migrated (no stack overflow, no internal error)", () => {
    const objects: { id: string }[] = [tunnelGroup("bkdtg_leaf", { s: "leaf" })];
    let child = "bkdtg_leaf";
    for (let i = 0; i < 5000; i++) {
      objects.push(failover(`bkdfo_${i}`, [child]));
      child = `bkdfo_${i}`;
    }
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", child)])), objects);
    expect(p.not_migrated).toEqual([
      {
        edge_id: "edghts_1",
        route_id: "edghtsrt_1",
        item: "backend",
        reason: expect.stringMatching(/nested more than 64/),
      },
    ]);
  });

  it("tunnel groups with different labels that once gave one host (a-b-c) now get one each, across edges too; the same labels share one (issue 25 item 17 a)", () => {
    const a = tunnelGroup("bkdtg_a", { a: "b-c" });
    const b = tunnelGroup("bkdtg_b", { "a-b": "c" });
    const same = tunnelGroup("bkdtg_same", { a: "b-c" });
    const plans = planEdges(
      [
        https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_a")])),
        https(
          edge(
            [
              route("edghtsrt_2", "path_prefix", "/", "bkdtg_b"),
              route("edghtsrt_3", "path_prefix", "/s", "bkdtg_same"),
            ],
            { id: "edghts_2" },
          ),
        ),
      ],
      { backends: backendMap(a, b, same), maps: none },
    );
    expect(plans.map((p) => p.not_migrated)).toEqual([[], []]);
    const urls = plans.flatMap((p) =>
      p.endpoints[0]!.traffic_policy.on_http_request!.map((r) => r.actions[0]!.config!.url),
    );
    expect(urls).toEqual([
      `https://a-b-c-${hash8('{"a":"b-c"}')}.internal`,
      // edghts_2: /s (bkdtg_same) is more specific than / (bkdtg_b).
      `https://a-b-c-${hash8('{"a":"b-c"}')}.internal`,
      `https://a-b-c-${hash8('{"a-b":"c"}')}.internal`,
    ]);
    expect(new Set(urls).size).toBe(2);
  });
});

describe("text copied into a policy: a literal ${ is escaped, with a warning", () => {
  it("in custom-response bodies and headers and add-headers values", () => {
    const p = plan(
      https(
        edge([
          route("edghtsrt_1", "path_prefix", "/", "bkdhr_1", {
            request_headers: { enabled: true, add: { "x-t": "a${b" }, remove: [] },
            response_headers: { enabled: true, add: { "x-r": "${x" }, remove: [] },
          }),
        ]),
      ),
      [httpResponse("bkdhr_1", 200, "cost: ${price}", { "x-h": "${h}" })],
    );
    const esc = '${"${"}';
    expect(request(p)[0]!.actions).toEqual([
      { type: "add-headers", config: { headers: { "x-t": `a${esc}b` } } },
      {
        type: "custom-response",
        config: { status_code: 200, body: `cost: ${esc}price}`, headers: { "x-h": `${esc}h}` } },
      },
    ]);
    expect(p.endpoints[0]!.traffic_policy.on_http_response![0]!.actions).toEqual([
      { type: "add-headers", config: { headers: { "x-r": `${esc}x` } } },
    ]);
    expect(p.warnings.map((w) => w.item).sort()).toEqual(["backend", "backend", "request_headers", "response_headers"]);
    expect(p.not_migrated).toEqual([]);
  });
});

describe("edge-level TLS (HTTPS)", () => {
  const base = [route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")];
  it("mutual_tls and tls_termination at the edge become one terminate-tls in on_tcp_connect", () => {
    const p = plan(
      https(
        edge(base, {
          mutual_tls: { enabled: true, certificate_authorities: [{ id: "ca_1", uri: "u" }] },
          tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.3" },
        }),
      ),
    );
    expect(p.endpoints[0]!.traffic_policy.on_tcp_connect).toEqual([
      {
        name: "edghts_1",
        actions: [
          { type: "terminate-tls", config: { mutual_tls_certificate_authorities: ["ca_1"], min_version: "1.3" } },
        ],
      },
    ]);
    expect(p.not_migrated).toEqual([]);
  });

  it("a min_version of 1.0 or 1.1 becomes 1.2 with a warning", () => {
    const p = plan(https(edge(base, { tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.1" } })));
    expect(p.endpoints[0]!.traffic_policy.on_tcp_connect![0]!.actions).toEqual([
      { type: "terminate-tls", config: { min_version: "1.2" } },
    ]);
    expect(p.warnings.map((w) => w.item)).toEqual(["tls_termination"]);
  });

  it("terminate_at upstream is not migrated: the whole endpoint denies", () => {
    const p = plan(
      https(edge(base, { tls_termination: { enabled: true, terminate_at: "upstream", min_version: null } })),
    );
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([[null, "tls_termination"]]);
    expect(p.endpoints[0]!.traffic_policy).toEqual({ on_http_request: [{ name: "edghts_1", actions: [DENY_503] }] });
  });
});

describe("not migrated: listed, and the route fails closed", () => {
  const cases: [string, Record<string, unknown>, string | null, { id: string }[], string, RegExp][] = [
    [
      "a weighted backend without --map",
      {},
      "bkdwd_1",
      [weighted("bkdwd_1", { bkdtg_a: 1 })],
      "backend",
      /weighted backend bkdwd_1 .*--map bkdwd_1=/,
    ],
    [
      "a static backend without --map",
      {},
      "bkdsc_1",
      [staticBackend("bkdsc_1", "10.0.0.1:80")],
      "backend",
      /static backend bkdsc_1/,
    ],
    [
      "a failover cycle",
      {},
      "bkdfo_a",
      [failover("bkdfo_a", ["bkdfo_b"]), failover("bkdfo_b", ["bkdfo_a"])],
      "backend",
      /cycle: bkdfo_a → bkdfo_b → bkdfo_a/,
    ],
    ["a route without a backend", {}, null, [], "backend", /no enabled backend/],
    [
      "a disabled backend",
      { backend: { enabled: false, backend: { id: "bkdtg_app" } } },
      "bkdtg_app",
      [APP],
      "backend",
      /no enabled backend/,
    ],
    ["a tunnel group without labels", {}, "bkdtg_n", [tunnelGroup("bkdtg_n", {})], "backend", /no valid internal host/],
    [
      "a tunnel group whose host label is over 63",
      {},
      "bkdtg_n",
      [tunnelGroup("bkdtg_n", { k: "v".repeat(70) })],
      "backend",
      /no valid internal host/,
    ],
    [
      "an HTTP response with 11 headers",
      {},
      "bkdhr_1",
      [httpResponse("bkdhr_1", 200, "x", Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`h${i}`, "v"])))],
      "backend",
      /11 headers/,
    ],
    ["saml", { saml: { enabled: true } }, "bkdtg_app", [APP], "saml", /saml/],
    [
      "websocket_tcp_converter",
      { websocket_tcp_converter: { enabled: true } },
      "bkdtg_app",
      [APP],
      "websocket_tcp_converter",
      /websocket_tcp_converter/,
    ],
    [
      "webhook verification for sns",
      { webhook_verification: { enabled: true, provider: "SNS", secret: "" } },
      "bkdtg_app",
      [APP],
      "webhook_verification",
      /secret/,
    ],
    [
      "webhook verification without its secret",
      { webhook_verification: { enabled: true, provider: "github", secret: "" } },
      "bkdtg_app",
      [APP],
      "webhook_verification",
      /secret/,
    ],
    [
      "oauth teams",
      { oauth: { enabled: true, provider: { github: { teams: ["t"] } } } },
      "bkdtg_app",
      [APP],
      "oauth",
      /teams/,
    ],
    [
      "oauth organizations",
      { oauth: { enabled: true, provider: { github: { organizations: ["o"] } } } },
      "bkdtg_app",
      [APP],
      "oauth",
      /organizations/,
    ],
    [
      "a circuit breaker window over 120 s",
      { circuit_breaker: { enabled: true, error_threshold_percentage: 0.5, rolling_window: 300 } },
      "bkdtg_app",
      [APP],
      "circuit_breaker",
      /1–120/,
    ],
    [
      "a route policy with on_tcp_connect rules",
      { traffic_policy: { enabled: true, value: '{"on_tcp_connect":[{"actions":[{"type":"deny"}]}]}' } },
      "bkdtg_app",
      [APP],
      "traffic_policy",
      /on_tcp_connect/,
    ],
    [
      "a route policy that does not parse",
      { traffic_policy: { enabled: true, value: "{nope" } },
      "bkdtg_app",
      [APP],
      "traffic_policy",
      /not JSON or YAML/,
    ],
    [
      "a route policy's url-rewrite (a rewritten path could fall to another route)",
      {
        traffic_policy: {
          enabled: true,
          value: '{"on_http_request":[{"actions":[{"type":"url-rewrite","config":{"to":"/x"}}]}]}',
        },
      },
      "bkdtg_app",
      [APP],
      "traffic_policy",
      /url-rewrite/,
    ],
    [
      "the legacy policy key",
      { policy: { enabled: true, inbound: [] } },
      "bkdtg_app",
      [APP],
      "policy",
      /legacy policy/,
    ],
    [
      "a key edgectl does not know",
      { shiny_new_module: { enabled: true } },
      "bkdtg_app",
      [APP],
      "shiny_new_module",
      /does not know/,
    ],
    [
      "a module field edgectl does not know",
      { compression: { enabled: true, level: 9 } },
      "bkdtg_app",
      [APP],
      "compression",
      /level/,
    ],
    [
      "an ip restriction without policies",
      { ip_restriction: { enabled: true, ip_policies: [] } },
      "bkdtg_app",
      [APP],
      "ip_restriction",
      /no IP policies/,
    ],
  ];

  it.each(cases)(
    "%s: listed, its route one deny 503 rule with its expressions, the others kept",
    (_n, modules, backendId, objects, item, reason) => {
      const p = plan(
        https(
          edge([
            route("edghtsrt_1", "path_prefix", "/m", backendId, modules),
            route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app"),
          ]),
        ),
        [APP, ...objects],
      );
      expect(p.not_migrated).toEqual([
        { edge_id: "edghts_1", route_id: "edghtsrt_1", item, reason: expect.stringMatching(reason) },
      ]);
      expect(request(p)).toEqual([
        { name: "edghtsrt_ok", expressions: ['req.url.path == "/ok"'], actions: [FWD_APP] },
        { name: "edghtsrt_1", expressions: ['req.url.path.startsWith("/m")'], actions: [DENY_503] },
        { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
      ]);
    },
  );

  it("a / route not migrated denies everything it took, and no 404 rule follows", () => {
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdwd_1")])), [weighted("bkdwd_1", {})]);
    expect(request(p)).toEqual([{ name: "edghtsrt_1", actions: [DENY_503] }]);
  });

  it("ignores modules that are null or disabled, and keys whose value is null", () => {
    const p = plan(oneRoute({ oauth: { enabled: false, provider: {} }, saml: null, policy: null, something: null }));
    expect(p.not_migrated).toEqual([]);
    expect(request(p)).toEqual([{ name: "edghtsrt_1", actions: [FWD_APP] }]);
  });

  it("an edge-level key edgectl does not know makes the whole endpoint deny", () => {
    const p = plan(https(edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], { policy: { enabled: true } })));
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([[null, "policy"]]);
    expect(p.endpoints[0]!.traffic_policy).toEqual({ on_http_request: [{ name: "edghts_1", actions: [DENY_503] }] });
  });
});

describe("TLS and TCP edges: on_tcp_connect only", () => {
  it("TLS: restrict-ips, terminate-tls, the edge policy's on_tcp_connect rules, then forward to tls://<host>.internal:443", () => {
    const p = plan(
      tls(
        tlsEdge({
          backend: backendModule("bkdfo_1"),
          ip_restriction: { enabled: true, ip_policies: [{ id: "ipp_1", uri: "u" }] },
          mutual_tls: { enabled: true, certificate_authorities: [{ id: "ca_1", uri: "u" }] },
          tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.2" },
          traffic_policy: {
            enabled: true,
            value:
              '{"on_tcp_connect":[{"name":"geo","expressions":["conn.geo.country_code == \'XX\'"],"actions":[{"type":"deny"}]}]}',
          },
        }),
      ),
      [failover("bkdfo_1", ["bkdtg_app", "bkdtg_b"]), APP, tunnelGroup("bkdtg_b", { service: "b" })],
    );
    expect(p.not_migrated).toEqual([]);
    expect(p.endpoints).toEqual([
      {
        url: "tls://db.example.com:443",
        description: "Migrated from edge edgtls_1",
        metadata: "",
        traffic_policy: {
          on_tcp_connect: [
            {
              name: "edgtls_1",
              actions: [
                { type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_1"] } },
                { type: "terminate-tls", config: { mutual_tls_certificate_authorities: ["ca_1"], min_version: "1.2" } },
              ],
            },
            { name: "edgtls_1 geo", expressions: ["conn.geo.country_code == 'XX'"], actions: [{ type: "deny" }] },
            {
              name: "edgtls_1 forward-internal",
              actions: [
                { type: "forward-internal", config: { url: "tls://service-app.internal:443", on_error: "continue" } },
                { type: "forward-internal", config: { url: "tls://service-b.internal:443" } },
              ],
            },
          ],
        },
      },
    ]);
  });

  it("TLS ended at the edge without a min_version still gets terminate-tls (else TLS would pass through)", () => {
    const p = plan(
      tls(
        tlsEdge({
          backend: backendModule("bkdtg_app"),
          tls_termination: { enabled: true, terminate_at: "edge", min_version: null },
        }),
      ),
    );
    expect(p.endpoints[0]!.traffic_policy.on_tcp_connect![0]!.actions[0]).toEqual({ type: "terminate-tls" });
    const h = plan(
      https(
        edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")], {
          tls_termination: { enabled: true, terminate_at: "edge", min_version: null },
        }),
      ),
    );
    expect(h.endpoints[0]!.traffic_policy.on_tcp_connect).toBeUndefined();
  });

  it("TLS passed through (terminate_at upstream) gets no terminate-tls", () => {
    const p = plan(
      tls(
        tlsEdge({
          backend: backendModule("bkdtg_app"),
          tls_termination: { enabled: true, terminate_at: "upstream", min_version: null },
        }),
      ),
    );
    expect(p.endpoints[0]!.traffic_policy).toEqual({
      on_tcp_connect: [
        {
          name: "edgtls_1",
          actions: [{ type: "forward-internal", config: { url: "tls://service-app.internal:443" } }],
        },
      ],
    });
  });

  it("TCP forwards to tcp://<host>.internal:<the public port>, per hostport", () => {
    const p = plan(
      tcp(tcpEdge({ hostports: ["1.tcp.ngrok.io:12345", "2.tcp.ngrok.io:2222"], backend: backendModule("bkdtg_app") })),
    );
    expect(p.endpoints.map((e) => e.traffic_policy.on_tcp_connect![0]!.actions)).toEqual([
      [{ type: "forward-internal", config: { url: "tcp://service-app.internal:12345" } }],
      [{ type: "forward-internal", config: { url: "tcp://service-app.internal:2222" } }],
    ]);
  });

  it.each([
    ["an HTTP response backend", { backend: backendModule("bkdhr_1") }, "backend"],
    [
      "a policy with on_http_request rules",
      {
        backend: backendModule("bkdtg_app"),
        traffic_policy: { enabled: true, value: '{"on_http_request":[{"actions":[{"type":"deny"}]}]}' },
      },
      "traffic_policy",
    ],
    ["no backend", {}, "backend"],
    ["the legacy policy", { backend: backendModule("bkdtg_app"), policy: { enabled: true } }, "policy"],
    ["a --map URL of another scheme", { backend: backendModule("bkdwd_1") }, "backend"],
  ])("TCP with %s: listed, the whole endpoint denies", (_n, extra, item) => {
    const p = plan(
      tcp(tcpEdge(extra)),
      [APP, httpResponse("bkdhr_1", 200, "x")],
      new Map([["bkdwd_1", "https://w.internal"]]),
    );
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([[null, item]]);
    expect(p.endpoints[0]!.traffic_policy).toEqual({
      on_tcp_connect: [{ name: "edgtcp_1", actions: [{ type: "deny" }] }],
    });
  });
});

describe("the validator", () => {
  it("a planned policy it refuses is an internal error naming the problem", () => {
    const bad: Plan = {
      edge_id: "edghts_1",
      endpoints: [{ url: "https://a.example.com", description: "", metadata: "", traffic_policy: null as never }],
      not_migrated: [],
      warnings: [],
    };
    expect(() => assertPlansValid([bad])).toThrow(InternalError);
    expect(() => assertPlansValid([bad])).toThrow(/https:\/\/a\.example\.com.*must be an object/);
    expect(() => assertPlansValid([plan(oneRoute({}))])).not.toThrow();
  });
});

// `edgectl export`: (a) the command line → options or refusal (test/commands/parse.ts); (b) the
// whole CLI in-process (test/helpers/app.ts) against a fault server scripted with an account:
// every edge and backend, all pages, as one JSON document, secrets masked. Against the emulator
// as a process (its closing request count) in e2e/export-emulator.test.ts.
import { describe, expect, it } from "vitest";
import { exportCommand } from "../../../src/commands/export/export.js";
import { parse, refusal } from "../parse.js";
import { apiError, json } from "../../helpers/fault-server.js";
import { edge, staticBackend } from "../../migrate/fixtures.js";
import { appSandbox } from "../../helpers/app.js";
import { parseJsonError } from "../../e2e/support.js";
import { useExportSuite } from "../../e2e/export.support.js";

describe("export argv → options", () => {
  it.each([
    [[], { showSecret: false }],
    [["--show-secret"], { showSecret: true }],
  ])("reads %j", async (argv, options) => {
    expect((await parse(exportCommand, argv)).options).toEqual(options);
  });

  it.each([[["edghts_1"], "error: too many arguments for 'export'. Expected 0 arguments but got 1."]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(exportCommand, argv)).message).toBe(message);
    },
  );
});

describe("the whole CLI in-process", () => {
  const { suite, routeGets, E1, scriptAccount } = useExportSuite(appSandbox);

  describe("edgectl export", () => {
    it("shows the secrets with --show-secret, and prints JSON even when -o table is asked for", async () => {
      scriptAccount();
      const r = await suite.run(["export", "--show-secret", "-o", "table"]);
      expect(r.exitCode).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.https_edges[0].routes[0].webhook_verification.secret).toBe("whsec_one");
      expect(doc.tls_edges[0].traffic_policy.value).toContain('"client_secret":"cs_tls"');
    });

    it("follows more than 100 edges across pages", async () => {
      const url = suite.server.url;
      const many = Array.from({ length: 150 }, (_, i) => edge([], { id: `edghts_${i}` }));
      routeGets({
        "/edges/https?limit=100": json(200, {
          https_edges: many.slice(0, 100),
          next_page_uri: `${url}/edges/https?before_id=edghts_99&limit=100`,
        }),
        "/edges/https?before_id=edghts_99&limit=100": json(200, { https_edges: many.slice(100), next_page_uri: null }),
        "/edges/tls?limit=100": json(200, { tls_edges: [], next_page_uri: null }),
        "/edges/tcp?limit=100": json(200, { tcp_edges: [], next_page_uri: null }),
        ...Object.fromEntries(
          ["failover", "tunnel_group", "http_response", "weighted", "static"].map((k) => [
            `/backends/${k}?limit=100`,
            json(200, { backends: [], next_page_uri: null }),
          ]),
        ),
      });
      const r = await suite.run(["export"]);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).https_edges).toHaveLength(150);
    });

    it("asks a next_page_uri on another origin of the base URL (its query alone): the key goes nowhere else", async () => {
      routeGets({
        "/edges/https?limit=100": json(200, {
          https_edges: [E1],
          next_page_uri: "https://elsewhere.example/edges/https?before_id=x",
        }),
        "/edges/https?before_id=x": json(200, { https_edges: [], next_page_uri: null }),
        ...Object.fromEntries(
          ["tls", "tcp"].map((k) => [`/edges/${k}?limit=100`, json(200, { [`${k}_edges`]: [], next_page_uri: null })]),
        ),
        ...Object.fromEntries(
          ["failover", "tunnel_group", "http_response", "weighted", "static"].map((k) => [
            `/backends/${k}?limit=100`,
            json(200, { backends: [], next_page_uri: null }),
          ]),
        ),
      });
      const r = await suite.run(["export"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(suite.server.requests.map((q) => q.path)).toContain("/edges/https?before_id=x");
    });

    it.each([
      ["ERR_NGROK_7008", 400, /retired Edges on 2025-12-31.*`edgectl migrate edge --all`/],
      ["ERR_NGROK_7196", 403, /read-only .*`edgectl migrate edge --all --apply`/],
    ] as const)("explains %s in plain words and exits 1", async (code, status, words) => {
      suite.server.script(apiError(status, "Edges are deprecated.", code));
      const r = await suite.run(["export", "-o", "json"]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      const { error } = parseJsonError(r.stderr);
      expect(error).toMatchObject({ kind: "api", error_code: code, status_code: status });
      expect(error.message).toMatch(words);
    });
  });
});

describe("the whole CLI in-process: every list to its last page", () => {
  const { suite, E2, TCP1, scriptAccount } = useExportSuite(appSandbox);

  describe("edgectl export", () => {
    it("reads every list to its last page with GETs only and prints one document, secrets masked", async () => {
      scriptAccount();
      const r = await suite.run(["export"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
        "GET /edges/https?limit=100",
        "GET /edges/https?before_id=edghts_1&limit=100",
        "GET /edges/tls?limit=100",
        "GET /edges/tcp?limit=100",
        "GET /backends/failover?limit=100",
        "GET /backends/failover?before_id=bkdfo_1&limit=100",
        "GET /backends/tunnel_group?limit=100",
        "GET /backends/http_response?limit=100",
        "GET /backends/weighted?limit=100",
        "GET /backends/static?limit=100",
      ]);
      const doc = JSON.parse(r.stdout);
      expect(Object.keys(doc)).toEqual(["https_edges", "tls_edges", "tcp_edges", "backends"]);
      expect(Object.keys(doc.backends)).toEqual(["failover", "tunnel_group", "http_response", "weighted", "static"]);
      expect(doc.https_edges.map((e: { id: string }) => e.id)).toEqual(["edghts_1", "edghts_2"]);
      expect(doc.backends.failover.map((b: { id: string }) => b.id)).toEqual(["bkdfo_1", "bkdfo_0"]);
      expect(doc.https_edges[0].routes[0].webhook_verification).toEqual({
        enabled: true,
        provider: "github",
        secret: "********",
      });
      expect(r.stdout).not.toContain("whsec_one");
      expect(JSON.parse(doc.tls_edges[0].traffic_policy.value).on_tcp_connect[0].actions[0].config.client_secret).toBe(
        "********",
      );
      expect(r.stdout).not.toContain("cs_tls");
      expect(JSON.stringify(doc.tcp_edges[0])).toBe(JSON.stringify(TCP1));
      // Everything else exactly as the API returned it, key order included.
      expect(JSON.stringify(doc.https_edges[1])).toBe(JSON.stringify(E2));
      expect(JSON.stringify(doc.backends.static[0])).toBe(JSON.stringify(staticBackend("bkdsc_1", "10.0.0.1:443")));
    });
  });
});

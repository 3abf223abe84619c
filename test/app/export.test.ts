// `edgectl export`: every edge and backend, all pages, as one JSON document.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/export.test.ts.
import { describe, expect, it } from "vitest";
import { apiError, json } from "../helpers/fault-server.js";
import { edge } from "../migrate/fixtures.js";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError } from "../e2e/support.js";
import { useExportSuite } from "../e2e/export.support.js";

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
    ["ERR_NGROK_7008", 400, /no longer has access/],
    ["ERR_NGROK_7196", 403, /can still be read but not created/],
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

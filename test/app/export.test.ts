// `edgectl export`: every edge and backend, all pages, as one JSON document.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/export.test.ts.
import { describe, expect, it } from "vitest";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, httpResponse, route, staticBackend, tunnelGroup, weighted } from "../migrate/fixtures.js";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError, useFaultServer } from "../e2e/support.js";

const suite = useFaultServer("key_export_1234567890", appSandbox);

/** Answers GETs by path (query included); anything else is a 404. */
function routeGets(answers: Record<string, Reply>): void {
  suite.server.fallback = (req) => (req.method === "GET" && answers[req.path]) || apiError(404, `nothing at ${req.path}`);
}

const wv = (secret: string) => ({ webhook_verification: { enabled: true, provider: "github", secret } });
const E1 = edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_1", wv("whsec_one"))], { id: "edghts_1" });
const E2 = edge([route("edghtsrt_2", "exact_path", "/x", "bkdhr_1")], { id: "edghts_2" });

function scriptAccount(): void {
  const url = suite.server.url;
  routeGets({
    "/edges/https?limit=100": json(200, { https_edges: [E1], uri: `${url}/edges/https`, next_page_uri: `${url}/edges/https?before_id=edghts_1&limit=100` }),
    "/edges/https?before_id=edghts_1&limit=100": json(200, { https_edges: [E2], uri: `${url}/edges/https`, next_page_uri: null }),
    "/backends/failover?limit=100": json(200, { backends: [failover("bkdfo_1", ["bkdtg_1"])], uri: "", next_page_uri: "/backends/failover?before_id=bkdfo_1&limit=100" }),
    "/backends/failover?before_id=bkdfo_1&limit=100": json(200, { backends: [failover("bkdfo_0", ["bkdhr_1"])], uri: "", next_page_uri: null }),
    "/backends/tunnel_group?limit=100": json(200, { backends: [tunnelGroup("bkdtg_1", { service: "app" })], uri: "", next_page_uri: null }),
    "/backends/http_response?limit=100": json(200, { backends: [httpResponse("bkdhr_1", 404, "no")], uri: "", next_page_uri: null }),
    "/backends/weighted?limit=100": json(200, { backends: [weighted("bkdwd_1", { bkdtg_1: 1 })], uri: "", next_page_uri: null }),
    "/backends/static?limit=100": json(200, { backends: [staticBackend("bkdsc_1", "10.0.0.1:443")], uri: "", next_page_uri: null }),
  });
}

describe("edgectl export", () => {
  it("shows the secrets with --show-secret, and prints JSON even when -o table is asked for", async () => {
    scriptAccount();
    const r = await suite.run(["export", "--show-secret", "-o", "table"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).https_edges[0].routes[0].webhook_verification.secret).toBe("whsec_one");
  });

  it("follows more than 100 edges across pages", async () => {
    const url = suite.server.url;
    const many = Array.from({ length: 150 }, (_, i) => edge([], { id: `edghts_${i}` }));
    routeGets({
      "/edges/https?limit=100": json(200, { https_edges: many.slice(0, 100), next_page_uri: `${url}/edges/https?before_id=edghts_99&limit=100` }),
      "/edges/https?before_id=edghts_99&limit=100": json(200, { https_edges: many.slice(100), next_page_uri: null }),
      ...Object.fromEntries(["failover", "tunnel_group", "http_response", "weighted", "static"].map((k) => [`/backends/${k}?limit=100`, json(200, { backends: [], next_page_uri: null })])),
    });
    const r = await suite.run(["export"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).https_edges).toHaveLength(150);
  });

  it("does not follow a next_page_uri to another origin with the key", async () => {
    routeGets({ "/edges/https?limit=100": json(200, { https_edges: [E1], next_page_uri: "https://elsewhere.example/edges/https?before_id=x" }) });
    const r = await suite.run(["export"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/not following it with the key/);
    expect(suite.server.requests).toHaveLength(1);
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

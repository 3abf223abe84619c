// `edgectl export`: every edge and backend, all pages, as one JSON document.
// Here the real bin runs one case of each kind; the rest run in-process in app/export.test.ts.
import { describe, expect, it } from "vitest";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, httpResponse, route, staticBackend, tunnelGroup, weighted } from "../migrate/fixtures.js";
import { useFaultServer } from "./support.js";

const suite = useFaultServer("key_export_1234567890");

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
  it("reads every list to its last page with GETs only and prints one document, secrets masked", async () => {
    scriptAccount();
    const r = await suite.run(["export"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      "GET /edges/https?limit=100",
      "GET /edges/https?before_id=edghts_1&limit=100",
      "GET /backends/failover?limit=100",
      "GET /backends/failover?before_id=bkdfo_1&limit=100",
      "GET /backends/tunnel_group?limit=100",
      "GET /backends/http_response?limit=100",
      "GET /backends/weighted?limit=100",
      "GET /backends/static?limit=100",
    ]);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["https_edges", "backends"]);
    expect(Object.keys(doc.backends)).toEqual(["failover", "tunnel_group", "http_response", "weighted", "static"]);
    expect(doc.https_edges.map((e: { id: string }) => e.id)).toEqual(["edghts_1", "edghts_2"]);
    expect(doc.backends.failover.map((b: { id: string }) => b.id)).toEqual(["bkdfo_1", "bkdfo_0"]);
    expect(doc.https_edges[0].routes[0].webhook_verification).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(r.stdout).not.toContain("whsec_one");
    // Everything else exactly as the API returned it, key order included.
    expect(JSON.stringify(doc.https_edges[1])).toBe(JSON.stringify(E2));
    expect(JSON.stringify(doc.backends.static[0])).toBe(JSON.stringify(staticBackend("bkdsc_1", "10.0.0.1:443")));
  });
});

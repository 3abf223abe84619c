// `edgectl export`: every edge and backend, all pages, as one JSON document.
// Here the real bin runs one case of each kind; the rest run in-process in app/export.test.ts.
import { describe, expect, it } from "vitest";
import { staticBackend } from "../migrate/fixtures.js";
import { useExportSuite } from "./export.support.js";

const { suite, E2, TCP1, scriptAccount } = useExportSuite();

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

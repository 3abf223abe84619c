// The export tests' fault server answering the account's lists (the CLI in-process in
// test/commands/export/export.test.ts).
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, httpResponse, route, staticBackend, tunnelGroup, weighted } from "../migrate/fixtures.js";
import { sandbox } from "../helpers/cli.js";
import { useFaultServer, type Sandbox } from "./support.js";

export function useExportSuite(makeSandbox: () => Sandbox = sandbox) {
  const suite = useFaultServer("key_export_1234567890", makeSandbox);

  /** Answers GETs by path (query included); anything else is a 404. */
  function routeGets(answers: Record<string, Reply>): void {
    suite.server.fallback = (req) =>
      (req.method === "GET" && answers[req.path]) || apiError(404, `nothing at ${req.path}`);
  }

  const wv = (secret: string) => ({ webhook_verification: { enabled: true, provider: "github", secret } });
  const E1 = edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_1", wv("whsec_one"))], { id: "edghts_1" });
  const E2 = edge([route("edghtsrt_2", "exact_path", "/x", "bkdhr_1")], { id: "edghts_2" });

  /** A TLS edge whose policy holds an OAuth client secret, and a bare TCP edge. */
  const TLS1 = {
    id: "edgtls_1",
    created_at: "2025-06-01T00:00:00Z",
    uri: "https://api.ngrok.com/edges/tls/edgtls_1",
    hostports: ["db.example.com:443"],
    backend: { enabled: true, backend: { id: "bkdtg_1", uri: "https://api.ngrok.com/backends/tunnel_group/bkdtg_1" } },
    ip_restriction: null,
    mutual_tls: null,
    tls_termination: null,
    traffic_policy: {
      enabled: true,
      value:
        '{"on_tcp_connect":[{"actions":[{"type":"oauth","config":{"provider":"google","client_secret":"cs_tls"}}]}]}',
    },
    policy: null,
  };
  const TCP1 = {
    id: "edgtcp_1",
    created_at: "2025-06-01T00:00:00Z",
    uri: "https://api.ngrok.com/edges/tcp/edgtcp_1",
    hostports: null,
    backend: null,
    ip_restriction: null,
    traffic_policy: null,
    policy: null,
  };

  function scriptAccount(): void {
    const url = suite.server.url;
    routeGets({
      "/edges/https?limit=100": json(200, {
        https_edges: [E1],
        uri: `${url}/edges/https`,
        next_page_uri: `${url}/edges/https?before_id=edghts_1&limit=100`,
      }),
      "/edges/https?before_id=edghts_1&limit=100": json(200, {
        https_edges: [E2],
        uri: `${url}/edges/https`,
        next_page_uri: null,
      }),
      "/edges/tls?limit=100": json(200, { tls_edges: [TLS1], uri: `${url}/edges/tls`, next_page_uri: null }),
      "/edges/tcp?limit=100": json(200, { tcp_edges: [TCP1], uri: `${url}/edges/tcp`, next_page_uri: null }),
      "/backends/failover?limit=100": json(200, {
        backends: [failover("bkdfo_1", ["bkdtg_1"])],
        uri: "",
        next_page_uri: "/backends/failover?before_id=bkdfo_1&limit=100",
      }),
      "/backends/failover?before_id=bkdfo_1&limit=100": json(200, {
        backends: [failover("bkdfo_0", ["bkdhr_1"])],
        uri: "",
        next_page_uri: null,
      }),
      "/backends/tunnel_group?limit=100": json(200, {
        backends: [tunnelGroup("bkdtg_1", { service: "app" })],
        uri: "",
        next_page_uri: null,
      }),
      "/backends/http_response?limit=100": json(200, {
        backends: [httpResponse("bkdhr_1", 404, "no")],
        uri: "",
        next_page_uri: null,
      }),
      "/backends/weighted?limit=100": json(200, {
        backends: [weighted("bkdwd_1", { bkdtg_1: 1 })],
        uri: "",
        next_page_uri: null,
      }),
      "/backends/static?limit=100": json(200, {
        backends: [staticBackend("bkdsc_1", "10.0.0.1:443")],
        uri: "",
        next_page_uri: null,
      }),
    });
  }
  return { suite, routeGets, wv, E1, E2, TLS1, TCP1, scriptAccount };
}

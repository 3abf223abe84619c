// The migrate tests' fault server scripted with an edge and its backends, and the policy their
// endpoints should get (the CLI in-process in test/commands/migrate/edge.test.ts).
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import {
  backendModule,
  edge,
  failover,
  httpResponse,
  route,
  tcpEdge,
  tlsEdge,
  tunnelGroup,
  weighted,
} from "../migrate/fixtures.js";
import { sandbox } from "../helpers/cli.js";
import { useFaultServer, type Sandbox } from "./support.js";

export function useMigrateSuite(makeSandbox: () => Sandbox = sandbox) {
  const suite = useFaultServer("key_migrate_1234567890", makeSandbox);
  const SECRET = "whsec_real_1234";

  const EDGE = edge(
    [
      route("edghtsrt_hook", "exact_path", "/hooks/github", "bkdtg_app", {
        webhook_verification: { enabled: true, provider: "GitHub", secret: SECRET },
      }),
      route("edghtsrt_root", "path_prefix", "/", "bkdfo_main"),
    ],
    { hostports: ["shop.example.com:443"] },
  );
  const BACKENDS: Record<string, object> = {
    "/backends/tunnel_group/bkdtg_app": tunnelGroup("bkdtg_app", { service: "app" }),
    "/backends/failover/bkdfo_main": failover("bkdfo_main", ["bkdtg_app", "bkdhr_down"]),
    "/backends/http_response/bkdhr_down": httpResponse("bkdhr_down", 503, "down for maintenance"),
    "/backends/weighted/bkdwd_w": weighted("bkdwd_w", { bkdtg_app: 1 }),
  };
  const OTHER_EDGES: Record<string, object> = {
    "/edges/tls/edgtls_1": tlsEdge({
      hostports: ["db.example.com:443"],
      backend: backendModule("bkdtg_app"),
      tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.3" },
    }),
    "/edges/tcp/edgtcp_1": tcpEdge({ hostports: ["1.tcp.ngrok.io:12345"], backend: backendModule("bkdtg_app") }),
  };

  let created = 0;
  /**
   * GETs answered from the edge, OTHER_EDGES and BACKENDS (and their lists, one page each);
   * GET /endpoints lists `existing`; POST /endpoints creates, failing from the `failAt`-th one.
   */
  function scriptApi(e: object = EDGE, opts: { failAt?: number; failWith?: Reply; existing?: object[] } = {}): void {
    created = 0;
    const lists: Record<string, [string, object[]]> = {
      "/edges/https": ["https_edges", [e]],
      "/edges/tls": ["tls_edges", [OTHER_EDGES["/edges/tls/edgtls_1"]!]],
      "/edges/tcp": ["tcp_edges", [OTHER_EDGES["/edges/tcp/edgtcp_1"]!]],
      "/endpoints": ["endpoints", opts.existing ?? []],
    };
    for (const kind of ["failover", "tunnel_group", "http_response", "weighted", "static"])
      lists[`/backends/${kind}`] = [
        "backends",
        Object.entries(BACKENDS)
          .filter(([path]) => path.startsWith(`/backends/${kind}/`))
          .map(([, b]) => b),
      ];
    suite.server.fallback = (req): Reply => {
      const [path, query] = req.path.split("?");
      if (req.method === "GET" && query === "limit=100" && lists[path!]) {
        const [key, items] = lists[path!]!;
        return json(200, { [key]: items, uri: `${suite.server.url}${path}`, next_page_uri: null });
      }
      if (req.method === "GET" && req.path === "/edges/https/edghts_1") return json(200, e);
      if (req.method === "GET" && OTHER_EDGES[req.path]) return json(200, OTHER_EDGES[req.path]!);
      if (req.method === "GET" && BACKENDS[req.path]) return json(200, BACKENDS[req.path]!);
      if (req.method === "POST" && req.path === "/endpoints") {
        created++;
        if (opts.failAt !== undefined && created >= opts.failAt)
          return opts.failWith ?? apiError(400, "The endpoint URL is already in use.", "ERR_NGROK_18008");
        const body = JSON.parse(req.body) as Record<string, unknown>;
        return json(201, {
          id: `ep_${created}`,
          type: "cloud",
          url: body.url,
          traffic_policy: body.traffic_policy,
          description: body.description,
          metadata: body.metadata,
          bindings: ["public"],
          created_at: "2026-01-02T00:00:00Z",
          updated_at: "2026-01-02T00:00:00Z",
          uri: `${suite.server.url}/endpoints/ep_${created}`,
        });
      }
      return apiError(404, `nothing at ${req.method} ${req.path}`);
    };
  }

  const requestLines = () => suite.server.requests.map((q) => `${q.method} ${q.path}`);
  const READS = [
    "GET /edges/https/edghts_1",
    "GET /backends/tunnel_group/bkdtg_app",
    "GET /backends/failover/bkdfo_main",
    "GET /backends/http_response/bkdhr_down",
  ];

  const EXPECTED_POLICY = (secret: string) => ({
    on_http_request: [
      {
        name: "edghtsrt_hook",
        expressions: ['req.url.path == "/hooks/github"'],
        actions: [
          { type: "verify-webhook", config: { provider: "github", secret } },
          { type: "forward-internal", config: { url: "https://service-app.internal" } },
        ],
      },
      {
        name: "edghtsrt_root",
        actions: [
          { type: "forward-internal", config: { url: "https://service-app.internal", on_error: "continue" } },
          { type: "custom-response", config: { status_code: 503, body: "down for maintenance" } },
        ],
      },
    ],
  });
  return { suite, SECRET, EDGE, BACKENDS, scriptApi, requestLines, READS, EXPECTED_POLICY, created: () => created };
}

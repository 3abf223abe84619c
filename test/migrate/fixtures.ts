// Edges, routes and backends as the API returns them, for the planner's tests and the e2e suites.
import type { Backend } from "../../src/api/backends.js";
import type { AnyEdge, HttpsEdge, HttpsEdgeRoute, TcpEdge, TlsEdge } from "../../src/api/edges.js";

const MODULES_OFF = {
  ip_restriction: null,
  circuit_breaker: null,
  compression: null,
  request_headers: null,
  response_headers: null,
  webhook_verification: null,
  oauth: null,
  saml: null,
  oidc: null,
  websocket_tcp_converter: null,
  user_agent_filter: null,
  traffic_policy: null,
  policy: null,
};

export function route(
  id: string,
  match_type: "exact_path" | "path_prefix",
  match: string,
  backendId: string | null,
  extra: Record<string, unknown> = {},
): HttpsEdgeRoute {
  return {
    edge_id: "edghts_1",
    id,
    created_at: "2025-06-01T00:00:00Z",
    match_type,
    match,
    uri: `https://api.ngrok.com/edges/https/edghts_1/routes/${id}`,
    description: "",
    metadata: "",
    backend:
      backendId === null
        ? null
        : { enabled: true, backend: { id: backendId, uri: `https://api.ngrok.com/backends/x/${backendId}` } },
    ...MODULES_OFF,
    ...extra,
  } as HttpsEdgeRoute;
}

export function edge(routes: HttpsEdgeRoute[], extra: Record<string, unknown> = {}): HttpsEdge {
  return {
    id: "edghts_1",
    description: "shop",
    metadata: '{"team":"web"}',
    created_at: "2025-06-01T00:00:00Z",
    uri: "https://api.ngrok.com/edges/https/edghts_1",
    hostports: ["shop.example.com:443"],
    mutual_tls: null,
    tls_termination: null,
    routes,
    ...extra,
  } as HttpsEdge;
}

const common = (id: string, kind: string) => ({
  id,
  uri: `https://api.ngrok.com/backends/${kind}/${id}`,
  created_at: "2025-06-01T00:00:00Z",
  description: "",
  metadata: "",
});

export const tunnelGroup = (id: string, labels: Record<string, string>) => ({
  ...common(id, "tunnel_group"),
  labels,
  tunnels: [],
});
export const httpResponse = (
  id: string,
  status_code: number,
  body: string,
  headers: Record<string, string> | null = null,
) => ({ ...common(id, "http_response"), body, headers, status_code });
export const failover = (id: string, backends: string[]) => ({ ...common(id, "failover"), backends });
export const weighted = (id: string, backends: Record<string, number>) => ({ ...common(id, "weighted"), backends });
export const staticBackend = (id: string, address: string) => ({
  ...common(id, "static"),
  address,
  tls: { enabled: true },
});

/** The map the planner takes, from API objects keyed by their id's kind. */
export function backendMap(...objects: { id: string }[]): Map<string, Backend> {
  const kinds: Record<string, Backend["kind"]> = {
    bkdfo_: "failover",
    bkdtg_: "tunnel_group",
    bkdhr_: "http_response",
    bkdwd_: "weighted",
    bkdsc_: "static",
  };
  return new Map(objects.map((o) => [o.id, { kind: kinds[o.id.slice(0, 6)]!, backend: o } as Backend]));
}

export function tlsEdge(extra: Record<string, unknown> = {}): TlsEdge {
  return {
    id: "edgtls_1",
    description: "db",
    metadata: "",
    created_at: "2025-06-01T00:00:00Z",
    uri: "https://api.ngrok.com/edges/tls/edgtls_1",
    hostports: ["db.example.com:443"],
    backend: null,
    ip_restriction: null,
    mutual_tls: null,
    tls_termination: null,
    traffic_policy: null,
    policy: null,
    ...extra,
  } as TlsEdge;
}

export function tcpEdge(extra: Record<string, unknown> = {}): TcpEdge {
  return {
    id: "edgtcp_1",
    description: "ssh",
    metadata: "",
    created_at: "2025-06-01T00:00:00Z",
    uri: "https://api.ngrok.com/edges/tcp/edgtcp_1",
    hostports: ["1.tcp.ngrok.io:12345"],
    backend: null,
    ip_restriction: null,
    traffic_policy: null,
    policy: null,
    ...extra,
  } as TcpEdge;
}

export const backendModule = (id: string) => ({
  enabled: true,
  backend: { id, uri: `https://api.ngrok.com/backends/x/${id}` },
});

export const https = (e: HttpsEdge): AnyEdge => ({ kind: "https", edge: e });
export const tls = (e: TlsEdge): AnyEdge => ({ kind: "tls", edge: e });
export const tcp = (e: TcpEdge): AnyEdge => ({ kind: "tcp", edge: e });

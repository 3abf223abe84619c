// HTTPS, TLS and TCP edges (retired by ngrok on 2025-12-31; still readable on read-only
// accounts). HTTPS routes and their modules come inside their edge: no call lists routes.
import * as z from "zod/mini";
import type { ApiClient } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";
import { OTHER_ROUTE_MODULES } from "../api-data/route-modules.js";

/** A route module: null, or an object with `enabled` (absent means true). */
const Module = z.nullable(z.optional(z.looseObject({ enabled: z.optional(z.nullable(z.boolean())) })));

/** A `backend` module: a route's, or a TLS or TCP edge's. */
const BackendModule = z.nullable(
  z.optional(
    z.looseObject({
      enabled: z.optional(z.nullable(z.boolean())),
      backend: z.nullable(z.optional(z.looseObject({ id: z.string() }))),
    }),
  ),
);

export const HttpsEdgeRoute = z.looseObject({
  id: z.string(),
  match_type: z.string(),
  match: z.string(),
  backend: BackendModule,
  webhook_verification: z.nullable(
    z.optional(
      z.looseObject({
        enabled: z.optional(z.nullable(z.boolean())),
        provider: z.string(),
        secret: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
  ...(Object.fromEntries(OTHER_ROUTE_MODULES.map((m) => [m, Module])) as Record<
    (typeof OTHER_ROUTE_MODULES)[number],
    typeof Module
  >),
});
export type HttpsEdgeRoute = z.infer<typeof HttpsEdgeRoute>;

const edgeBase = {
  id: z.string(),
  description: z.optional(z.string()),
  metadata: z.optional(z.string()),
  hostports: z.nullable(z.optional(z.array(z.string()))),
};

export const HttpsEdge = z.looseObject({
  ...edgeBase,
  mutual_tls: Module,
  tls_termination: Module,
  routes: z.nullable(z.optional(z.array(HttpsEdgeRoute))),
});
export type HttpsEdge = z.infer<typeof HttpsEdge>;

/** TLS edges (edgtls_): one backend, IP restriction, mutual TLS, TLS termination, a policy. */
export const TlsEdge = z.looseObject({
  ...edgeBase,
  backend: BackendModule,
  ip_restriction: Module,
  mutual_tls: Module,
  tls_termination: Module,
  traffic_policy: Module,
});
export type TlsEdge = z.infer<typeof TlsEdge>;

/** TCP edges (edgtcp_): one backend, IP restriction, a policy. */
export const TcpEdge = z.looseObject({
  ...edgeBase,
  backend: BackendModule,
  ip_restriction: Module,
  traffic_policy: Module,
});
export type TcpEdge = z.infer<typeof TcpEdge>;

export const EDGE_KINDS = ["https", "tls", "tcp"] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** An edge with the kind it was read as. */
export type AnyEdge =
  { kind: "https"; edge: HttpsEdge } | { kind: "tls"; edge: TlsEdge } | { kind: "tcp"; edge: TcpEdge };

const EDGE_PREFIXES: Record<string, EdgeKind> = { edghts_: "https", edgtls_: "tls", edgtcp_: "tcp" };

/** The kind an edge id names by its prefix (edghts_, edgtls_, edgtcp_), or undefined. */
export function edgeKindOf(id: string): EdgeKind | undefined {
  return EDGE_PREFIXES[id.slice(0, 7)];
}

const EDGE_SCHEMAS = { https: HttpsEdge, tls: TlsEdge, tcp: TcpEdge };

export const edgePath = (kind: EdgeKind, id?: string) =>
  id === undefined ? `/edges/${kind}` : `/edges/${kind}/${encodeURIComponent(id)}`;

export async function getEdge(client: ApiClient, kind: EdgeKind, id: string): Promise<AnyEdge> {
  const edge = await client.requestJson("GET", edgePath(kind, id), schemaParser(EDGE_SCHEMAS[kind]));
  return { kind, edge } as AnyEdge;
}

/** Every edge of one kind, all pages (list key `<kind>_edges`), pages of 100; `onPage` hears each page's size. */
export async function listAllEdges(
  client: ApiClient,
  kind: EdgeKind,
  onPage?: (count: number) => void,
): Promise<AnyEdge[]> {
  const key = `${kind}_edges`;
  const list = z.looseObject({ [key]: z.array(EDGE_SCHEMAS[kind]), next_page_uri: z.optional(z.nullable(z.string())) });
  const parse = pageOf(
    key,
    schemaParser(list) as (data: unknown) => { [k: string]: unknown[] } & { next_page_uri?: string | null },
  );
  const edges = await listPages(client, `${edgePath(kind)}?limit=100`, parse, {
    all: true,
    onPage: (items) => onPage?.(items.length),
  });
  return edges.map((edge) => ({ kind, edge }) as AnyEdge);
}

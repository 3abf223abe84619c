// HTTPS edges (retired by ngrok on 2025-12-31; still readable on read-only accounts). Routes
// and their modules come inside their edge: no call lists routes.
import * as z from "zod/mini";
import type { ApiClient } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";
import { OTHER_ROUTE_MODULES } from "./route-modules.js";

/** A route module: null, or an object with `enabled` (absent means true). */
const Module = z.nullable(z.optional(z.looseObject({ enabled: z.optional(z.nullable(z.boolean())) })));

export const HttpsEdgeRoute = z.looseObject({
  id: z.string(),
  match_type: z.string(),
  match: z.string(),
  backend: z.nullable(
    z.optional(
      z.looseObject({
        enabled: z.optional(z.nullable(z.boolean())),
        backend: z.nullable(z.optional(z.looseObject({ id: z.string() }))),
      }),
    ),
  ),
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

export const HttpsEdge = z.looseObject({
  id: z.string(),
  description: z.optional(z.string()),
  metadata: z.optional(z.string()),
  hostports: z.nullable(z.optional(z.array(z.string()))),
  mutual_tls: Module,
  routes: z.nullable(z.optional(z.array(HttpsEdgeRoute))),
});
export type HttpsEdge = z.infer<typeof HttpsEdge>;

const HttpsEdgeList = z.looseObject({
  https_edges: z.array(HttpsEdge),
  next_page_uri: z.optional(z.nullable(z.string())),
});

const parseEdge = schemaParser(HttpsEdge) as (data: unknown) => HttpsEdge;
const parsePage = pageOf(
  "https_edges",
  schemaParser(HttpsEdgeList) as (data: unknown) => { https_edges: HttpsEdge[]; next_page_uri?: string | null },
);

export const httpsEdgePath = (id?: string) =>
  id === undefined ? "/edges/https" : `/edges/https/${encodeURIComponent(id)}`;

export function getHttpsEdge(client: ApiClient, id: string): Promise<HttpsEdge> {
  return client.requestJson("GET", httpsEdgePath(id), parseEdge);
}

/** Every HTTPS edge, all pages. */
export function listAllHttpsEdges(client: ApiClient): Promise<HttpsEdge[]> {
  return listPages(client, `${httpsEdgePath()}?limit=100`, parsePage);
}

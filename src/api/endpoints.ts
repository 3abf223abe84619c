// Cloud Endpoints: the replacement for Edges. A Traffic Policy goes in as text (JSON or YAML)
// and comes back as the text sent. Field names as ngrok's OpenAPI (EndpointCreate, EndpointUpdate).
import * as z from "zod/mini";
import type { ApiClient } from "./client.js";
import type { BatchRequestOptions } from "./failover.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";

// Agent and edge endpoints come in lists too: only id and url are sure to be there.
export const Endpoint = z.looseObject({
  id: z.string(),
  url: z.string(),
  type: z.optional(z.string()),
  description: z.optional(z.nullable(z.string())),
  metadata: z.optional(z.nullable(z.string())),
  traffic_policy: z.optional(z.nullable(z.string())),
  bindings: z.optional(z.nullable(z.array(z.string()))),
  pooling_enabled: z.optional(z.nullable(z.boolean())),
  created_at: z.optional(z.string()),
  updated_at: z.optional(z.string()),
  uri: z.optional(z.string()),
});
export type Endpoint = z.infer<typeof Endpoint>;

export type Binding = "public" | "internal";

export interface EndpointCreate {
  type: "cloud";
  url: string;
  traffic_policy: string;
  description?: string;
  metadata?: string;
  bindings?: Binding[];
  pooling_enabled?: boolean;
}

export interface EndpointUpdate {
  url?: string;
  traffic_policy?: string;
  description?: string;
  metadata?: string;
}

const EndpointList = z.looseObject({ endpoints: z.array(Endpoint), next_page_uri: z.optional(z.nullable(z.string())) });

export const endpointsPath = "/endpoints";
export const endpointPath = (id: string) => `${endpointsPath}/${encodeURIComponent(id)}`;

const parseEndpoint = schemaParser(Endpoint);
const parseListPage = pageOf<"endpoints", Endpoint>("endpoints", schemaParser(EndpointList));

export function createEndpoint(client: ApiClient, body: EndpointCreate): Promise<Endpoint> {
  return client.requestJson("POST", endpointsPath, parseEndpoint, {
    body,
    checkWith: "`edgectl endpoint list` (or `edgectl api GET /endpoints`)",
  });
}

export function getEndpoint(client: ApiClient, id: string, opts: BatchRequestOptions = {}): Promise<Endpoint> {
  return client.requestJson("GET", endpointPath(id), parseEndpoint, opts);
}

export function updateEndpoint(client: ApiClient, id: string, body: EndpointUpdate): Promise<Endpoint> {
  return client.requestJson("PATCH", endpointPath(id), parseEndpoint, { body });
}

export async function deleteEndpoint(client: ApiClient, id: string, opts: BatchRequestOptions = {}): Promise<void> {
  await client.request("DELETE", endpointPath(id), opts);
}

/** The first page (`limit` per page, else the API's default), or with `all` every page. */
export function listEndpoints(client: ApiClient, opts: { limit?: number; all: boolean }): Promise<Endpoint[]> {
  return listPages(client, opts.limit ? `${endpointsPath}?limit=${opts.limit}` : endpointsPath, parseListPage, {
    all: opts.all,
  });
}

/** Every endpoint, all pages. */
export function listAllEndpoints(client: ApiClient): Promise<Endpoint[]> {
  return listPages(client, `${endpointsPath}?limit=100`, parseListPage);
}

/** The binding a policy of this endpoint is checked for: internal when the API says so. */
export function bindingOf(endpoint: Endpoint): Binding {
  return endpoint.bindings?.includes("internal") ? "internal" : "public";
}

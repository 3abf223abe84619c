// Cloud Endpoints: the replacement for Edges. A Traffic Policy goes in as text (JSON or YAML)
// and comes back as the text sent. Field names as ngrok's OpenAPI (EndpointCreate, EndpointUpdate).
import type { ApiClient, BatchRequestOptions } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { shapeParser, type Infer, type Shape } from "./schema.js";

// Declared once, as shapes (like the Failover answers): the types and the zod schemas are
// derived, the schemas made only for an answer the plain check refuses, so a valid answer to
// `endpoint get` neither builds a schema nor loads zod.
// Agent and edge endpoints come in lists too: only id and url are sure to be there.
export const ENDPOINT = {
  object: {
    id: "string",
    url: "string",
    type: { optional: "string" },
    description: { optional: { nullable: "string" } },
    metadata: { optional: { nullable: "string" } },
    traffic_policy: { optional: { nullable: "string" } },
    bindings: { optional: { nullable: { array: "string" } } },
    pooling_enabled: { optional: { nullable: "boolean" } },
    created_at: { optional: "string" },
    updated_at: { optional: "string" },
    uri: { optional: "string" },
  },
} as const satisfies Shape;
export type Endpoint = Infer<typeof ENDPOINT>;

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

export const ENDPOINT_LIST = {
  object: { endpoints: { array: ENDPOINT }, next_page_uri: { optional: { nullable: "string" } } },
} as const satisfies Shape;

export const endpointsPath = "/endpoints";
export const endpointPath = (id: string) => `${endpointsPath}/${encodeURIComponent(id)}`;

const parseEndpoint = shapeParser(ENDPOINT);
const parseListPage = pageOf<"endpoints", Endpoint>("endpoints", shapeParser(ENDPOINT_LIST));

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

/**
 * The first page (`limit` per page, else the API's default), or with `all` every page; `more`
 * is called when the first page is not the last and `all` was not asked for.
 */
export function listEndpoints(
  client: ApiClient,
  opts: { limit?: number; all: boolean; more?: () => void },
): Promise<Endpoint[]> {
  return listPages(client, opts.limit ? `${endpointsPath}?limit=${opts.limit}` : endpointsPath, parseListPage, {
    all: opts.all,
    more: opts.more,
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

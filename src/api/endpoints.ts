// Cloud Endpoints: the replacement for Edges. A Traffic Policy goes in as text (JSON or YAML)
// and comes back as the text sent. Field names as ngrok's OpenAPI (EndpointCreate, EndpointUpdate).
import { ApiError } from "../errors.js";
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
  return namingTheHolder(client, body.url, undefined, () =>
    client.requestJson("POST", endpointsPath, parseEndpoint, {
      body,
      checkWith: "`edgectl endpoint list` (or `edgectl api GET /endpoints`)",
    }),
  );
}

export function getEndpoint(client: ApiClient, id: string, opts: BatchRequestOptions = {}): Promise<Endpoint> {
  return client.requestJson("GET", endpointPath(id), parseEndpoint, opts);
}

export function updateEndpoint(client: ApiClient, id: string, body: EndpointUpdate): Promise<Endpoint> {
  return namingTheHolder(client, body.url, id, () =>
    client.requestJson("PATCH", endpointPath(id), parseEndpoint, { body }),
  );
}

/** A cloud endpoint URL another endpoint has (the API's message does not say which). */
const URL_IN_USE = "ERR_NGROK_18009";
const DEFAULT_PORT: Record<string, string> = { "https:": "443", "http:": "80", "tls:": "443" };

/** Scheme, host and port, the port filled in (`https://A.example.com:443/` is `https://a.example.com`). */
function addressOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname.toLowerCase()}:${u.port || (DEFAULT_PORT[u.protocol] ?? "")}`;
  } catch {
    return url.toLowerCase().replace(/\/+$/, "");
  }
}

/**
 * A 409 for a URL in use names the endpoint that holds it, found by one listing: the API only
 * says "This account already has a cloud endpoint on this URL." If the listing fails or finds
 * none, the API's error stands as it was.
 */
async function namingTheHolder<T>(
  client: ApiClient,
  url: string | undefined,
  self: string | undefined,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof ApiError) || url === undefined || (err.errorCode ?? "") !== URL_IN_USE) throw err;
    let holders: Endpoint[];
    try {
      const wanted = addressOf(url);
      holders = (await listAllEndpoints(client)).filter((e) => e.id !== self && addressOf(e.url) === wanted);
    } catch {
      throw err;
    }
    const first = holders[0];
    if (first === undefined) throw err;
    const ids = holders.map((e) => e.id).join(", ");
    const said = err.message.replace(/[.\s]+$/, "");
    throw new ApiError(`${said}: ${ids} has ${first.url} (see \`edgectl endpoint get ${first.id}\`)`, {
      statusCode: err.statusCode,
      errorCode: err.errorCode,
      operationId: err.operationId,
      details: err.details,
      body: err.body,
    });
  }
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

// Failover backends: an ordered list of child backends.
import type { ApiClient, BatchRequestOptions } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { shapeParser, type Infer, type Shape } from "./schema.js";

// Declared once, as shapes: the types are derived from them, and so are the zod schemas, made
// only when an answer fails the plain check: a valid answer to `failover get` builds no zod
// schema (nor loads zod).
export const FAILOVER_BACKEND = {
  object: {
    id: "string",
    uri: "string",
    created_at: "string",
    description: { optional: "string" },
    metadata: { optional: "string" },
    backends: { array: "string" },
  },
} as const satisfies Shape;
export type FailoverBackend = Infer<typeof FAILOVER_BACKEND>;

export const FAILOVER_BACKEND_LIST = {
  object: {
    backends: { array: FAILOVER_BACKEND },
    uri: { optional: "string" },
    next_page_uri: { optional: { nullable: "string" } },
  },
} as const satisfies Shape;
export type FailoverBackendList = Infer<typeof FAILOVER_BACKEND_LIST>;

export interface FailoverCreate {
  backends: string[];
  description?: string;
  metadata?: string;
}
export type FailoverUpdate = Partial<FailoverCreate>;

const parseBackend = shapeParser(FAILOVER_BACKEND);
const parseList = shapeParser(FAILOVER_BACKEND_LIST);

export const failoverPath = (id?: string) =>
  id === undefined ? "/backends/failover" : `/backends/failover/${encodeURIComponent(id)}`;

export function createFailover(client: ApiClient, body: FailoverCreate): Promise<FailoverBackend> {
  // A backend may or may not have been created when the answer is lost: the list tells.
  return client.requestJson("POST", failoverPath(), parseBackend, { body, checkWith: "`edgectl failover list`" });
}

export function getFailover(client: ApiClient, id: string, opts: BatchRequestOptions = {}): Promise<FailoverBackend> {
  return client.requestJson("GET", failoverPath(id), parseBackend, opts);
}

export function updateFailover(client: ApiClient, id: string, body: FailoverUpdate): Promise<FailoverBackend> {
  return client.requestJson("PATCH", failoverPath(id), parseBackend, { body });
}

export async function deleteFailover(client: ApiClient, id: string, opts: BatchRequestOptions = {}): Promise<void> {
  await client.request("DELETE", failoverPath(id), opts);
}

const parseListPage = pageOf<"backends", FailoverBackend>("backends", parseList);

/**
 * The first page (`limit` per page, else the API's default), or with `all` every page; `more`
 * is called when the first page is not the last and `all` was not asked for.
 */
export function listFailover(
  client: ApiClient,
  opts: { limit?: number; all: boolean; more?: () => void },
): Promise<FailoverBackend[]> {
  return listPages(client, opts.limit ? `${failoverPath()}?limit=${opts.limit}` : failoverPath(), parseListPage, {
    all: opts.all,
    more: opts.more,
  });
}

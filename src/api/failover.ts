// Failover backends: an ordered list of child backends.
import * as z from "zod/mini";
import type { ApiClient, RequestOptions } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { lazySchema, shapedParser, type Shape } from "./schema.js";

// The schemas are made on first use, and only when an answer fails the plain check of the
// shapes below: a valid answer to `failover get` builds no zod schema (nor loads zod).
export const FailoverBackend = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    uri: z.string(),
    created_at: z.string(),
    description: z.optional(z.string()),
    metadata: z.optional(z.string()),
    backends: z.array(z.string()),
  }),
);
export type FailoverBackend = z.infer<ReturnType<typeof FailoverBackend>>;

export const FailoverBackendList = lazySchema(() =>
  z.looseObject({
    backends: z.array(FailoverBackend()),
    uri: z.optional(z.string()),
    next_page_uri: z.optional(z.nullable(z.string())),
  }),
);
export type FailoverBackendList = z.infer<ReturnType<typeof FailoverBackendList>>;

/** The schemas' shapes, as their plain checks see them (a test holds each equal to shapeOf its schema). */
export const FAILOVER_BACKEND_SHAPE = {
  object: {
    id: "string",
    uri: "string",
    created_at: "string",
    description: { optional: "string" },
    metadata: { optional: "string" },
    backends: { array: "string" },
  },
} as const satisfies Shape;
export const FAILOVER_BACKEND_LIST_SHAPE = {
  object: {
    backends: { array: FAILOVER_BACKEND_SHAPE },
    uri: { optional: "string" },
    next_page_uri: { optional: { nullable: "string" } },
  },
} as const satisfies Shape;

export interface FailoverCreate {
  backends: string[];
  description?: string;
  metadata?: string;
}
export type FailoverUpdate = Partial<FailoverCreate>;

const parseBackend = shapedParser(FailoverBackend, FAILOVER_BACKEND_SHAPE);
const parseList = shapedParser(FailoverBackendList, FAILOVER_BACKEND_LIST_SHAPE);

export const failoverPath = (id?: string) =>
  id === undefined ? "/backends/failover" : `/backends/failover/${encodeURIComponent(id)}`;

export function createFailover(client: ApiClient, body: FailoverCreate): Promise<FailoverBackend> {
  // A backend may or may not have been created when the answer is lost: the list tells.
  return client.requestJson("POST", failoverPath(), parseBackend, { body, checkWith: "`edgectl failover list`" });
}

/** What a batch passes for each of its requests. */
export type BatchRequestOptions = Pick<RequestOptions, "onRateLimited" | "rateLimitWaits">;

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

/** The first page (`limit` per page, else the API's default), or with `all` every page. */
export function listFailover(client: ApiClient, opts: { limit?: number; all: boolean }): Promise<FailoverBackend[]> {
  return listPages(client, opts.limit ? `${failoverPath()}?limit=${opts.limit}` : failoverPath(), parseListPage, {
    all: opts.all,
  });
}

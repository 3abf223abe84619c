// Failover backends: an ordered list of child backends.
import * as z from "zod/mini";
import type { ApiClient, RequestOptions } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";

export const FailoverBackend = z.looseObject({
  id: z.string(),
  uri: z.string(),
  created_at: z.string(),
  description: z.optional(z.string()),
  metadata: z.optional(z.string()),
  backends: z.array(z.string()),
});
export type FailoverBackend = z.infer<typeof FailoverBackend>;

export const FailoverBackendList = z.looseObject({
  backends: z.array(FailoverBackend),
  uri: z.optional(z.string()),
  next_page_uri: z.optional(z.nullable(z.string())),
});
export type FailoverBackendList = z.infer<typeof FailoverBackendList>;

export interface FailoverCreate {
  backends: string[];
  description?: string;
  metadata?: string;
}
export type FailoverUpdate = Partial<FailoverCreate>;

const parseBackend = schemaParser(FailoverBackend);
const parseList = schemaParser(FailoverBackendList);

export const failoverPath = (id?: string) => (id === undefined ? "/backends/failover" : `/backends/failover/${encodeURIComponent(id)}`);

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
  return listPages(client, opts.limit ? `${failoverPath()}?limit=${opts.limit}` : failoverPath(), parseListPage, { all: opts.all });
}

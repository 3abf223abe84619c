// The five backend kinds under /backends/<kind> (retired with Edges; still readable on
// read-only accounts). Objects are kept as the API returned them.
import * as z from "zod/mini";
import type { BackendKind } from "../api-data/ids.js";
import type { ApiClient } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";

export { BACKEND_KINDS, backendKindOf, type BackendKind } from "../api-data/ids.js";

const base = { id: z.string() };
export const BACKEND_SCHEMAS = {
  failover: z.looseObject({ ...base, backends: z.array(z.string()) }),
  tunnel_group: z.looseObject({ ...base, labels: z.nullable(z.optional(z.record(z.string(), z.string()))) }),
  http_response: z.looseObject({
    ...base,
    body: z.nullable(z.optional(z.string())),
    headers: z.nullable(z.optional(z.record(z.string(), z.string()))),
    status_code: z.number(),
  }),
  weighted: z.looseObject({ ...base, backends: z.nullable(z.optional(z.record(z.string(), z.number()))) }),
  static: z.looseObject({ ...base, address: z.optional(z.string()) }),
};

export type FailoverBackendObject = z.infer<(typeof BACKEND_SCHEMAS)["failover"]>;
export type TunnelGroupBackend = z.infer<(typeof BACKEND_SCHEMAS)["tunnel_group"]>;
export type HttpResponseBackend = z.infer<(typeof BACKEND_SCHEMAS)["http_response"]>;

/** A backend with the kind it was read as. */
export type Backend =
  | { kind: "failover"; backend: FailoverBackendObject }
  | { kind: "tunnel_group"; backend: TunnelGroupBackend }
  | { kind: "http_response"; backend: HttpResponseBackend }
  | { kind: "weighted"; backend: z.infer<(typeof BACKEND_SCHEMAS)["weighted"]> }
  | { kind: "static"; backend: z.infer<(typeof BACKEND_SCHEMAS)["static"]> };

export const backendPath = (kind: BackendKind, id?: string) =>
  id === undefined ? `/backends/${kind}` : `/backends/${kind}/${encodeURIComponent(id)}`;

export async function getBackend(client: ApiClient, kind: BackendKind, id: string): Promise<Backend> {
  const backend = await client.requestJson("GET", backendPath(kind, id), schemaParser(BACKEND_SCHEMAS[kind]));
  return { kind, backend } as Backend;
}

/** Every backend of one kind, all pages of 100, objects as returned; `onPage` hears each page's size. */
export function listAllBackends(
  client: ApiClient,
  kind: BackendKind,
  onPage?: (count: number) => void,
): Promise<Record<string, unknown>[]> {
  const list = z.looseObject({
    backends: z.array(BACKEND_SCHEMAS[kind]),
    next_page_uri: z.optional(z.nullable(z.string())),
  });
  return listPages(
    client,
    `${backendPath(kind)}?limit=100`,
    pageOf(
      "backends",
      schemaParser(list) as (data: unknown) => { backends: Record<string, unknown>[]; next_page_uri?: string | null },
    ),
    { all: true, onPage: (items) => onPage?.(items.length) },
  );
}

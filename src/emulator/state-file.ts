// The state file's format: one JSON object, one record a line (compact to write, still
// readable and diffable by a person). A file edited by hand or damaged is refused, never
// guessed at. Files of the first emulator (failover backends and a list of webhook
// modules keyed by edge and route id) still load: each module becomes a route of that id,
// matching every path, on an edge of that id.
import { z } from "zod";
import {
  BACKEND_PREFIX,
  OTHER_BACKEND_KINDS,
  DESCRIPTION_MAX_BYTES,
  ID_RULES,
  METADATA_MAX_BYTES,
  utf8Length,
} from "../api-data/ids.js";
import { isProvider } from "../api-data/providers.js";
import { StartError } from "./start-error.js";
import type {
  BackendRecord,
  EdgeRecord,
  EndpointRecord,
  FailoverRecord,
  OtherBackendKind,
  RouteRecord,
  TcpTlsEdgeRecord,
} from "./store.js";

const STATE_VERSION = 1;

export interface StateFile {
  failover_backends: FailoverRecord[];
  backends: Record<OtherBackendKind, BackendRecord[]>;
  https_edges: EdgeRecord[];
  endpoints: EndpointRecord[];
  /** Optional: files written before TLS and TCP edges have none. */
  tls_edges?: TcpTlsEdgeRecord[];
  tcp_edges?: TcpTlsEdgeRecord[];
}

export function serializeState(state: StateFile): string {
  const list = (records: unknown[]) =>
    records.length ? `[\n${records.map((r) => JSON.stringify(r)).join(",\n")}\n]` : "[]";
  const backends = OTHER_BACKEND_KINDS.map((k) => `${JSON.stringify(k)}:${list(state.backends[k])}`).join(",\n");
  return (
    `{"version":${STATE_VERSION},\n"failover_backends":${list(state.failover_backends)},\n` +
    `"backends":{\n${backends}},\n"https_edges":${list(state.https_edges)},\n"endpoints":${list(state.endpoints)}` +
    `,\n"tls_edges":${list(state.tls_edges ?? [])},\n"tcp_edges":${list(state.tcp_edges ?? [])}}\n`
  );
}

const time = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "is not an RFC 3339 time");
const desc = z.string().refine((s) => utf8Length(s) <= DESCRIPTION_MAX_BYTES, `is over ${DESCRIPTION_MAX_BYTES} bytes`);
const meta = z.string().refine((s) => utf8Length(s) <= METADATA_MAX_BYTES, `is over ${METADATA_MAX_BYTES} bytes`);
const id = (re: RegExp, rule: string) => z.string().refine((s) => re.test(s), rule);
const idWith = (prefix: string) =>
  id(new RegExp(`^${prefix}[A-Za-z0-9]{1,64}$`), `must be ${prefix} followed by 1–64 letters or digits`);
const backendRef = id(ID_RULES.backend.re, "is not a valid backend id");
const object = z.record(z.string(), z.unknown());
// The API takes a provider name in any case and shows it as sent ("TWILIO" in its examples):
// the emulator keeps it so, and loads it so.
const webhook = z.object({
  enabled: z.boolean(),
  provider: z.string().refine((p) => isProvider(p.toLowerCase()), "is not a supported provider"),
  secret: z.string(),
});

const failoverSchema = z.object({
  id: id(ID_RULES.failover.re, ID_RULES.failover.rule),
  created_at: time,
  description: desc,
  metadata: meta,
  backends: z.array(backendRef).min(1),
});
const backendSchema = (prefix: string) =>
  z.object({ id: idWith(prefix), created_at: time, description: desc, metadata: meta, fields: object });
const routeSchema = z.object({
  id: id(ID_RULES.route.re, ID_RULES.route.rule),
  created_at: time,
  match_type: z.enum(["exact_path", "path_prefix"]),
  match: z.string(),
  description: desc,
  metadata: meta,
  backend: z.object({ enabled: z.boolean(), backend_id: backendRef }).nullable(),
  webhook_verification: webhook.nullable(),
  modules: z.record(z.string(), object),
});
const edgeSchema = z.object({
  id: id(ID_RULES.edge.re, ID_RULES.edge.rule),
  created_at: time,
  description: desc,
  metadata: meta,
  hostports: z.array(z.string()),
  mutual_tls: object.nullable(),
  tls_termination: object.nullable(),
  routes: z.array(routeSchema),
});
const tcpTlsEdgeSchema = (prefix: string) =>
  z.object({
    id: idWith(prefix),
    created_at: time,
    description: desc,
    metadata: meta,
    hostports: z.array(z.string()).nullable(),
    modules: z.record(z.string(), object),
  });
const endpointSchema = z.object({
  id: idWith("ep_"),
  created_at: time,
  updated_at: time,
  type: z.string(),
  url: z.string(),
  traffic_policy: z.string(),
  description: desc,
  metadata: meta,
  bindings: z.array(z.string()),
  pooling_enabled: z.boolean(),
});
const legacyWebhook = webhook.extend({
  edge_id: id(ID_RULES.edge.re, ID_RULES.edge.rule),
  route_id: id(ID_RULES.route.re, ID_RULES.route.rule),
});

/** Where a record lives in the state file: its list (a backend kind's under `backends`). */
export type RecordKind =
  "failover_backends" | `backends.${OtherBackendKind}` | "https_edges" | "endpoints" | "tls_edges" | "tcp_edges";

const backendSchemas: Partial<Record<RecordKind, z.ZodType>> = {};
for (const k of OTHER_BACKEND_KINDS) backendSchemas[`backends.${k}`] = backendSchema(BACKEND_PREFIX[k]);
const RECORD_SCHEMAS: Record<RecordKind, z.ZodType> = {
  ...(backendSchemas as Record<`backends.${OtherBackendKind}`, z.ZodType>),
  failover_backends: failoverSchema,
  https_edges: edgeSchema,
  endpoints: endpointSchema,
  tls_edges: tcpTlsEdgeSchema("edgtls_"),
  tcp_edges: tcpTlsEdgeSchema("edgtcp_"),
};

/**
 * Why a record about to be saved could not be loaded again from the state file, by the very
 * schema `parseState` loads it with (undefined: it could). The store asks before every change,
 * so the emulator never writes a state it would refuse at the next start.
 */
export function recordProblem(kind: RecordKind, record: unknown): string | undefined {
  const parsed = RECORD_SCHEMAS[kind].safeParse(record);
  return parsed.success ? undefined : describeIssue(record, parsed.error.issues[0]!, [kind]);
}

function describeIssue(data: unknown, issue: z.core.$ZodIssue, prefix: PropertyKey[] = []): string {
  const where = [...prefix, ...issue.path]
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
  const value = valueAt(data, issue.path);
  const message =
    issue.code === "invalid_type" && issue.expected === "string"
      ? "must be a string"
      : issue.code === "too_small"
        ? "must not be empty"
        : issue.message;
  return `${where}${typeof value === "string" ? ` "${value}"` : ""} ${message}`;
}

const stateSchema = z.object({
  version: z.unknown(),
  failover_backends: z.array(failoverSchema).default([]),
  backends: z
    .object(
      Object.fromEntries(
        OTHER_BACKEND_KINDS.map((k) => [k, z.array(backendSchema(BACKEND_PREFIX[k])).default([])]),
      ) as Record<OtherBackendKind, z.ZodDefault<z.ZodArray<ReturnType<typeof backendSchema>>>>,
    )
    .default({ tunnel_group: [], http_response: [], weighted: [], static: [] }),
  https_edges: z.array(edgeSchema).default([]),
  endpoints: z.array(endpointSchema).default([]),
  tls_edges: z.array(tcpTlsEdgeSchema("edgtls_")).default([]),
  tcp_edges: z.array(tcpTlsEdgeSchema("edgtcp_")).default([]),
  webhook_verifications: z.array(legacyWebhook).default([]),
});

export function parseState(path: string, text: string): StateFile {
  const fail = (what: string): never => {
    throw new StartError(`state file ${path} is corrupt: ${what}; fix it, or move it aside to start empty`);
  };
  if (text.trim() === "") return fail(text === "" ? "the file is empty" : "the file holds only whitespace");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return fail("expected a JSON object");
  const version = (data as Record<string, unknown>).version;
  if (version !== STATE_VERSION)
    return fail(`unsupported version ${JSON.stringify(version)} (expected ${STATE_VERSION})`);
  const parsed = stateSchema.safeParse(data);
  if (!parsed.success) return fail(describeIssue(data, parsed.error.issues[0]!));
  const state = parsed.data as StateFile & { webhook_verifications: z.infer<typeof legacyWebhook>[] };

  const seen = new Set<string>();
  const unique = (recordId: string, where: string) => {
    if (seen.has(recordId)) fail(`${where}.id "${recordId}" appears twice`);
    seen.add(recordId);
  };
  state.failover_backends.forEach((r, i) => unique(r.id, `failover_backends[${i}]`));
  for (const k of OTHER_BACKEND_KINDS) state.backends[k].forEach((r, i) => unique(r.id, `backends.${k}[${i}]`));
  state.https_edges.forEach((e, i) => {
    unique(e.id, `https_edges[${i}]`);
    e.routes.forEach((r, j) => unique(r.id, `https_edges[${i}].routes[${j}]`));
  });
  state.endpoints.forEach((r, i) => unique(r.id, `endpoints[${i}]`));
  state.tls_edges!.forEach((r, i) => unique(r.id, `tls_edges[${i}]`));
  state.tcp_edges!.forEach((r, i) => unique(r.id, `tcp_edges[${i}]`));

  const edges = new Map(state.https_edges.map((e) => [e.id, e]));
  for (const w of state.webhook_verifications) adoptLegacyWebhook(edges, w);
  return {
    failover_backends: state.failover_backends,
    backends: state.backends,
    https_edges: [...edges.values()],
    endpoints: state.endpoints,
    tls_edges: state.tls_edges,
    tcp_edges: state.tcp_edges,
  };
}

function adoptLegacyWebhook(edges: Map<string, EdgeRecord>, w: z.infer<typeof legacyWebhook>): void {
  const now = `${new Date().toISOString().slice(0, 19)}Z`;
  let edge = edges.get(w.edge_id);
  if (!edge) {
    edge = {
      id: w.edge_id,
      created_at: now,
      description: "",
      metadata: "",
      hostports: [],
      mutual_tls: null,
      tls_termination: null,
      routes: [],
    };
    edges.set(edge.id, edge);
  }
  const module = { enabled: w.enabled, provider: w.provider, secret: w.secret };
  const route = edge.routes.find((r) => r.id === w.route_id);
  if (route) route.webhook_verification = module;
  else {
    const made: RouteRecord = {
      id: w.route_id,
      created_at: now,
      match_type: "path_prefix",
      match: "/",
      description: "",
      metadata: "",
      backend: null,
      webhook_verification: module,
      modules: {},
    };
    edge.routes.push(made);
  }
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const p of path) v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

// The modules edges share (a TLS or TCP edge's, an HTTPS edge's mutual_tls and
// tls_termination, a route's ip_restriction): checked as the API checks them, kept as sent
// (backend_id, ip_policy_ids, certificate_authority_ids) and shown as the API shows them,
// with references as {id, uri} (backend, ip_policies, certificate_authorities).
import {
  HttpError,
  backendId,
  invalid,
  isObject,
  onlyFields,
  optionalBoolean,
  optionalString,
  type Context,
} from "../http.js";
import { backendKindOf } from "../../api-data/ids.js";
import { PHASES } from "../../policy/actions.js";
import { parseBoundedPolicy } from "../policy-text.js";

/** The API's link to a backend of any kind, named by its id's prefix. */
export function backendUri(ctx: Context, id: string): string {
  return `${ctx.base}/backends/${backendKindOf(id) ?? "unknown"}/${id}`;
}

type Parse = (value: Record<string, unknown>, field: string) => Record<string, unknown>;
type Render = (ctx: Context, stored: Record<string, unknown>) => Record<string, unknown>;

const enabled = (value: Record<string, unknown>, field: string) =>
  optionalBoolean(value.enabled, `${field}.enabled`) ?? true;

function idList(value: unknown, field: string, prefix: string, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be an array of ${what} ids`);
  return value.map((id, i) => {
    if (typeof id !== "string" || !new RegExp(`^${prefix}[A-Za-z0-9]{1,64}$`).test(id)) {
      throw new HttpError(
        400,
        "ERR_NGROK_227",
        `The ID ${JSON.stringify(id)} in ${field}[${i}] is invalid. Expected an ID with a prefix of ${prefix}.`,
      );
    }
    return id;
  });
}

const refs = (ctx: Context, ids: unknown, collection: string) =>
  ((ids as string[] | undefined) ?? []).map((id) => ({ id, uri: `${ctx.base}/${collection}/${id}` }));

const TLS_VERSIONS = ["1.0", "1.1", "1.2", "1.3"];

export const EDGE_MODULES: Record<string, { parse: Parse; render: Render }> = {
  backend: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "backend_id"]);
      if (v.backend_id === undefined || v.backend_id === null)
        throw invalid(`${field}.backend_id is required: the id of the backend to send traffic to`);
      return { enabled: enabled(v, field), backend_id: backendId(v.backend_id, "backend_id") };
    },
    render: (ctx, m) => {
      const id = m.backend_id as string;
      return { enabled: m.enabled, backend: { id, uri: backendUri(ctx, id) } };
    },
  },
  ip_restriction: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "ip_policy_ids"]);
      const ids = idList(v.ip_policy_ids, `${field}.ip_policy_ids`, "ipp_", "IP policy");
      return { enabled: enabled(v, field), ip_policy_ids: ids };
    },
    render: (ctx, m) => ({ enabled: m.enabled, ip_policies: refs(ctx, m.ip_policy_ids, "ip_policies") }),
  },
  mutual_tls: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "certificate_authority_ids"]);
      const ids = idList(
        v.certificate_authority_ids,
        `${field}.certificate_authority_ids`,
        "ca_",
        "certificate authority",
      );
      return { enabled: enabled(v, field), certificate_authority_ids: ids };
    },
    render: (ctx, m) => ({
      enabled: m.enabled,
      certificate_authorities: refs(ctx, m.certificate_authority_ids, "certificate_authorities"),
    }),
  },
  tls_termination: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "terminate_at", "min_version"]);
      const at = optionalString(v.terminate_at, `${field}.terminate_at`) ?? "edge";
      if (!["edge", "upstream"].includes(at)) throw invalid(`${field}.terminate_at must be "edge" or "upstream"`);
      const min = optionalString(v.min_version, `${field}.min_version`);
      if (min !== undefined && !TLS_VERSIONS.includes(min))
        throw invalid(`${field}.min_version must be one of ${TLS_VERSIONS.join(", ")}`);
      if (at === "upstream" && min !== undefined)
        throw invalid(`${field}.min_version must be null when terminate_at is "upstream"`);
      return { enabled: enabled(v, field), terminate_at: at, min_version: min ?? null };
    },
    render: (_ctx, m) => ({ enabled: m.enabled, terminate_at: m.terminate_at, min_version: m.min_version ?? null }),
  },
  /** An HTTPS edge's tls_termination: TLS ends at ngrok's edge, only the minimum version is chosen. */
  https_tls_termination: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "min_version"]);
      const min = optionalString(v.min_version, `${field}.min_version`);
      if (min !== undefined && !TLS_VERSIONS.includes(min))
        throw invalid(`${field}.min_version must be one of ${TLS_VERSIONS.join(", ")}`);
      return { enabled: enabled(v, field), terminate_at: "edge", min_version: min ?? null };
    },
    render: (_ctx, m) => ({
      enabled: m.enabled,
      terminate_at: m.terminate_at ?? "edge",
      min_version: m.min_version ?? null,
    }),
  },
  traffic_policy: {
    parse: (v, field) => {
      onlyFields(v, ["enabled", "value"]);
      const value = optionalString(v.value, `${field}.value`);
      if (value === undefined || value.trim() === "")
        throw invalid(`${field}.value is required: the Traffic Policy as JSON or YAML text`);
      return { enabled: enabled(v, field), value };
    },
    render: (_ctx, m) => ({ enabled: m.enabled, value: m.value }),
  },
};

/** A module body checked by its rules (`as` names the rules when they differ from `name`). */
export function parseEdgeModule(value: unknown, name: string, as = name): Record<string, unknown> {
  if (!isObject(value)) throw invalid(`${name} must be an object`);
  return EDGE_MODULES[as]!.parse(value, name);
}

export function renderEdgeModule(
  ctx: Context,
  stored: Record<string, unknown> | null | undefined,
  as: string,
): Record<string, unknown> | null {
  return stored ? EDGE_MODULES[as]!.render(ctx, stored) : null;
}

/** host:port; the host may be a wildcard (`*.example.com:443`), as ngrok took for HTTPS and TLS edges. */
const HOSTPORT = /^(?:\*\.(?=[A-Za-z0-9]))?[A-Za-z0-9.-]+:\d{1,5}$/;
/** A TCP address ngrok reserves: `<n>.tcp.ngrok.io:<port>` (and regional `<n>.tcp.<region>.ngrok.io`). */
const TCP_ADDRESS = /^\d+\.tcp\.(?:[a-z]{2,4}\.)?ngrok\.io:\d{1,5}$/;

/** hostports as given (undefined when absent or null); a TCP edge takes only reserved TCP addresses. */
export function parseHostports(value: unknown, tcp = false): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid("hostports must be an array of host:port strings");
  return value.map((hp, i) => {
    if (
      typeof hp !== "string" ||
      !HOSTPORT.test(hp) ||
      Number(hp.split(":")[1]) > 65535 ||
      Number(hp.split(":")[1]) < 1
    )
      throw invalid(`hostports[${i}] must be host:port (e.g. example.com:443)`);
    if (tcp && !TCP_ADDRESS.test(hp))
      throw invalid(`hostports[${i}] ${JSON.stringify(hp)} is not a reserved TCP address (e.g. 1.tcp.ngrok.io:12345)`);
    return hp;
  });
}

/** A hostport belongs to one edge at most, of whatever kind. */
export function unclaimedHostports(ctx: Context, edgeId: string, wanted: string[]): string[] {
  const store = ctx.store;
  for (const collection of [store.edges, store.tlsEdges, store.tcpEdges]) {
    for (const other of collection.all()) {
      if (other.id === edgeId || !other.hostports) continue;
      const taken = wanted.find((hp) => other.hostports!.includes(hp));
      if (taken) throw new HttpError(400, "ERR_NGROK_7122", `Hostport ${taken} already exists for another edge.`);
    }
  }
  return wanted;
}

/**
 * A traffic_policy module's value must be a policy: JSON or YAML text of an object whose keys
 * are phases (an edge may hold phases its endpoint would not run; migrate reports those).
 * Parsed as the validator parses (src/policy/parse.ts): one document, nesting bounded.
 */
export async function checkModulePolicy(module: Record<string, unknown> | undefined, field: string): Promise<void> {
  if (module === undefined) return;
  const parsed = await parseBoundedPolicy(module.value as string, `${field}.value`);
  if (!parsed.ok)
    throw invalid(`${field}.value could not be parsed as JSON or YAML: ${parsed.problems[0]!.message.split("\n")[0]}`);
  const data = parsed.document;
  if (!isObject(data)) throw invalid(`${field}.value must be a policy: an object whose keys are phases`);
  const unknown = Object.keys(data).find((k) => !(PHASES as readonly string[]).includes(k));
  if (unknown !== undefined)
    throw invalid(`${field}.value: unknown phase ${JSON.stringify(unknown)}; the phases are ${PHASES.join(", ")}`);
}

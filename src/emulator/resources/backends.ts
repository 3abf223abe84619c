// Tunnel group, HTTP response, weighted and static backends: /backends/<kind> and
// /backends/<kind>/{id}. Each kind has the common fields (description, metadata) and its own.
import {
  allow,
  backendId,
  description,
  idFormat,
  invalid,
  isObject,
  listPage,
  metadata,
  notFound,
  onlyFields,
  optionalBoolean,
  optionalObject,
  pathId,
  readJsonObject,
  throwIt,
  type Answer,
  type Context,
  type IdFormat,
  type Request,
  described,
} from "../http.js";
import { OTHER_BACKEND_KINDS, rfc3339, type BackendRecord, type OtherBackendKind } from "../store.js";

interface Kind {
  format: IdFormat;
  /** The kind's own fields, checked; every one is present in the result. */
  fields(body: Record<string, unknown>): Record<string, unknown>;
  /** The kind's own fields as the API shows them. */
  render(fields: Record<string, unknown>): Record<string, unknown>;
  names: string[];
}

const KINDS: Record<OtherBackendKind, Kind> = {
  tunnel_group: {
    format: idFormat("bkdtg_"),
    names: ["labels"],
    fields: (b) => ({ labels: stringMap(b.labels, "labels") ?? {} }),
    // The emulator runs no agents, so no tunnel ever matches the labels.
    render: (f) => ({ labels: f.labels, tunnels: [] }),
  },
  http_response: {
    format: idFormat("bkdhr_"),
    names: ["body", "headers", "status_code"],
    fields: (b) => {
      if (b.body !== undefined && b.body !== null && typeof b.body !== "string") throw invalid("body must be a string");
      let status = 200;
      if (b.status_code !== undefined && b.status_code !== null) {
        if (!Number.isInteger(b.status_code) || (b.status_code as number) < 100 || (b.status_code as number) > 599) {
          throw invalid("status_code must be a whole number from 100 to 599");
        }
        status = b.status_code as number;
      }
      // Header names are lower-cased, as the API stores them; values keep their case.
      const headers = stringMap(b.headers, "headers");
      return {
        body: b.body ?? "",
        headers: headers ? Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) : null,
        status_code: status,
      };
    },
    render: (f) => ({ body: f.body, headers: f.headers, status_code: f.status_code }),
  },
  weighted: {
    format: idFormat("bkdwd_"),
    names: ["backends"],
    fields: (b) => {
      const map = optionalObject(b.backends, "backends");
      if (map === undefined || Object.keys(map).length === 0)
        throw invalid('backends is required: give each backend id with its weight, e.g. {"bkdhr_…": 1}');
      const out: Record<string, number> = {};
      for (const [id, weight] of Object.entries(map)) {
        backendId(id, "backends");
        if (!Number.isInteger(weight) || (weight as number) < 0 || (weight as number) > 10000) {
          throw invalid(`backends[${JSON.stringify(id)}]: the weight must be a whole number from 0 to 10000`);
        }
        out[id] = weight as number;
      }
      return { backends: out };
    },
    render: (f) => ({ backends: f.backends }),
  },
  static: {
    format: idFormat("bkdsc_"),
    names: ["address", "tls"],
    fields: (b) => {
      if (typeof b.address !== "string" || !/^[^\s:]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/.test(b.address)) {
        throw invalid("address is required, as host:port (e.g. 10.0.0.5:8080)");
      }
      const tls = optionalObject(b.tls, "tls") ?? {};
      onlyFields(tls, ["enabled"]);
      return { address: b.address, tls: { enabled: optionalBoolean(tls.enabled, "tls.enabled") ?? false } };
    },
    render: (f) => ({ address: f.address, tls: f.tls }),
  },
};

export function isOtherBackendKind(name: string | undefined): name is OtherBackendKind {
  return (OTHER_BACKEND_KINDS as readonly string[]).includes(name ?? "");
}

export function renderBackend(ctx: Context, kind: OtherBackendKind, r: BackendRecord) {
  return {
    id: r.id,
    uri: `${ctx.base}/backends/${kind}/${r.id}`,
    created_at: r.created_at,
    ...described(r),
    ...KINDS[kind].render(r.fields),
  };
}

export async function backends(ctx: Context, kind: OtherBackendKind, r: Request): Promise<Answer | undefined> {
  const { segs, method, path } = r;
  const k = KINDS[kind];
  const collection = ctx.store.backends[kind];
  const show = (x: BackendRecord) => renderBackend(ctx, kind, x);
  if (segs.length === 2) {
    allow(method, ["GET", "POST"], path);
    if (method === "GET") return listPage(ctx, r, { collection, format: k.format, key: "backends", render: show });
    const body = await readJsonObject(r.req);
    onlyFields(body, ["description", "metadata", ...k.names]);
    const record: BackendRecord = {
      id: "",
      created_at: rfc3339(new Date()),
      description: description(body.description) ?? "",
      metadata: metadata(body.metadata) ?? "",
      fields: k.fields(body),
    };
    record.id = ctx.store.newId(k.format.prefix);
    return { status: 201, body: show(await ctx.store.save(collection, record)) };
  }
  if (segs.length === 3) {
    allow(method, ["GET", "PATCH", "DELETE"], path);
    const id = pathId(k.format, segs[2]!);
    // Read before the look-up, so no change slips in between it and the save.
    const body = method === "PATCH" ? await readJsonObject(r.req) : {};
    const current = collection.get(id) ?? throwIt(notFound());
    if (method === "GET") return { status: 200, body: show(current) };
    if (method === "DELETE") {
      await ctx.store.remove(collection, id);
      return { status: 204 };
    }
    // PATCH: the fields given replace the current ones (the body may repeat the id).
    onlyFields(body, ["id", "description", "metadata", ...k.names]);
    const given = Object.fromEntries(Object.entries(body).filter(([key, v]) => k.names.includes(key) && v !== null));
    const fields = Object.keys(given).length ? k.fields({ ...current.fields, ...given }) : current.fields;
    const next: BackendRecord = {
      ...current,
      description: description(body.description) ?? current.description,
      metadata: metadata(body.metadata) ?? current.metadata,
      fields,
    };
    return { status: 200, body: show(await ctx.store.save(collection, next)) };
  }
  return undefined;
}

/** A JSON object of strings (labels, headers), or undefined when absent. */
function stringMap(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalid(`${field} must be an object of strings`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalid(`${field}[${JSON.stringify(key)}] must be a string`);
  }
  return value as Record<string, string>;
}

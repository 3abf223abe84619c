// Cloud Endpoints: /endpoints and /endpoints/{id}. Only cloud endpoints can be made
// through the API (ERR_NGROK_248 otherwise); the Traffic Policy is kept as the text sent, once
// it and the URL pass src/policy, the validator `policy check` runs (400 with the code of the
// first problem, every problem's place in the message). One cloud endpoint per address
// (ERR_NGROK_18009), as the API has it: URLs compared without the default port;
// `pooling_enabled` is only kept, since the emulator serves no traffic.
import { createHash } from "node:crypto";
import {
  FORMATS,
  HttpError,
  allow,
  description,
  invalid,
  listPage,
  metadata,
  notFound,
  onlyFields,
  optionalBoolean,
  optionalString,
  pathId,
  readJsonObject,
  throwIt,
  type Answer,
  type Context,
  type Request,
} from "../http.js";
import { checkEndpointUrl, checkPolicy, type Problem, type Target } from "../../policy/index.js";
import { parseBoundedPolicy } from "../policy-text.js";
import { rfc3339, type EndpointRecord } from "../store.js";

const CREATE_FIELDS = ["type", "url", "traffic_policy", "description", "metadata", "bindings", "pooling_enabled"];
const UPDATE_FIELDS = ["id", "url", "traffic_policy", "description", "metadata", "bindings", "pooling_enabled"];
const DEFAULT_PORT: Record<string, number> = { "https:": 443, "http:": 80, "tls:": 443 };
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The reference to what the endpoint's address is reserved as: a public HTTP(S)/TLS endpoint
 * has its host's reserved domain (`domain`), a public TCP one its reserved address
 * (`tcp_addr`), an internal one neither. The emulator serves no reserved domains or
 * addresses: the id is made from the host (and port), so it is the same for every endpoint
 * on that host, as the API's is, and the link is built from the emulator's own address.
 */
function reservation(
  ctx: Context,
  u: URL,
  port: number,
  internal: boolean,
): Record<string, { id: string; uri: string }> {
  if (internal) return {};
  const tcp = u.protocol === "tcp:";
  const [prefix, field, path] = tcp ? ["ra_", "tcp_addr", "reserved_addrs"] : ["rd_", "domain", "reserved_domains"];
  const digest = createHash("sha256")
    .update(tcp ? `${u.hostname}:${port}` : u.hostname)
    .digest();
  const id = prefix + Array.from(digest.subarray(0, 27), (b) => BASE62[b % 62]).join("");
  return { [field]: { id, uri: `${ctx.base}/${path}/${id}` } };
}

/** An endpoint as the API shows a cloud endpoint (ngrok's examples: no region, scheme, host or port). */
function renderEndpoint(ctx: Context, e: EndpointRecord) {
  const u = new URL(e.url);
  const port = u.port === "" ? (DEFAULT_PORT[u.protocol] ?? 0) : Number(u.port);
  return {
    id: e.id,
    created_at: e.created_at,
    updated_at: e.updated_at,
    public_url: e.url,
    proto: u.protocol.slice(0, -1),
    hostport: `${u.hostname}:${port}`,
    type: e.type,
    metadata: e.metadata,
    description: e.description,
    ...reservation(ctx, u, port, e.bindings.includes("internal")),
    traffic_policy: e.traffic_policy,
    bindings: e.bindings,
    pooling_enabled: e.pooling_enabled,
    url: e.url,
    uri: `${ctx.base}/endpoints/${e.id}`,
  };
}

export async function endpoints(ctx: Context, r: Request): Promise<Answer | undefined> {
  const { segs, method, path } = r;
  const store = ctx.store;
  const show = (e: EndpointRecord) => renderEndpoint(ctx, e);
  if (segs.length === 1) {
    allow(method, ["GET", "POST"], path);
    if (method === "GET")
      return listPage(ctx, r, {
        collection: store.endpoints,
        format: FORMATS.endpoint,
        key: "endpoints",
        render: show,
      });
    const body = await readJsonObject(r.req);
    onlyFields(body, CREATE_FIELDS);
    const type = optionalString(body.type, "type");
    if (type === undefined || type === "") throw invalid('type is required: "cloud"');
    if (type !== "cloud") {
      throw new HttpError(
        400,
        "ERR_NGROK_248",
        `The endpoint create request passed an invalid type of ${JSON.stringify(type)}. Currently we only support creation of cloud endpoints on this route.`,
      );
    }
    const url = endpointUrl(body.url);
    const binds = bindings(body.bindings) ?? ["public"];
    const policy = await trafficPolicy(body.traffic_policy, endpointTarget(url, binds));
    unusedUrl(ctx, url);
    const now = rfc3339(new Date());
    const record: EndpointRecord = {
      id: store.newId("ep_"),
      created_at: now,
      updated_at: now,
      type,
      url,
      traffic_policy: policy,
      description: description(body.description) ?? "",
      metadata: metadata(body.metadata) ?? "",
      bindings: binds,
      pooling_enabled: optionalBoolean(body.pooling_enabled, "pooling_enabled") ?? false,
    };
    return { status: 201, body: show(await store.save(store.endpoints, record)) };
  }
  if (segs.length === 2) {
    allow(method, ["GET", "PATCH", "DELETE"], path);
    const id = pathId(FORMATS.endpoint, segs[1]!);
    // Read before the look-up, so no change slips in between it and the save.
    const body = method === "PATCH" ? await readJsonObject(r.req) : {};
    const current = store.endpoints.get(id) ?? throwIt(notFound());
    if (method === "GET") return { status: 200, body: show(current) };
    if (method === "DELETE") {
      await store.remove(store.endpoints, id);
      return { status: 204 };
    }
    onlyFields(body, UPDATE_FIELDS);
    const url = body.url === undefined || body.url === null ? current.url : endpointUrl(body.url);
    const binds = bindings(body.bindings) ?? current.bindings;
    // The URL, binding and policy are checked together: a new URL may not suit the kept policy.
    const policy = await trafficPolicy(
      body.traffic_policy === undefined || body.traffic_policy === null ? current.traffic_policy : body.traffic_policy,
      endpointTarget(url, binds),
    );
    if (url !== current.url) unusedUrl(ctx, url, current.id);
    const next: EndpointRecord = {
      ...current,
      updated_at: rfc3339(new Date()),
      url,
      traffic_policy: policy,
      description: description(body.description) ?? current.description,
      metadata: metadata(body.metadata) ?? current.metadata,
      bindings: binds,
      pooling_enabled: optionalBoolean(body.pooling_enabled, "pooling_enabled") ?? current.pooling_enabled,
    };
    return { status: 200, body: show(await store.save(store.endpoints, next)) };
  }
  return undefined;
}

function endpointUrl(value: unknown): string {
  const text = optionalString(value, "url");
  if (text === undefined || text === "") throw invalid("url is required (e.g. https://example.ngrok.app)");
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw invalid(`url ${JSON.stringify(text)} is not a URL: give scheme and host (e.g. https://example.ngrok.app)`);
  }
  if (!["http:", "https:", "tcp:", "tls:"].includes(u.protocol) || u.hostname === "") {
    throw invalid(`url ${JSON.stringify(text)}: the scheme must be http, https, tcp or tls, followed by a host`);
  }
  // A tls:// URL means 443 (ngrok's docs create `tls://<domain>` without a port); tcp has no default.
  if (u.protocol === "tcp:" && u.port === "") {
    throw new HttpError(
      400,
      "ERR_NGROK_18003",
      "The provided cloud endpoint configuration is invalid: port is invalid or missing and cannot be inferred from scheme",
    );
  }
  if (
    (u.pathname !== "/" && u.pathname !== "") ||
    u.search !== "" ||
    u.hash !== "" ||
    u.username !== "" ||
    u.password !== ""
  ) {
    throw invalid(`url ${JSON.stringify(text)} must be only a scheme, host and port: no path, query or credentials`);
  }
  return text;
}

/**
 * The address a URL names: scheme, host in lower case and port, the scheme's default port
 * filled in (`https://a.example.com` and `https://A.example.com:443/` are one address), as
 * the contract and `migrate --apply` compare endpoint URLs.
 */
function address(url: string): string {
  const u = new URL(url);
  const port = u.port === "" ? (DEFAULT_PORT[u.protocol] ?? 0) : Number(u.port);
  return `${u.protocol.toLowerCase()}//${u.hostname.toLowerCase()}:${port}`;
}

/** One cloud endpoint per address (the endpoint `self` may keep or rename its own). */
function unusedUrl(ctx: Context, url: string, self?: string): void {
  const wanted = address(url);
  if (ctx.store.endpoints.all().some((e) => e.id !== self && address(e.url) === wanted)) {
    throw new HttpError(409, "ERR_NGROK_18009", "This account already has a cloud endpoint on this URL.");
  }
}

function bindings(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length !== 1 ||
    !["public", "internal", "kubernetes"].includes(value[0] as string)
  ) {
    throw invalid('bindings must hold exactly one of "public", "internal" or "kubernetes"');
  }
  return value as string[];
}

/** The endpoint the URL and binding make, as the validator checks it (a kubernetes binding as public). */
function endpointTarget(url: string, binds: string[]): Target {
  const { target, problems } = checkEndpointUrl(url, binds[0] === "internal" ? "internal" : "public");
  if (!target) throw refusal("url", problems);
  return target;
}

/** 400 with the code of the first problem and every problem's place. */
function refusal(what: "url" | "traffic_policy", problems: Problem[]): HttpError {
  const list = problems.map((p) => (p.path === "" || p.path === "url" ? p.message : `${p.path}: ${p.message}`));
  const lead = what === "url" ? "The endpoint URL is invalid" : "The traffic policy is invalid";
  return new HttpError(400, problems[0]!.code, `${lead}: ${list.join("; ")}`);
}

/** The policy text as sent, once it parses (JSON, else YAML) and passes the validator for the endpoint. */
async function trafficPolicy(value: unknown, target: Target): Promise<string> {
  if (value === undefined || value === null || value === "")
    throw invalid("traffic_policy is required: a Traffic Policy as JSON or YAML text");
  if (typeof value !== "string") throw invalid("traffic_policy must be a string: the policy as JSON or YAML text");
  const parsed = await parseBoundedPolicy(value, "traffic_policy");
  const problems = parsed.ok ? checkPolicy(parsed.document, target) : parsed.problems;
  if (problems.length > 0) throw refusal("traffic_policy", problems);
  return value;
}

// Cloud Endpoints: /endpoints and /endpoints/{id}. Only cloud endpoints can be made
// through the API (ERR_NGROK_248 otherwise); the Traffic Policy is kept as the text sent,
// and must parse as JSON or YAML into a policy's shape. One cloud endpoint per URL
// (ERR_NGROK_18009), as the API has it; `pooling_enabled` is only kept, since the emulator
// serves no traffic.
import {
  FORMATS,
  HttpError,
  allow,
  description,
  invalid,
  isObject,
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
import { rfc3339, type EndpointRecord } from "../store.js";

const CREATE_FIELDS = ["type", "url", "traffic_policy", "description", "metadata", "bindings", "pooling_enabled"];
const UPDATE_FIELDS = ["id", "url", "traffic_policy", "description", "metadata", "bindings", "pooling_enabled"];
const PHASES = ["on_http_request", "on_http_response", "on_tcp_connect"];
const DEFAULT_PORT: Record<string, number> = { "https:": 443, "http:": 80 };

function renderEndpoint(ctx: Context, e: EndpointRecord) {
  const u = new URL(e.url);
  const port = u.port === "" ? (DEFAULT_PORT[u.protocol] ?? 0) : Number(u.port);
  return {
    id: e.id,
    region: "global",
    created_at: e.created_at,
    updated_at: e.updated_at,
    public_url: e.url,
    proto: u.protocol.slice(0, -1),
    scheme: u.protocol.slice(0, -1),
    hostport: `${u.hostname}:${port}`,
    host: u.hostname,
    port,
    type: e.type,
    metadata: e.metadata,
    description: e.description,
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
    const policy = await trafficPolicy(body.traffic_policy);
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
      bindings: bindings(body.bindings) ?? ["public"],
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
    const policy =
      body.traffic_policy === undefined || body.traffic_policy === null
        ? current.traffic_policy
        : await trafficPolicy(body.traffic_policy);
    if (url !== current.url) unusedUrl(ctx, url);
    const next: EndpointRecord = {
      ...current,
      updated_at: rfc3339(new Date()),
      url,
      traffic_policy: policy,
      description: description(body.description) ?? current.description,
      metadata: metadata(body.metadata) ?? current.metadata,
      bindings: bindings(body.bindings) ?? current.bindings,
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
  if ((u.protocol === "tcp:" || u.protocol === "tls:") && u.port === "") {
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

function unusedUrl(ctx: Context, url: string): void {
  const same = (a: string) => a.replace(/\/$/, "").toLowerCase() === url.replace(/\/$/, "").toLowerCase();
  if (ctx.store.endpoints.all().some((e) => same(e.url))) {
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

/** The policy text as sent, once it parses (JSON, else YAML) into a policy's shape. */
async function trafficPolicy(value: unknown): Promise<string> {
  if (value === undefined || value === null || value === "")
    throw invalid("traffic_policy is required: a Traffic Policy as JSON or YAML text");
  if (typeof value !== "string") throw invalid("traffic_policy must be a string: the policy as JSON or YAML text");
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    // The yaml package is loaded only when a policy is not JSON.
    const { parse } = await import("yaml");
    try {
      data = parse(value);
    } catch (err) {
      throw invalid(`traffic_policy could not be parsed as JSON or YAML: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  checkPolicy(data);
  return value;
}

function checkPolicy(data: unknown): void {
  if (!isObject(data))
    throw invalid(
      "traffic_policy must be an object whose keys are phases (on_http_request, on_http_response, on_tcp_connect)",
    );
  for (const [phase, rules] of Object.entries(data)) {
    if (!PHASES.includes(phase))
      throw invalid(`traffic_policy: unknown phase ${JSON.stringify(phase)}; the phases are ${PHASES.join(", ")}`);
    if (rules === null) continue;
    if (!Array.isArray(rules)) throw invalid(`traffic_policy.${phase} must be a list of rules`);
    rules.forEach((rule, i) => {
      const where = `traffic_policy.${phase}[${i}]`;
      if (!isObject(rule)) throw invalid(`${where} must be an object`);
      onlyFields(rule, ["name", "expressions", "actions"]);
      if (rule.name !== undefined && typeof rule.name !== "string") throw invalid(`${where}.name must be a string`);
      if (rule.expressions !== undefined && rule.expressions !== null) {
        if (!Array.isArray(rule.expressions) || rule.expressions.some((e) => typeof e !== "string"))
          throw invalid(`${where}.expressions must be a list of CEL strings`);
      }
      if (!Array.isArray(rule.actions) || rule.actions.length === 0)
        throw invalid(`${where}.actions must be a non-empty list`);
      rule.actions.forEach((action, j) => {
        if (!isObject(action) || typeof action.type !== "string" || action.type === "")
          throw invalid(`${where}.actions[${j}] must be an object with a type`);
        onlyFields(action, ["type", "config"]);
        if (action.config !== undefined && action.config !== null && !isObject(action.config))
          throw invalid(`${where}.actions[${j}].config must be an object`);
      });
    });
  }
}

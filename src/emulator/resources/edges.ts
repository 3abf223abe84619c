// HTTPS edges and their routes: /edges/https[/{id}], /edges/https/{id}/routes[/{id}] and
// a route's modules (/…/backend, /…/webhook_verification, and the others). There is no
// call that lists routes: they come inside their edge. A module of a route that does not
// exist answers 404, as the API does.
import { isProvider, providerNeedsSecret, suggestProvider } from "../../api-data/providers.js";
import {
  FORMATS,
  HttpError,
  allow,
  backendId,
  description,
  invalid,
  isObject,
  listPage,
  metadata,
  notFound,
  onlyFields,
  optionalBoolean,
  optionalObject,
  optionalString,
  pathId,
  quoted,
  readJsonObject,
  throwIt,
  type Answer,
  type Context,
  type Request,
  described,
} from "../http.js";
import { OTHER_ROUTE_MODULES } from "../../api-data/route-modules.js";
import { parseEdgeModule, parseHostports, renderEdgeModule, unclaimedHostports } from "./edge-modules.js";
import { renderRouteModule } from "./route-modules.js";
import { rfc3339, type EdgeRecord, type RouteRecord, type WebhookModule } from "../store.js";

const MODULE_ORDER = [...OTHER_ROUTE_MODULES.slice(0, 5), "webhook_verification", ...OTHER_ROUTE_MODULES.slice(5)];

function renderRoute(ctx: Context, edgeId: string, r: RouteRecord) {
  // In the API's field order: webhook_verification sits between response_headers and oauth.
  const modules = Object.fromEntries(
    MODULE_ORDER.map((m) => [
      m,
      m === "webhook_verification" ? r.webhook_verification : renderRouteModule(ctx, r.id, m, r.modules[m]),
    ]),
  );
  return {
    edge_id: edgeId,
    id: r.id,
    created_at: r.created_at,
    match_type: r.match_type,
    match: r.match,
    uri: `${ctx.base}/edges/https/${edgeId}/routes/${r.id}`,
    ...described(r),
    backend: renderEdgeModule(ctx, r.backend, "backend"),
    ...modules,
    // The legacy policy module: the real API still shows the key, always null.
    policy: null,
  };
}

function renderEdge(ctx: Context, e: EdgeRecord) {
  return {
    id: e.id,
    ...described(e),
    created_at: e.created_at,
    uri: `${ctx.base}/edges/https/${e.id}`,
    hostports: e.hostports,
    mutual_tls: renderEdgeModule(ctx, e.mutual_tls, "mutual_tls"),
    tls_termination: renderEdgeModule(ctx, e.tls_termination, "https_tls_termination"),
    routes: e.routes.map((r) => renderRoute(ctx, e.id, r)),
  };
}

/** Everything under /edges/https; undefined when the path names nothing there. */
export async function edges(ctx: Context, r: Request): Promise<Answer | undefined> {
  const { segs, method, path } = r;
  const store = ctx.store;
  // The body is read before anything is looked up, so no change can slip in between the
  // look-up and the save (which replaces the whole edge).
  const edgeModulePath = segs.length === 4 && EDGE_LEVEL_MODULES.includes(segs[3]!);
  const known =
    segs.length <= 3 ||
    edgeModulePath ||
    (segs[3] === "routes" && (segs.length <= 5 || (segs.length === 6 && MODULES.includes(segs[5]!))));
  if (!known) return undefined;
  allow(method, edgeModulePath ? ["GET", "PUT", "DELETE"] : ALLOWED[segs.length]!, path);
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? await readJsonObject(r.req) : {};
  if (segs.length === 2) {
    if (method === "GET")
      return listPage(ctx, r, {
        collection: store.edges,
        format: FORMATS.edge,
        key: "https_edges",
        render: (e) => renderEdge(ctx, e),
      });
    onlyFields(body, EDGE_FIELDS);
    const edge: EdgeRecord = {
      id: store.newId("edghts_"),
      created_at: rfc3339(new Date()),
      description: description(body.description) ?? "",
      metadata: metadata(body.metadata) ?? "",
      hostports: unclaimedHostports(ctx, "", parseHostports(body.hostports) ?? []),
      mutual_tls: edgeModule(body.mutual_tls, "mutual_tls"),
      tls_termination: edgeModule(body.tls_termination, "tls_termination"),
      routes: [],
    };
    return { status: 201, body: renderEdge(ctx, await store.save(store.edges, edge)) };
  }

  const edgeId = pathId(FORMATS.edge, segs[2]!);
  if (segs.length === 3) {
    const edge = store.edges.get(edgeId) ?? throwIt(notFound());
    if (method === "GET") return { status: 200, body: renderEdge(ctx, edge) };
    if (method === "DELETE") {
      await store.remove(store.edges, edgeId);
      return { status: 204 };
    }
    onlyFields(body, ["id", ...EDGE_FIELDS]);
    const next: EdgeRecord = {
      ...edge,
      description: description(body.description) ?? edge.description,
      metadata: metadata(body.metadata) ?? edge.metadata,
      hostports: unclaimedHostports(ctx, edgeId, parseHostports(body.hostports) ?? edge.hostports),
      mutual_tls: body.mutual_tls === undefined ? edge.mutual_tls : edgeModule(body.mutual_tls, "mutual_tls"),
      tls_termination:
        body.tls_termination === undefined ? edge.tls_termination : edgeModule(body.tls_termination, "tls_termination"),
    };
    return { status: 200, body: renderEdge(ctx, await store.save(store.edges, next)) };
  }

  if (edgeModulePath) {
    // An edge-level module: /edges/https/{edge}/mutual_tls or …/tls_termination.
    const edge = store.edges.get(edgeId) ?? throwIt(notFound());
    const name = segs[3] as "mutual_tls" | "tls_termination";
    const as = name === "mutual_tls" ? name : "https_tls_termination";
    if (method === "GET") return { status: 200, body: renderEdgeModule(ctx, edge[name], as) ?? throwIt(notFound()) };
    if (method === "DELETE") {
      if (edge[name] !== null) await store.save(store.edges, { ...edge, [name]: null });
      return { status: 204 };
    }
    const module = parseEdgeModule(body, name, as);
    await store.save(store.edges, { ...edge, [name]: module });
    return { status: 200, body: renderEdgeModule(ctx, module, as) };
  }

  if (segs.length === 4) {
    const edge = store.edges.get(edgeId) ?? throwIt(notFound());
    onlyFields(body, ROUTE_FIELDS);
    if (body.edge_id !== undefined && body.edge_id !== null && body.edge_id !== edgeId) {
      throw new HttpError(
        400,
        "ERR_NGROK_7110",
        `The request edge ID ${JSON.stringify(body.edge_id)} does not match the route edge ID ${JSON.stringify(edgeId)}.`,
      );
    }
    const route: RouteRecord = {
      id: store.newId("edghtsrt_"),
      created_at: rfc3339(new Date()),
      ...matchOf(body),
      description: description(body.description) ?? "",
      metadata: metadata(body.metadata) ?? "",
      backend: body.backend === undefined || body.backend === null ? null : parseBackendModule(body.backend),
      webhook_verification:
        body.webhook_verification === undefined || body.webhook_verification === null
          ? null
          : parseWebhook(body.webhook_verification),
      modules: otherModules(body),
    };
    await store.save(store.edges, { ...edge, routes: [...edge.routes, route] });
    return { status: 201, body: renderRoute(ctx, edgeId, route) };
  }

  const routeId = pathId(FORMATS.route, segs[4]!);
  const edge = store.edges.get(edgeId) ?? throwIt(notFound());
  const route = edge.routes.find((x) => x.id === routeId) ?? throwIt(notFound());
  const replaceRoute = async (next: RouteRecord) => {
    await store.save(store.edges, { ...edge, routes: edge.routes.map((x) => (x.id === routeId ? next : x)) });
    return next;
  };

  if (segs.length === 5) {
    if (method === "GET") return { status: 200, body: renderRoute(ctx, edgeId, route) };
    if (method === "DELETE") {
      await store.save(store.edges, { ...edge, routes: edge.routes.filter((x) => x.id !== routeId) });
      return { status: 204 };
    }
    onlyFields(body, ["id", ...ROUTE_FIELDS]);
    const given = <T>(key: string, parse: (v: unknown) => T, current: T): T =>
      body[key] === undefined ? current : body[key] === null ? (null as T) : parse(body[key]);
    const next: RouteRecord = {
      ...route,
      ...(body.match_type !== undefined || body.match !== undefined
        ? matchOf({ match_type: body.match_type ?? route.match_type, match: body.match ?? route.match })
        : {}),
      description: description(body.description) ?? route.description,
      metadata: metadata(body.metadata) ?? route.metadata,
      backend: given("backend", parseBackendModule, route.backend),
      webhook_verification: given("webhook_verification", parseWebhook, route.webhook_verification),
      modules: { ...route.modules, ...otherModules(body) },
    };
    for (const m of OTHER_ROUTE_MODULES) if (body[m] === null) delete next.modules[m];
    return { status: 200, body: renderRoute(ctx, edgeId, await replaceRoute(next)) };
  }

  // A module: /edges/https/{edge}/routes/{route}/{module}.
  const name = segs[5]!;
  const current =
    name === "backend"
      ? route.backend
      : name === "webhook_verification"
        ? route.webhook_verification
        : (route.modules[name] ?? null);
  const show = (rt: RouteRecord) => (renderRoute(ctx, edgeId, rt) as Record<string, unknown>)[name];
  if (method === "GET") {
    // A module that is not set reads as 404, as it did in the first emulator.
    if (current === null) throw notFound();
    return { status: 200, body: show(route) };
  }
  // Deleting a module that is not set is not an error: the route ends up without one either way.
  if (method === "DELETE") {
    if (current !== null) {
      const next = { ...route, modules: { ...route.modules } };
      if (name === "backend") next.backend = null;
      else if (name === "webhook_verification") next.webhook_verification = null;
      else delete next.modules[name];
      await replaceRoute(next);
    }
    return { status: 204 };
  }
  const next = { ...route, modules: { ...route.modules } };
  if (name === "backend") next.backend = parseBackendModule(body);
  else if (name === "webhook_verification") next.webhook_verification = parseWebhook(body);
  else next.modules[name] = genericModule(body, name);
  return { status: 200, body: show(await replaceRoute(next)) };
}

const MODULES: string[] = ["backend", "webhook_verification", ...OTHER_ROUTE_MODULES];
/** The methods of each path depth under /edges/https. */
const ALLOWED: Record<number, string[]> = {
  2: ["GET", "POST"],
  3: ["GET", "PATCH", "DELETE"],
  4: ["POST"],
  5: ["GET", "PATCH", "DELETE"],
  6: ["GET", "PUT", "DELETE"],
};

const EDGE_FIELDS = ["description", "metadata", "hostports", "mutual_tls", "tls_termination"];
const ROUTE_FIELDS = [
  "edge_id",
  "match_type",
  "match",
  "description",
  "metadata",
  "backend",
  "webhook_verification",
  ...OTHER_ROUTE_MODULES,
];

/** An HTTPS edge's mutual_tls or tls_termination, checked as the API checks it; null when absent. */
function edgeModule(value: unknown, field: "mutual_tls" | "tls_termination"): Record<string, unknown> | null {
  const obj = optionalObject(value, field);
  if (obj === undefined) return null;
  return parseEdgeModule(obj, field, field === "mutual_tls" ? field : "https_tls_termination");
}

const EDGE_LEVEL_MODULES = ["mutual_tls", "tls_termination"];

/** A module kept as given, with `enabled` defaulting to true as in the API. */
function genericModule(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw invalid(`${field} must be an object`);
  return { ...value, enabled: optionalBoolean(value.enabled, `${field}.enabled`) ?? true };
}

function otherModules(body: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of OTHER_ROUTE_MODULES)
    if (body[m] !== undefined && body[m] !== null) out[m] = genericModule(body[m], m);
  return out;
}

function matchOf(body: Record<string, unknown>): Pick<RouteRecord, "match_type" | "match"> {
  const type = body.match_type;
  if (type !== "exact_path" && type !== "path_prefix")
    throw invalid('match_type is required: "exact_path" or "path_prefix"');
  const match = optionalString(body.match, "match");
  if (match === undefined || match === "")
    throw invalid("match is required: a path (/blog), a host (example.com) or both (example.com/blog)");
  return { match_type: type, match };
}

function parseBackendModule(value: unknown): { enabled: boolean; backend_id: string } {
  if (!isObject(value)) throw invalid("backend must be an object");
  onlyFields(value, ["enabled", "backend_id"]);
  if (value.backend_id === undefined || value.backend_id === null)
    throw invalid("backend_id is required: the id of the backend to route to");
  return {
    enabled: optionalBoolean(value.enabled, "enabled") ?? true,
    backend_id: backendId(value.backend_id, "backend_id"),
  };
}

const WEBHOOK_FIELDS = ["enabled", "provider", "secret"];

function parseWebhook(value: unknown): WebhookModule {
  if (!isObject(value)) throw invalid("webhook_verification must be an object");
  onlyFields(value, WEBHOOK_FIELDS);
  // As in the API, `enabled` defaults to true when left out.
  const enabled = optionalBoolean(value.enabled, "enabled") ?? true;
  const provider = optionalString(value.provider, "provider");
  if (provider === undefined || provider === "") throw invalid("provider is required (e.g. github, stripe, sns)");
  // The API takes provider names in any case and shows them as sent (its examples say "TWILIO").
  const known = provider.toLowerCase();
  if (!isProvider(known)) {
    const guess = suggestProvider(provider);
    const hint = guess
      ? `; did you mean ${JSON.stringify(guess)}?`
      : " (names are lower case, e.g. github, stripe, sns)";
    throw invalid(`provider ${quoted(provider)} is not a supported webhook verification provider${hint}`);
  }
  const secret = optionalString(value.secret, "secret");
  if (providerNeedsSecret(known)) {
    if (secret === undefined || secret === "") throw invalid(`secret is required for the ${provider} provider`);
  } else if (secret !== undefined && secret !== "") {
    // An empty secret is what clients that always send the field send for sns; it is not one.
    throw invalid(`secret must not be given for the ${provider} provider: it verifies by certificate`);
  }
  return { enabled, provider, secret: secret ?? "" };
}

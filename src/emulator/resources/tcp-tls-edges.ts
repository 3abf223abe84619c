// TLS and TCP edges: /edges/tls[/{id}[/{module}]] and /edges/tcp[/{id}[/{module}]]. Each has
// one backend and a few edge-level modules (no routes); they answer in the same style as
// HTTPS edges (same error codes, 201 on create, 204 on delete, a module not set reads 404).
import {
  allow,
  description,
  idFormat,
  invalid,
  listPage,
  metadata,
  notFound,
  onlyFields,
  pathId,
  readJsonObject,
  throwIt,
  type Answer,
  type Context,
  type Request,
  described,
} from "../http.js";
import { rfc3339, type Collection, type TcpTlsEdgeRecord } from "../store.js";
import {
  checkModulePolicy,
  parseEdgeModule,
  parseHostports,
  renderEdgeModule,
  unclaimedHostports,
} from "./edge-modules.js";

interface Kind {
  prefix: string;
  key: string;
  modules: string[];
  collection: (ctx: Context) => Collection<TcpTlsEdgeRecord>;
}

const KINDS: Record<"tls" | "tcp", Kind> = {
  tls: {
    prefix: "edgtls_",
    key: "tls_edges",
    modules: ["backend", "ip_restriction", "mutual_tls", "tls_termination", "traffic_policy"],
    collection: (ctx) => ctx.store.tlsEdges,
  },
  tcp: {
    prefix: "edgtcp_",
    key: "tcp_edges",
    modules: ["backend", "ip_restriction", "traffic_policy"],
    collection: (ctx) => ctx.store.tcpEdges,
  },
};

export function isTcpTlsKind(name: string | undefined): name is "tls" | "tcp" {
  return name === "tls" || name === "tcp";
}

/** The edge as the API shows it: every module present, null when not set; no empty description. */
function render(ctx: Context, kind: "tls" | "tcp", e: TcpTlsEdgeRecord) {
  return {
    id: e.id,
    ...described(e),
    created_at: e.created_at,
    uri: `${ctx.base}/edges/${kind}/${e.id}`,
    hostports: e.hostports,
    ...Object.fromEntries(KINDS[kind].modules.map((m) => [m, renderEdgeModule(ctx, e.modules[m], m)])),
    // The legacy policy module: the real API still shows the key, always null.
    policy: null,
  };
}

async function modulesOf(
  body: Record<string, unknown>,
  names: string[],
): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of names) if (body[m] !== undefined && body[m] !== null) out[m] = parseEdgeModule(body[m], m);
  await checkModulePolicy(out.traffic_policy, "traffic_policy");
  return out;
}

export async function tcpTlsEdges(ctx: Context, kind: "tls" | "tcp", r: Request): Promise<Answer | undefined> {
  const { segs, method, path } = r;
  const k = KINDS[kind];
  const collection = k.collection(ctx);
  const format = idFormat(k.prefix);
  const fields = ["description", "metadata", "hostports", ...k.modules];
  if (segs.length > 4 || (segs.length === 4 && !k.modules.includes(segs[3]!))) return undefined;
  allow(method, ALLOWED[segs.length]!, path);
  // Read before any look-up, so no change slips in between it and the save.
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? await readJsonObject(r.req) : {};
  const show = (e: TcpTlsEdgeRecord) => render(ctx, kind, e);

  if (segs.length === 2) {
    if (method === "GET") return listPage(ctx, r, { collection, format, key: k.key, render: show });
    onlyFields(body, fields);
    const hostports = parseHostports(body.hostports, kind === "tcp");
    const edge: TcpTlsEdgeRecord = {
      id: "",
      created_at: rfc3339(new Date()),
      description: description(body.description) ?? "",
      metadata: metadata(body.metadata) ?? "",
      hostports: hostports === undefined ? null : unclaimedHostports(ctx, "", hostports),
      modules: await modulesOf(body, k.modules),
    };
    edge.id = ctx.store.newId(k.prefix);
    return { status: 201, body: show(await ctx.store.save(collection, edge)) };
  }

  const id = pathId(format, segs[2]!);
  const edge = collection.get(id) ?? throwIt(notFound());
  if (segs.length === 3) {
    if (method === "GET") return { status: 200, body: show(edge) };
    if (method === "DELETE") {
      await ctx.store.remove(collection, id);
      return { status: 204 };
    }
    // PATCH: a module given replaces the current one; one left out (or null) is kept, as
    // in the API, which deletes a module only through its own DELETE.
    onlyFields(body, ["id", ...fields]);
    if (body.id !== undefined && body.id !== null && body.id !== id)
      throw invalid(`id ${JSON.stringify(body.id)} in the body does not match ${JSON.stringify(id)} in the path`);
    const hostports = parseHostports(body.hostports, kind === "tcp");
    const next: TcpTlsEdgeRecord = {
      ...edge,
      description: description(body.description) ?? edge.description,
      metadata: metadata(body.metadata) ?? edge.metadata,
      hostports: hostports === undefined ? edge.hostports : unclaimedHostports(ctx, id, hostports),
      modules: { ...edge.modules, ...(await modulesOf(body, k.modules)) },
    };
    return { status: 200, body: show(await ctx.store.save(collection, next)) };
  }

  // A module: /edges/<kind>/{id}/{module}.
  const name = segs[3]!;
  const current = edge.modules[name];
  if (method === "GET") {
    if (current === undefined) throw notFound();
    return { status: 200, body: renderEdgeModule(ctx, current, name) };
  }
  if (method === "DELETE") {
    if (current !== undefined) {
      const modules = { ...edge.modules };
      delete modules[name];
      await ctx.store.save(collection, { ...edge, modules });
    }
    return { status: 204 };
  }
  const module = parseEdgeModule(body, name);
  if (name === "traffic_policy") await checkModulePolicy(module, name);
  await ctx.store.save(collection, { ...edge, modules: { ...edge.modules, [name]: module } });
  return { status: 200, body: renderEdgeModule(ctx, module, name) };
}

/** The methods of each path depth under /edges/<kind>. */
const ALLOWED: Record<number, string[]> = {
  2: ["GET", "POST"],
  3: ["GET", "PATCH", "DELETE"],
  4: ["GET", "PUT", "DELETE"],
};

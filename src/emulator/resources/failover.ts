// Failover backends: /backends/failover and /backends/failover/{id}.
import {
  FORMATS,
  allow,
  backendId,
  description,
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
import type { FailoverPatch, FailoverRecord } from "../store.js";

export function renderFailover(ctx: Context, r: FailoverRecord) {
  return {
    id: r.id,
    uri: `${ctx.base}/backends/failover/${r.id}`,
    created_at: r.created_at,
    ...described(r),
    backends: r.backends,
  };
}

export async function failover(ctx: Context, r: Request): Promise<Answer | undefined> {
  const { segs, method, path } = r;
  if (segs.length === 2) {
    allow(method, ["GET", "POST"], path);
    if (method === "GET")
      return listPage(ctx, r, {
        collection: ctx.store.failover,
        format: FORMATS.failover,
        key: "backends",
        render: (x) => renderFailover(ctx, x),
      });
    const body = await readJsonObject(r.req);
    return { status: 201, body: renderFailover(ctx, await ctx.store.createFailover(parseCreate(body))) };
  }
  if (segs.length === 3) {
    allow(method, ["GET", "PATCH", "DELETE"], path);
    const id = pathId(FORMATS.failover, segs[2]!);
    if (method === "GET")
      return { status: 200, body: renderFailover(ctx, ctx.store.getFailover(id) ?? throwIt(notFound())) };
    if (method === "DELETE") {
      if (!(await ctx.store.deleteFailover(id))) throw notFound();
      return { status: 204 };
    }
    const patch = parseUpdate(await readJsonObject(r.req));
    return {
      status: 200,
      body: renderFailover(ctx, (await ctx.store.updateFailover(id, patch)) ?? throwIt(notFound())),
    };
  }
  return undefined;
}

const CREATE_FIELDS = ["description", "metadata", "backends"];
// The API's update body also carries the id (the path's id is the one that counts).
const UPDATE_FIELDS = ["id", ...CREATE_FIELDS];

function parseCreate(body: Record<string, unknown>): { backends: string[]; description: string; metadata: string } {
  onlyFields(body, CREATE_FIELDS);
  const backends = backendList(body.backends);
  if (backends === undefined)
    throw invalid("backends is required: give the ids of the child backends, in failover order");
  return { backends, description: description(body.description) ?? "", metadata: metadata(body.metadata) ?? "" };
}

function parseUpdate(body: Record<string, unknown>): FailoverPatch {
  onlyFields(body, UPDATE_FIELDS);
  if (body.id !== undefined && body.id !== null && typeof body.id !== "string") throw invalid("id must be a string");
  const patch: FailoverPatch = {};
  const backends = backendList(body.backends);
  if (backends !== undefined) patch.backends = backends;
  const d = description(body.description);
  if (d !== undefined) patch.description = d;
  const m = metadata(body.metadata);
  if (m !== undefined) patch.metadata = m;
  return patch;
}

function backendList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid("backends must be an array of backend ids");
  if (value.length === 0) throw invalid("backends must list at least one backend");
  return value.map((id, i) => backendId(id, `backends[${i}]`));
}

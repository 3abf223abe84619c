// What a migration reads. With ids: each edge (by its kind), then each backend its routes use
// (failover children as they appear), one GET at a time, each once; a backend given with --map
// is not read. With `all`: by listing only (pages of 100 of each edge and backend kind).
import type { ApiClient } from "../api/client.js";
import { BACKEND_KINDS, backendKindOf, getBackend, listAllBackends, type Backend } from "../api/backends.js";
import { EDGE_KINDS, edgeKindOf, getEdge, listAllEdges, type AnyEdge } from "../api/edges.js";
import { ApiError } from "../errors.js";
import { backendsToRead } from "./plan.js";

export async function readEdges(
  client: ApiClient,
  request: { ids: string[] } | { all: true },
  maps: ReadonlyMap<string, string>,
  progress?: (message: string) => void,
): Promise<{ edges: AnyEdge[]; backends: Map<string, Backend | null> }> {
  const backends = new Map<string, Backend | null>();
  if ("all" in request) {
    const edges: AnyEdge[] = [];
    for (const kind of EDGE_KINDS) {
      progress?.(`reading ${kind} edges`);
      edges.push(...(await listAllEdges(client, kind)));
    }
    for (const kind of BACKEND_KINDS) {
      progress?.(`reading ${kind} backends`);
      for (const backend of await listAllBackends(client, kind))
        backends.set(backend.id as string, { kind, backend } as Backend);
    }
    return { edges, backends };
  }
  const edges: AnyEdge[] = [];
  for (const [i, id] of request.ids.entries()) {
    progress?.(`reading edge ${i + 1}/${request.ids.length}`);
    edges.push(await getEdge(client, edgeKindOf(id)!, id));
  }
  for (let ids = backendsToRead(edges, backends, maps); ids.length > 0; ids = backendsToRead(edges, backends, maps)) {
    for (const id of ids) {
      progress?.(`reading backend ${id}`);
      try {
        backends.set(id, await getBackend(client, backendKindOf(id)!, id));
      } catch (err) {
        // A route may name a backend that is gone: the plan lists it as not migrated.
        if (err instanceof ApiError && err.statusCode === 404) backends.set(id, null);
        else throw err;
      }
    }
  }
  return { edges, backends };
}

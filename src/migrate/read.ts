// What a migration reads: the edges, and every backend they send traffic to (an enabled
// backend module: a route's for HTTPS, the edge's own for TLS and TCP), failover children
// transitively, each once. A backend given with --map is not read (nor looked for).
//
// - With ids: a GET per edge (by the kind its id names), then a GET per backend needed; a
//   backend the API answers 404 for is null (the plan lists it as not migrated).
// - With `all`: listing only, pages of 100, every edge of the three kinds and every backend
//   of the five kinds; never a GET per backend, so an account of thousands of edges costs
//   tens of requests (ngrok allows 120 a minute). A backend referenced but in no list is null.
// Both give the same result for the same edges.
import type { ApiClient } from "../api/client.js";
import { BACKEND_KINDS, backendKindOf, getBackend, listAllBackends, type Backend } from "../api/backends.js";
import { EDGE_KINDS, edgeKindOf, getEdge, listAllEdges, type AnyEdge } from "../api/edges.js";
import { ApiError, UsageError } from "../errors.js";
import { rootBackendIds } from "./modules/backends.js";

export type EdgesRequest = { ids: string[] } | { all: true };

/**
 * Walks from the edges' backends through failover children, asking `lookUp` for each
 * backend once (skipping mapped ids and ids of no backend kind); returns what it answered.
 */
async function collectBackends(
  edges: readonly AnyEdge[],
  maps: ReadonlyMap<string, string>,
  lookUp: (id: string) => Promise<Backend | null>,
): Promise<Map<string, Backend | null>> {
  const found = new Map<string, Backend | null>();
  let wave = edges.flatMap(rootBackendIds);
  while (wave.length > 0) {
    const next: string[] = [];
    for (const id of wave) {
      if (found.has(id) || maps.has(id) || !backendKindOf(id)) continue;
      const backend = await lookUp(id);
      found.set(id, backend);
      if (backend?.kind === "failover") next.push(...backend.backend.backends);
    }
    wave = next;
  }
  return found;
}

export async function readEdges(
  client: ApiClient,
  request: EdgesRequest,
  maps: ReadonlyMap<string, string>,
  progress?: (message: string) => void,
): Promise<{ edges: AnyEdge[]; backends: Map<string, Backend | null> }> {
  if ("ids" in request) {
    const edges: AnyEdge[] = [];
    // An id given twice is read (and planned) once.
    for (const id of new Set(request.ids)) {
      const kind = edgeKindOf(id);
      if (!kind) throw new UsageError(`${id} is not an edge id (edghts_, edgtls_ or edgtcp_)`);
      edges.push(await getEdge(client, kind, id));
    }
    const backends = await collectBackends(edges, maps, async (id) => {
      try {
        return await getBackend(client, backendKindOf(id)!, id);
      } catch (err) {
        // A route may name a backend that is gone: the plan lists it as not migrated.
        if (err instanceof ApiError && err.statusCode === 404) return null;
        throw err;
      }
    });
    return { edges, backends };
  }

  const counts = { https: 0, tls: 0, tcp: 0, backends: 0 };
  const tell = () =>
    progress?.(
      `read ${counts.https} https, ${counts.tls} tls and ${counts.tcp} tcp edges, ${counts.backends} backends…`,
    );
  const edges: AnyEdge[] = [];
  for (const kind of EDGE_KINDS) {
    edges.push(
      ...(await listAllEdges(client, kind, (n) => {
        counts[kind] += n;
        tell();
      })),
    );
  }
  const listed = new Map<string, Backend>();
  for (const kind of BACKEND_KINDS) {
    const items = await listAllBackends(client, kind, (n) => {
      counts.backends += n;
      tell();
    });
    for (const backend of items) listed.set(backend.id as string, { kind, backend } as Backend);
  }
  const backends = await collectBackends(edges, maps, (id) => Promise.resolve(listed.get(id) ?? null));
  return { edges, backends };
}

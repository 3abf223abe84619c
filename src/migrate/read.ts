// What a migration reads: the edge, then each backend its routes use (failover children as
// they appear), one GET at a time, each once. A backend given with --map is not read.
import type { ApiClient } from "../api/client.js";
import { backendKindOf, getBackend, type Backend } from "../api/backends.js";
import { getHttpsEdge, type HttpsEdge } from "../api/edges.js";
import { ApiError } from "../errors.js";
import { backendsToRead } from "./plan.js";

export async function readEdgeAndBackends(
  client: ApiClient,
  edgeId: string,
  maps: ReadonlyMap<string, string>,
): Promise<{ edge: HttpsEdge; backends: Map<string, Backend | null> }> {
  const edge = await getHttpsEdge(client, edgeId);
  const backends = new Map<string, Backend | null>();
  for (let ids = backendsToRead(edge, backends, maps); ids.length > 0; ids = backendsToRead(edge, backends, maps)) {
    for (const id of ids) {
      try {
        backends.set(id, await getBackend(client, backendKindOf(id)!, id));
      } catch (err) {
        // A route may name a backend that is gone: the plan lists it as not migrated.
        if (err instanceof ApiError && err.statusCode === 404) backends.set(id, null);
        else throw err;
      }
    }
  }
  return { edge, backends };
}

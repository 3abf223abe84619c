import * as z from "zod/mini";
import { BACKEND_KINDS, listAllBackends, type BackendKind } from "../../api/backends.js";
import { listAllHttpsEdges, type HttpsEdge } from "../../api/edges.js";
import { shownData } from "../../output/mask.js";
import { renderJson } from "../../output/json.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";

const flags = {
  showSecret: { flag: "--show-secret", help: "print webhook secrets instead of ********", schema: () => z.boolean() },
};
export type ExportOptions = OptionsOf<object, typeof flags>;

export const exportCommand = defineCommand({
  name: "export",
  description: "Print every HTTPS edge (routes and modules included) and every backend as one JSON document",
  flags,
  about: `The backup to take before leaving Edges: every list is read to its last page (GETs only, so
it works on a read-only account). The output is JSON whatever --output says.`,
  examples: [
    "$ edgectl export > edges-backup.json",
    "$ edgectl export | jq -r '.https_edges[].id'",
    "$ edgectl export --show-secret > edges-with-secrets.json && chmod 600 edges-with-secrets.json",
  ],
  run,
});

export async function run(options: ExportOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const backends = {} as Record<BackendKind, Record<string, unknown>[]>;
  let edges: HttpsEdge[];
  try {
    edges = await listAllHttpsEdges(client);
    for (const kind of BACKEND_KINDS) backends[kind] = await listAllBackends(client, kind);
  } finally {
    client.close();
  }
  // Secrets masked by structure: webhook `secret`, OAuth/OIDC `client_secret`, and those inside
  // a route's traffic_policy value (src/output/mask.ts).
  deps.io.stdout.write(renderJson(await shownData({ https_edges: edges, backends }, options.showSecret)));
}

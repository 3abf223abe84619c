import { BACKEND_KINDS, listAllBackends, type BackendKind } from "../../api/backends.js";
import { EDGE_KINDS, listAllEdges, type AnyEdge, type EdgeKind } from "../../api/edges.js";
import { shownData } from "../../output/mask.js";
import { renderData } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { switchValue } from "../input.js";

const flags = {
  showSecret: {
    flag: "--show-secret",
    help: "print webhook secrets, OAuth/OIDC client secrets and policy secrets instead of ********",
    ...switchValue(),
  },
};
export type ExportOptions = OptionsOf<object, typeof flags>;

export const exportCommand = defineCommand({
  name: "export",
  description:
    "Print every HTTPS, TLS and TCP edge (routes and modules included) and every backend as one JSON document",
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
  const edges = {} as Record<EdgeKind, AnyEdge["edge"][]>;
  const backends = {} as Record<BackendKind, Record<string, unknown>[]>;
  try {
    for (const kind of EDGE_KINDS) edges[kind] = (await listAllEdges(client, kind)).map((e) => e.edge);
    for (const kind of BACKEND_KINDS) backends[kind] = await listAllBackends(client, kind);
  } finally {
    client.close();
  }
  // Masked where they stand: webhook secrets, OAuth/OIDC client secrets, and the secrets in
  // every traffic_policy module's policy text; everything else as the API returned it.
  const doc = { https_edges: edges.https, tls_edges: edges.tls, tcp_edges: edges.tcp, backends };
  // JSON unless -o yaml: a backup is data, never a table.
  const format = deps.settings.output === "yaml" ? "yaml" : "json";
  deps.io.stdout.write(renderData(format, await shownData(doc, options.showSecret)));
}

// What migrate reads, and the progress it reports while reading (a line on a terminal only).
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import { progressOn } from "../../src/commands/migrate/edge.js";
import { readEdges } from "../../src/migrate/read.js";
import { fakeDeps } from "../commands/fake-deps.js";
import { backendModule, edge, failover, route, tcpEdge, tunnelGroup } from "./fixtures.js";

/** A client answering GETs from a table of paths, recording them. */
function stubClient(answers: Record<string, unknown>): ApiClient & { paths: string[] } {
  const paths: string[] = [];
  const client = {
    paths,
    requestJson: (_method: string, path: string, parse: (d: unknown) => unknown) => {
      paths.push(path);
      if (!(path in answers)) throw new Error(`unexpected GET ${path}`);
      return Promise.resolve(parse(answers[path]));
    },
  };
  return client as unknown as ApiClient & { paths: string[] };
}

const list = (key: string, items: unknown[]) => ({ [key]: items, uri: "u", next_page_uri: null });

describe("readEdges", () => {
  it("with ids: each edge by its kind, then the backends they use, each once, reporting progress", async () => {
    const client = stubClient({
      "/edges/https/edghts_1": edge([route("edghtsrt_1", "path_prefix", "/", "bkdfo_1")]),
      "/edges/tcp/edgtcp_1": tcpEdge({ backend: backendModule("bkdtg_a") }),
      "/backends/failover/bkdfo_1": failover("bkdfo_1", ["bkdtg_a", "bkdtg_a"]),
      "/backends/tunnel_group/bkdtg_a": tunnelGroup("bkdtg_a", { s: "a" }),
    });
    const messages: string[] = [];
    const read = await readEdges(client, { ids: ["edghts_1", "edgtcp_1"] }, new Map(), (m) => messages.push(m));
    expect(client.paths).toEqual([
      "/edges/https/edghts_1",
      "/edges/tcp/edgtcp_1",
      "/backends/failover/bkdfo_1",
      "/backends/tunnel_group/bkdtg_a",
    ]);
    expect(read.edges.map((e) => [e.kind, e.edge.id])).toEqual([
      ["https", "edghts_1"],
      ["tcp", "edgtcp_1"],
    ]);
    expect([...read.backends.keys()]).toEqual(["bkdfo_1", "bkdtg_a"]);
    expect(messages).toEqual([
      "reading edge 1/2",
      "reading edge 2/2",
      "reading backend bkdfo_1",
      "reading backend bkdtg_a",
    ]);
  });

  it("with all: by listing each edge and backend kind only", async () => {
    const kinds = ["failover", "tunnel_group", "http_response", "weighted", "static"];
    const client = stubClient({
      "/edges/https?limit=100": list("https_edges", [edge([])]),
      "/edges/tls?limit=100": list("tls_edges", []),
      "/edges/tcp?limit=100": list("tcp_edges", []),
      ...Object.fromEntries(
        kinds.map((k) => [
          `/backends/${k}?limit=100`,
          list("backends", k === "tunnel_group" ? [tunnelGroup("bkdtg_a", { s: "a" })] : []),
        ]),
      ),
    });
    const read = await readEdges(client, { all: true }, new Map());
    expect(client.paths).toEqual([
      "/edges/https?limit=100",
      "/edges/tls?limit=100",
      "/edges/tcp?limit=100",
      ...kinds.map((k) => `/backends/${k}?limit=100`),
    ]);
    expect(read.backends.get("bkdtg_a")?.kind).toBe("tunnel_group");
  });
});

describe("the progress line", () => {
  it("is drawn on a terminal, one line redrawn, and cleared at the end", () => {
    const deps = fakeDeps();
    deps.err.isTTY = true;
    const progress = progressOn(deps);
    progress.update!("reading edge 1/2");
    progress.update!("reading edge 2/2");
    progress.done();
    expect(deps.err.text).toBe("\r\x1b[2Kreading edge 1/2\r\x1b[2Kreading edge 2/2\r\x1b[2K");
    expect(deps.out.text).toBe("");
  });

  it("stays quiet off a terminal", () => {
    const deps = fakeDeps();
    const progress = progressOn(deps);
    expect(progress.update).toBeUndefined();
    progress.done();
    expect(deps.err.text).toBe("");
  });
});

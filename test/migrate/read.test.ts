// readEdges against a started emulator, counting the requests the emulator receives: by id
// (a GET per edge and per backend needed, each once) and `all` (listing only, pages of 100).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { readEdges } from "../../src/migrate/read.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator;
let client: ApiClient;
beforeEach(async () => {
  emu = await startEmulator({ port: 0 });
  client = new ApiClient({ baseUrl: emu.url, apiKey: "test-key", timeoutMs: 30_000, retries: 0 });
});
afterEach(async () => {
  client.close();
  await emu.close();
});

async function post(path: string, body: unknown): Promise<string> {
  const r = await call(emu.url, "POST", path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  return r.json.id as string;
}

/** An account: an HTTPS edge whose routes use a failover chain, a TLS and a TCP edge. */
async function seed() {
  const tg = await post("/backends/tunnel_group", { labels: { app: "web" } });
  const hr = await post("/backends/http_response", { body: "down", status_code: 503 });
  const mapped = await post("/backends/static", { address: "10.0.0.1:80" });
  const inner = await post("/backends/failover", { backends: [hr, "bkdtg_gone"] });
  const outer = await post("/backends/failover", { backends: [tg, inner, mapped] });
  const unused = await post("/backends/weighted", { backends: { [tg]: 1 } });
  const https = await post("/edges/https", { hostports: ["a.example.com:443"] });
  await post(`/edges/https/${https}/routes`, { match_type: "path_prefix", match: "/", backend: { backend_id: outer } });
  await post(`/edges/https/${https}/routes`, {
    match_type: "exact_path",
    match: "/off",
    backend: { backend_id: unused, enabled: false },
  });
  const tls = await post("/edges/tls", { hostports: ["b.example.com:443"], backend: { backend_id: tg } });
  const tcp = await post("/edges/tcp", { hostports: ["1.tcp.ngrok.io:2000"], backend: { backend_id: "bkdhr_gone" } });
  return { tg, hr, mapped, inner, outer, unused, https, tls, tcp };
}

describe("readEdges with ids", () => {
  it("GETs each edge (once) by its kind and each backend it needs once, transitively; 404 is null; mapped ones are not read", async () => {
    const a = await seed();
    const maps = new Map([[a.mapped, "https://mapped.internal"]]);
    const before = emu.requests();
    const { edges, backends } = await readEdges(client, { ids: [a.https, a.tls, a.tcp, a.https] }, maps);
    expect(edges.map((e) => [e.kind, e.edge.id])).toEqual([
      ["https", a.https],
      ["tls", a.tls],
      ["tcp", a.tcp],
    ]);
    expect(new Set(backends.keys())).toEqual(new Set([a.outer, a.tg, a.inner, a.hr, "bkdtg_gone", "bkdhr_gone"]));
    expect(backends.get("bkdtg_gone")).toBeNull();
    expect(backends.get("bkdhr_gone")).toBeNull();
    expect(backends.get(a.inner)).toMatchObject({ kind: "failover", backend: { backends: [a.hr, "bkdtg_gone"] } });
    expect(backends.has(a.mapped)).toBe(false);
    expect(backends.has(a.unused)).toBe(false); // only a disabled backend module names it
    // 3 edges + 6 backends, the tunnel group (used twice) read once.
    expect(emu.requests() - before).toBe(9);
  });
});

describe("readEdges with all", () => {
  it("reads by listing only (one page per kind here) and gives what reading by id gives", async () => {
    const a = await seed();
    const maps = new Map([[a.mapped, "https://mapped.internal"]]);
    const messages: string[] = [];
    const before = emu.requests();
    const all = await readEdges(client, { all: true }, maps, (m) => messages.push(m));
    // 3 edge lists + 5 backend lists, whatever the number of backends.
    expect(emu.requests() - before).toBe(8);
    expect(messages).toHaveLength(8);
    expect(messages.at(-1)).toBe("read 1 https, 1 tls and 1 tcp edges, 6 backends…");
    const byId = await readEdges(client, { ids: all.edges.map((e) => e.edge.id) }, maps);
    expect(all.edges).toEqual(byId.edges);
    expect(all.backends).toEqual(byId.backends);
  });

  it("follows every page of 100: 250 backends and 120 TCP edges in 11 pages, no GET per backend", async () => {
    const hr = await post("/backends/http_response", { body: "x" });
    const ids: string[] = [];
    for (let i = 0; i < 249; i++) ids.push(await post("/backends/http_response", { body: String(i) }));
    for (let i = 0; i < 120; i++)
      await post("/edges/tcp", { hostports: [`1.tcp.ngrok.io:${3000 + i}`], backend: { backend_id: ids[i % 249] } });
    await post("/edges/tls", { backend: { backend_id: hr } });
    const before = emu.requests();
    const messages: string[] = [];
    const { edges, backends } = await readEdges(client, { all: true }, new Map(), (m) => messages.push(m));
    // https 1, tls 1, tcp 2, failover 1, tunnel_group 1, http_response 3, weighted 1, static 1.
    expect(emu.requests() - before).toBe(11);
    expect(messages).toHaveLength(11);
    expect(messages.at(-1)).toBe("read 0 https, 1 tls and 120 tcp edges, 250 backends…");
    expect(edges.filter((e) => e.kind === "tcp")).toHaveLength(120);
    expect(backends.size).toBe(121);
    expect([...backends.values()].every((b) => b?.kind === "http_response")).toBe(true);
  });
});

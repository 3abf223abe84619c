// The bench's large account (bench/account.mjs: 1,000 edges, 3,000 backends, loaded from a
// state file) read with readEdges({all}): 41 requests, far within ngrok's 120 a minute.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs bench helper without types
import { seedAccount } from "../../bench/account.mjs";
import { ApiClient } from "../../src/api/client.js";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { readEdges } from "../../src/migrate/read.js";

let dir: string;
let emu: Emulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "edgectl-large-"));
  writeFileSync(join(dir, "state.json"), (seedAccount as () => string)());
  emu = await startEmulator({ port: 0, stateFile: join(dir, "state.json") });
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

it("reads 1,000 edges and the backends they use by listing, in 41 requests", async () => {
  const client = new ApiClient({ baseUrl: emu.url, apiKey: "k", timeoutMs: 60_000, retries: 0 });
  try {
    const progress: string[] = [];
    const { edges, backends } = await readEdges(client, { all: true }, new Map(), (m) => progress.push(m));
    // https 7 + tls 2 + tcp 1 pages; failover 10, tunnel_group 10, http_response 5, weighted 3, static 3.
    expect(emu.requests()).toBe(41);
    expect(progress.at(-1)).toBe("read 700 https, 200 tls and 100 tcp edges, 3000 backends…");
    expect(edges).toHaveLength(1000);
    expect([...backends.values()].every((b) => b !== null)).toBe(true);
    // Every failover, its children, and the TCP edges' tunnel groups.
    expect(backends.size).toBe(900 + 900 + 500 + 100);
  } finally {
    client.close();
  }
});

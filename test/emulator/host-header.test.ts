// The emulator answers only to its own name (issue 25): a page that rebinds a DNS name to
// 127.0.0.1 reaches the port with its own name in `Host`, and gets 400, never the state; links
// are built from the emulator's own address, whatever `Host` says.
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call, makeRoute, rawRequest } from "../helpers/emulator.js";

let emu: Emulator;
let port: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  port = new URL(emu.url).port;
});
afterAll(async () => {
  await emu.close();
});

const get = (base: string, path: string, host: string, method = "GET", body?: string) =>
  rawRequest(base, {
    method,
    path,
    headers: {
      Host: host,
      Authorization: "Bearer k",
      "Ngrok-Version": "2",
      ...(body !== undefined ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });

describe("the Host header", () => {
  it("refuses a name that is not a loopback name or its address with 400, answering nothing of the state", async () => {
    const made = await makeRoute(emu.url);
    await call(emu.url, "PUT", made.webhook, { body: { provider: "github", secret: "rebind-secret" } });
    for (const host of [
      `rebind.example.com:${port}`,
      "rebind.example.com",
      `attacker.test:${port}`,
      `127.0.0.1.nip.io:${port}`,
    ]) {
      for (const path of [made.webhook, made.path, "/edges/https", "/backends/failover", "/nowhere"]) {
        const r = await get(emu.url, path, host);
        expect([host, path, r.status]).toEqual([host, path, 400]);
        expect(r.text).not.toContain("rebind-secret");
        expect(r.text).not.toContain(made.edgeId);
        expect(JSON.parse(r.text).msg).toMatch(/Host/);
      }
    }
    // A write from such a page changes nothing.
    const before = (await call(emu.url, "GET", "/backends/failover")).json.backends.length;
    const w = await get(
      emu.url,
      "/backends/failover",
      `rebind.example.com:${port}`,
      "POST",
      '{"backends":["bkdhr_a"]}',
    );
    expect(w.status).toBe(400);
    expect((await call(emu.url, "GET", "/backends/failover")).json.backends.length).toBe(before);
  });

  it("answers its own address and loopback names, whatever the port or letter case", async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      "127.0.0.1",
      `localhost:${port}`,
      `LocalHost:${port}`,
      `localhost.:${port}`,
      `app.localhost:${port}`,
      `[::1]:${port}`,
      "127.1.2.3:1",
      `[::ffff:127.0.0.1]:${port}`,
    ]) {
      const r = await get(emu.url, "/backends/failover", host);
      expect([host, r.status]).toEqual([host, 200]);
    }
  });

  it("builds links from its own address, not from Host", async () => {
    await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
    await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_b"] } });
    const r = await get(emu.url, "/backends/failover?limit=1", `localhost:${port}`);
    const body = JSON.parse(r.text);
    expect(body.uri).toBe(`${emu.url}/backends/failover?limit=1`);
    expect(body.next_page_uri.startsWith(`${emu.url}/backends/failover?before_id=`)).toBe(true);
    expect(body.backends[0].uri.startsWith(`${emu.url}/backends/failover/bkdfo_`)).toBe(true);
  });

  it("listening on every interface, answers to this machine's addresses, still not to another name", async () => {
    const wide = await startEmulator({ host: "0.0.0.0", port: 0 });
    try {
      const p = new URL(wide.url).port;
      const mine = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a !== undefined && a.family === "IPv4")
        .map((a) => a!.address);
      for (const address of mine)
        expect([address, (await get(wide.url, "/endpoints", `${address}:${p}`)).status]).toEqual([address, 200]);
      expect((await get(wide.url, "/endpoints", `rebind.example.com:${p}`)).status).toBe(400);
      expect((await get(wide.url, "/endpoints", `0.0.0.0:${p}`)).status).toBe(200);
    } finally {
      await wide.close();
    }
  });
});

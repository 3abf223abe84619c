// An account after the Edges sunset: --edges retired (ERR_NGROK_7008) and read-only (7196).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../helpers/emulator-states.js";
import { call, makeRoute } from "../helpers/emulator.js";

let dir: string;
let file: string;
/** Made while Edges were active, saved to `file`. */
let made: { edgeId: string; routeId: string; path: string; webhook: string; failover: string; weighted: string };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "edgectl-edges-mode-"));
  file = join(dir, "state.json");
  const active = await startEmulator({ port: 0, stateFile: file });
  try {
    const route = await makeRoute(active.url);
    await call(active.url, "PUT", route.webhook, { body: { provider: "sns" } });
    const failover = (await call(active.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } })).json
      .id;
    const weighted = (await call(active.url, "POST", "/backends/weighted", { body: { backends: { bkdhr_a: 1 } } })).json
      .id;
    made = { ...route, failover, weighted };
  } finally {
    await active.close();
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const POLICY = '{"on_http_request":[{"actions":[{"type":"deny"}]}]}';

describe("--edges read-only", () => {
  it("reads edges, routes, modules and backends as before", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file, edges: "read-only" });
    try {
      for (const path of [
        "/edges/https",
        `/edges/https/${made.edgeId}`,
        made.path,
        made.webhook,
        "/backends/failover",
        `/backends/failover/${made.failover}`,
        `/backends/weighted/${made.weighted}`,
      ]) {
        expect((await call(emu.url, "GET", path)).status, path).toBe(200);
      }
    } finally {
      await emu.close();
    }
  });

  it("answers every write there with 403 ERR_NGROK_7196 and changes nothing", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file, edges: "read-only" });
    try {
      const writes: [string, string, unknown?][] = [
        ["POST", "/edges/https", {}],
        ["PATCH", `/edges/https/${made.edgeId}`, { description: "x" }],
        ["DELETE", `/edges/https/${made.edgeId}`],
        ["POST", `/edges/https/${made.edgeId}/routes`, { match_type: "path_prefix", match: "/" }],
        ["PUT", made.webhook, { provider: "github", secret: "s" }],
        ["DELETE", made.webhook],
        ["POST", "/backends/failover", { backends: ["bkdhr_a"] }],
        ["DELETE", `/backends/failover/${made.failover}`],
        ["POST", "/backends/tunnel_group", { labels: { a: "b" } }],
      ];
      for (const [method, path, body] of writes) {
        const r = await call(emu.url, method, path, body === undefined ? {} : { body });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.json).toMatchObject({ error_code: "ERR_NGROK_7196", status_code: 403 });
        expect(r.json.msg).toMatch(/read-only access to Edges/);
      }
      expect((await call(emu.url, "GET", made.webhook)).json).toEqual({ enabled: true, provider: "sns", secret: "" });
      expect((await call(emu.url, "GET", `/backends/failover/${made.failover}`)).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it("leaves /endpoints writable", async () => {
    const emu = await startEmulator({ port: 0, edges: "read-only" });
    try {
      const r = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: "https://ro.example.com", traffic_policy: POLICY },
      });
      expect(r.status).toBe(201);
      expect((await call(emu.url, "DELETE", `/endpoints/${r.json.id}`)).status).toBe(204);
    } finally {
      await emu.close();
    }
  });
});

describe("--edges retired", () => {
  it("answers every request under /edges and /backends, reads too, with 403 ERR_NGROK_7008", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file, edges: "retired" });
    try {
      for (const [method, path] of [
        ["GET", "/edges/https"],
        ["GET", made.webhook],
        ["GET", "/backends/failover"],
        ["GET", `/backends/weighted/${made.weighted}`],
        ["POST", "/edges/https"],
        ["DELETE", `/backends/failover/${made.failover}`],
      ] as const) {
        const r = await call(emu.url, method, path, method === "POST" ? { body: {} } : {});
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.json).toMatchObject({ error_code: "ERR_NGROK_7008", status_code: 403 });
        expect(r.json.msg).toMatch(/Edges are deprecated and no longer available/);
      }
    } finally {
      await emu.close();
    }
  });

  it("still serves /endpoints", async () => {
    const emu = await startEmulator({ port: 0, edges: "retired" });
    try {
      expect(
        (
          await call(emu.url, "POST", "/endpoints", {
            body: { type: "cloud", url: "https://gone.example.com", traffic_policy: POLICY },
          })
        ).status,
      ).toBe(201);
      expect((await call(emu.url, "GET", "/endpoints")).json.endpoints).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });

  it("keeps the saved edges: an active emulator on the same file still has them", async () => {
    const retired = await startEmulator({ port: 0, stateFile: file, edges: "retired" });
    await retired.close();
    const active = await startEmulator({ port: 0, stateFile: file });
    try {
      expect((await call(active.url, "GET", made.path)).status).toBe(200);
    } finally {
      await active.close();
    }
  });
});

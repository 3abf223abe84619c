// TLS and TCP edges and their modules, over real HTTP: what the API does and what it refuses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator/server.js";
import { startEmulator } from "../helpers/emulator-states.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

const TLS_MODULES = ["backend", "ip_restriction", "mutual_tls", "tls_termination", "traffic_policy"];
const TCP_MODULES = ["backend", "ip_restriction", "traffic_policy"];

describe("TLS edges", () => {
  it("creates an edgtls_ edge with every module present as null, and lists it under tls_edges", async () => {
    const r = await call(emu.url, "POST", "/edges/tls", {
      body: { description: "db", hostports: ["db.example.com:443"] },
    });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^edgtls_[A-Za-z0-9]{27}$/);
    expect(r.json).toMatchObject({ description: "db", hostports: ["db.example.com:443"], policy: null });
    expect("metadata" in r.json).toBe(false);
    for (const m of TLS_MODULES) expect(r.json[m]).toBeNull();
    expect(r.json.uri).toBe(`${emu.url}/edges/tls/${r.json.id}`);
    const list = await call(emu.url, "GET", "/edges/tls");
    expect(list.status).toBe(200);
    expect(list.json.tls_edges.map((e: { id: string }) => e.id)).toContain(r.json.id);
    expect(list.json.next_page_uri).toBeNull();
  });

  it("shows modules with references as {id, uri}, replaces, reads and deletes them by path", async () => {
    const r = await call(emu.url, "POST", "/edges/tls", {
      body: {
        hostports: ["mods.example.com:443"],
        backend: { backend_id: "bkdtg_1" },
        ip_restriction: { ip_policy_ids: ["ipp_1"] },
        mutual_tls: { certificate_authority_ids: ["ca_1"] },
        tls_termination: { terminate_at: "edge", min_version: "1.3" },
        traffic_policy: { value: '{"on_tcp_connect":[]}' },
      },
    });
    expect(r.status).toBe(201);
    const id = r.json.id as string;
    expect(r.json.backend).toEqual({
      enabled: true,
      backend: { id: "bkdtg_1", uri: `${emu.url}/backends/tunnel_group/bkdtg_1` },
    });
    expect(r.json.ip_restriction).toEqual({
      enabled: true,
      ip_policies: [{ id: "ipp_1", uri: `${emu.url}/ip_policies/ipp_1` }],
    });
    expect(r.json.mutual_tls.certificate_authorities).toEqual([
      { id: "ca_1", uri: `${emu.url}/certificate_authorities/ca_1` },
    ]);
    expect(r.json.tls_termination).toEqual({ enabled: true, terminate_at: "edge", min_version: "1.3" });
    expect(r.json.traffic_policy).toEqual({ enabled: true, value: '{"on_tcp_connect":[]}' });

    const put = await call(emu.url, "PUT", `/edges/tls/${id}/backend`, {
      body: { backend_id: "bkdhr_2", enabled: false },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      enabled: false,
      backend: { id: "bkdhr_2", uri: `${emu.url}/backends/http_response/bkdhr_2` },
    });
    expect((await call(emu.url, "GET", `/edges/tls/${id}/backend`)).json).toEqual(put.json);
    const del = await call(emu.url, "DELETE", `/edges/tls/${id}/backend`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(emu.url, "GET", `/edges/tls/${id}/backend`)).status).toBe(404);
    expect((await call(emu.url, "GET", `/edges/tls/${id}`)).json.backend).toBeNull();
  });

  it("PATCH replaces the modules given and keeps the others", async () => {
    const r = await call(emu.url, "POST", "/edges/tls", {
      body: { backend: { backend_id: "bkdsc_1" }, traffic_policy: { value: "on_tcp_connect: []" } },
    });
    const p = await call(emu.url, "PATCH", `/edges/tls/${r.json.id}`, {
      body: { metadata: "m", traffic_policy: { value: "on_tcp_connect: [{actions: [{type: deny}]}]" } },
    });
    expect(p.status).toBe(200);
    expect(p.json.metadata).toBe("m");
    expect(p.json.backend.backend.id).toBe("bkdsc_1");
    expect(p.json.traffic_policy.value).toContain("deny");
  });

  it("refuses what ngrok refuses: unknown fields, bad ids, a bad TLS termination, a taken hostport", async () => {
    const bad = async (body: unknown, code: string) => {
      const r = await call(emu.url, "POST", "/edges/tls", { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error_code).toBe(code);
    };
    await bad({ routes: [] }, "ERR_NGROK_214");
    await bad({ backend: { backend_id: "nope" } }, "ERR_NGROK_242");
    await bad({ backend: {} }, "ERR_NGROK_215");
    await bad({ ip_restriction: { ip_policy_ids: ["ca_1"] } }, "ERR_NGROK_227");
    await bad({ tls_termination: { terminate_at: "upstream", min_version: "1.2" } }, "ERR_NGROK_215");
    await bad({ tls_termination: { terminate_at: "somewhere" } }, "ERR_NGROK_215");
    await bad({ traffic_policy: { value: "" } }, "ERR_NGROK_215");
    await bad({ traffic_policy: { value: "[1, 2" } }, "ERR_NGROK_215");
    await bad({ traffic_policy: { value: '{"on_connect": []}' } }, "ERR_NGROK_215");
    await bad({ hostports: ["no-port.example.com"] }, "ERR_NGROK_215");
    await call(emu.url, "POST", "/edges/https", { body: { hostports: ["taken.example.com:443"] } });
    await bad({ hostports: ["taken.example.com:443"] }, "ERR_NGROK_7122");
    expect((await call(emu.url, "GET", "/edges/tls/edgtls_missing")).status).toBe(404);
    expect((await call(emu.url, "GET", "/edges/tls/edghts_wrongkind")).json.error_code).toBe("ERR_NGROK_227");
    expect(
      (await call(emu.url, "PUT", "/edges/tls/edgtls_missing/backend", { body: { backend_id: "bkdhr_1" } })).status,
    ).toBe(404);
  });
});

describe("TCP edges", () => {
  it("creates an edgtcp_ edge (hostports null when none), without TLS modules", async () => {
    const r = await call(emu.url, "POST", "/edges/tcp", { body: { description: "ssh" } });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^edgtcp_[A-Za-z0-9]{27}$/);
    expect(r.json.hostports).toBeNull();
    for (const m of TCP_MODULES) expect(r.json[m]).toBeNull();
    expect("mutual_tls" in r.json).toBe(false);
    expect("tls_termination" in r.json).toBe(false);
    expect((await call(emu.url, "GET", `/edges/tcp/${r.json.id}/mutual_tls`)).status).toBe(404);
    const list = await call(emu.url, "GET", "/edges/tcp?limit=1");
    expect(list.json.tcp_edges).toHaveLength(1);
  });

  it("takes only reserved TCP addresses as hostports", async () => {
    const ok = await call(emu.url, "POST", "/edges/tcp", { body: { hostports: ["1.tcp.ngrok.io:12345"] } });
    expect(ok.status).toBe(201);
    const bad = await call(emu.url, "POST", "/edges/tcp", { body: { hostports: ["example.com:22"] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe("ERR_NGROK_215");
    const taken = await call(emu.url, "POST", "/edges/tcp", { body: { hostports: ["1.tcp.ngrok.io:12345"] } });
    expect(taken.json.error_code).toBe("ERR_NGROK_7122");
    const del = await call(emu.url, "DELETE", `/edges/tcp/${ok.json.id}`);
    expect(del.status).toBe(204);
    expect((await call(emu.url, "GET", `/edges/tcp/${ok.json.id}`)).status).toBe(404);
  });
});

describe("TLS and TCP edges after the sunset, and in the state file", () => {
  it("--edges read-only reads them and refuses writes with 7196; retired answers 7008", async () => {
    const dir = mkdtempSync(join(tmpdir(), "edgectl-tcptls-"));
    try {
      const state = join(dir, "state.json");
      const first = await startEmulator({ port: 0, stateFile: state });
      const tls = await call(first.url, "POST", "/edges/tls", { body: { backend: { backend_id: "bkdtg_1" } } });
      const tcp = await call(first.url, "POST", "/edges/tcp", { body: { hostports: ["2.tcp.ngrok.io:2222"] } });
      await first.close();

      const ro = await startEmulator({ port: 0, stateFile: state, edges: "read-only" });
      try {
        expect((await call(ro.url, "GET", `/edges/tls/${tls.json.id}`)).json.backend.backend.id).toBe("bkdtg_1");
        expect((await call(ro.url, "GET", "/edges/tcp")).json.tcp_edges[0].hostports).toEqual(["2.tcp.ngrok.io:2222"]);
        for (const [method, path] of [
          ["POST", "/edges/tcp"],
          ["PATCH", `/edges/tls/${tls.json.id}`],
          ["DELETE", `/edges/tcp/${tcp.json.id}`],
          ["PUT", `/edges/tls/${tls.json.id}/backend`],
        ] as const) {
          const r = await call(ro.url, method, path, method === "DELETE" ? {} : { body: {} });
          expect(r.status).toBe(403);
          expect(r.json.error_code).toBe("ERR_NGROK_7196");
        }
      } finally {
        await ro.close();
      }
      const gone = await startEmulator({ port: 0, stateFile: state, edges: "retired" });
      try {
        expect((await call(gone.url, "GET", "/edges/tls")).json.error_code).toBe("ERR_NGROK_7008");
      } finally {
        await gone.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

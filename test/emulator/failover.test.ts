// The Failover backend endpoints of the emulator, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call, rawRequest } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await emu.close();
});

const create = (body: unknown) => call(emu.url, "POST", "/backends/failover", { body });

function expectErrorBody(r: { status: number; headers: Headers; json: unknown }, status: number, code?: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/json");
  const body = r.json as Record<string, unknown>;
  expect(body.status_code).toBe(status);
  expect(typeof body.msg).toBe("string");
  expect((body.details as { operation_id: string }).operation_id).toMatch(/^op_[A-Za-z0-9]{27}$/);
  if (code) expect(body.error_code).toBe(code);
  return body as { msg: string; error_code?: string };
}

describe("POST /backends/failover", () => {
  it("creates a backend and answers 201 with the resource, an empty description and metadata left out", async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await create({ backends: ["bkdhr_primary", "bkdtg_standby"] });
    const after = Date.now();
    expect(r.status).toBe(201);
    expect(r.headers.get("content-type")).toBe("application/json");
    // As the API shows it: an empty description or metadata is left out, not "".
    expect(Object.keys(r.json)).toEqual(["id", "uri", "created_at", "backends"]);
    expect(r.json.id).toMatch(/^bkdfo_[0-9A-Za-z]{27}$/);
    expect(r.json.uri).toBe(`${emu.url}/backends/failover/${r.json.id}`);
    expect(r.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Made while the request was under way (RFC 3339 to the second), not a duration measured.
    expect(Date.parse(r.json.created_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(r.json.created_at)).toBeLessThanOrEqual(after);
    expect(r.json.backends).toEqual(["bkdhr_primary", "bkdtg_standby"]);
  });

  it("keeps the description, metadata and backend order given", async () => {
    const r = await create({
      backends: ["bkdwd_c", "bkdhr_a", "bkdfo_b"],
      description: "eu pair ✓",
      metadata: '{"team":"edge"}',
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      description: "eu pair ✓",
      metadata: '{"team":"edge"}',
      backends: ["bkdwd_c", "bkdhr_a", "bkdfo_b"],
    });
  });

  it("gives every backend a different id", async () => {
    const a = await create({ backends: ["bkdhr_a"] });
    const b = await create({ backends: ["bkdhr_a"] });
    expect(a.json.id).not.toBe(b.json.id);
  });

  it("refuses a body without backends, naming the field", async () => {
    const body = expectErrorBody(await create({ description: "x" }), 400, "ERR_NGROK_215");
    expect(body.msg).toMatch(/backends/);
  });

  it("refuses an empty backends list", async () => {
    const body = expectErrorBody(await create({ backends: [] }), 400);
    expect(body.msg).toMatch(/backends.*at least one/);
  });

  it.each([["bkd_x"], ["bkdHR_a"], ["bkdhr_"], ["bkdhr_a-b"], [`bkdhr_${"a".repeat(65)}`], ["edghts_a"]])(
    "refuses the malformed child backend id %s with ERR_NGROK_242",
    async (id) => {
      const body = expectErrorBody(await create({ backends: ["bkdhr_ok", id] }), 400, "ERR_NGROK_242");
      expect(body.msg).toContain("backends[1]");
    },
  );

  it("accepts a child id with a 64-character tail", async () => {
    expect((await create({ backends: [`bkdtg_${"Z9".repeat(32)}`] })).status).toBe(201);
  });

  it("refuses backends that are not a list of strings", async () => {
    expectErrorBody(await create({ backends: "bkdhr_a" }), 400, "ERR_NGROK_215");
    const body = expectErrorBody(await create({ backends: ["bkdhr_a", 7] }), 400, "ERR_NGROK_215");
    expect(body.msg).toContain("backends[1]");
  });

  it("accepts a description of exactly 255 UTF-8 bytes and refuses 256, naming the field", async () => {
    expect((await create({ backends: ["bkdhr_a"], description: "é".repeat(127) + "x" })).status).toBe(201);
    const body = expectErrorBody(
      await create({ backends: ["bkdhr_a"], description: "é".repeat(128) }),
      400,
      "ERR_NGROK_215",
    );
    expect(body.msg).toMatch(/description/);
  });

  it("accepts metadata of exactly 4096 bytes and refuses 4097 with ERR_NGROK_100", async () => {
    expect((await create({ backends: ["bkdhr_a"], metadata: "m".repeat(4096) })).status).toBe(201);
    const body = expectErrorBody(
      await create({ backends: ["bkdhr_a"], metadata: "m".repeat(4095) + "é" }),
      400,
      "ERR_NGROK_100",
    );
    expect(body.msg).toMatch(/metadata/);
  });

  it("refuses a description or metadata that is not a string", async () => {
    expect(expectErrorBody(await create({ backends: ["bkdhr_a"], description: 5 }), 400).msg).toMatch(/description/);
    expect(expectErrorBody(await create({ backends: ["bkdhr_a"], metadata: {} }), 400).msg).toMatch(/metadata/);
  });

  it("refuses an unknown field with ERR_NGROK_214, naming it", async () => {
    const body = expectErrorBody(await create({ backends: ["bkdhr_a"], colour: "red" }), 400, "ERR_NGROK_214");
    expect(body.msg).toContain("colour");
  });

  it("refuses malformed JSON and a body that is not an object with ERR_NGROK_213", async () => {
    expectErrorBody(
      await call(emu.url, "POST", "/backends/failover", { rawBody: '{"backends": [' }),
      400,
      "ERR_NGROK_213",
    );
    expectErrorBody(
      await call(emu.url, "POST", "/backends/failover", { rawBody: '["bkdhr_a"]' }),
      400,
      "ERR_NGROK_213",
    );
  });

  it("reads the body as JSON whatever its Content-Type says", async () => {
    const r = await call(emu.url, "POST", "/backends/failover", {
      rawBody: '{"backends":["bkdhr_a"]}',
      headers: { "Content-Type": "text/plain" },
    });
    expect(r.status).toBe(201);
  });
});

describe("GET /backends/failover/{id}", () => {
  it("answers 200 with the resource as created", async () => {
    const created = await create({ backends: ["bkdhr_a"], description: "get me" });
    const r = await call(emu.url, "GET", `/backends/failover/${created.json.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual(created.json);
  });

  it("answers 404 for an id that does not exist, with the API's not-found body", async () => {
    const body = expectErrorBody(await call(emu.url, "GET", "/backends/failover/bkdfo_nothere"), 404);
    expect(body.msg).toBe("Resource not found");
    expect(body.error_code).toBeUndefined();
  });

  it("percent-decodes the id in the path", async () => {
    const created = await create({ backends: ["bkdhr_a"] });
    const id: string = created.json.id;
    const encoded = `bkdfo%5F${id.slice(6)}`;
    expect((await call(emu.url, "GET", `/backends/failover/${encoded}`)).json.id).toBe(id);
  });

  it.each([["not-an-id"], ["bkdhr_abc"], ["bkdfo_a%2Fb"], ["bkdfo_%zz"]])(
    "answers 400 ERR_NGROK_227 for the malformed id %s",
    async (id) => {
      expectErrorBody(await call(emu.url, "GET", `/backends/failover/${id}`), 400, "ERR_NGROK_227");
    },
  );

  it("ignores a body sent with GET", async () => {
    const created = await create({ backends: ["bkdhr_a"] });
    const r = await rawRequest(emu.url, {
      method: "GET",
      path: `/backends/failover/${created.json.id}`,
      headers: { Authorization: "Bearer k", "Ngrok-Version": "2", "Content-Type": "application/json" },
      body: "not json at all",
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text).id).toBe(created.json.id);
  });
});

describe("PATCH /backends/failover/{id}", () => {
  it("changes only the fields given", async () => {
    const created = await create({ backends: ["bkdhr_a"], description: "old", metadata: "keep" });
    const r = await call(emu.url, "PATCH", `/backends/failover/${created.json.id}`, { body: { description: "new" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ...created.json, description: "new" });
    const r2 = await call(emu.url, "PATCH", `/backends/failover/${created.json.id}`, {
      body: { backends: ["bkdtg_b", "bkdhr_a"] },
    });
    expect(r2.json).toEqual({ ...created.json, description: "new", backends: ["bkdtg_b", "bkdhr_a"] });
    expect((await call(emu.url, "GET", `/backends/failover/${created.json.id}`)).json).toEqual(r2.json);
  });

  it("can set a description to empty", async () => {
    const created = await create({ backends: ["bkdhr_a"], description: "x" });
    const r = await call(emu.url, "PATCH", `/backends/failover/${created.json.id}`, { body: { description: "" } });
    expect(r.status).toBe(200);
    expect("description" in r.json).toBe(false);
  });

  it("accepts the id in the body, as the API's update body carries it", async () => {
    const created = await create({ backends: ["bkdhr_a"] });
    const r = await call(emu.url, "PATCH", `/backends/failover/${created.json.id}`, {
      body: { id: created.json.id, metadata: "m" },
    });
    expect(r.status).toBe(200);
    expect(r.json.metadata).toBe("m");
  });

  it("validates like create: empty backends, long metadata, unknown fields", async () => {
    const { json } = await create({ backends: ["bkdhr_a"] });
    const path = `/backends/failover/${json.id}`;
    expectErrorBody(await call(emu.url, "PATCH", path, { body: { backends: [] } }), 400, "ERR_NGROK_215");
    expectErrorBody(await call(emu.url, "PATCH", path, { body: { metadata: "m".repeat(4097) } }), 400, "ERR_NGROK_100");
    expectErrorBody(
      await call(emu.url, "PATCH", path, { body: { created_at: "2020-01-01T00:00:00Z" } }),
      400,
      "ERR_NGROK_214",
    );
    expect((await call(emu.url, "GET", path)).json).toEqual(json);
  });

  it("answers 404 for an id that does not exist", async () => {
    expectErrorBody(
      await call(emu.url, "PATCH", "/backends/failover/bkdfo_missing", { body: { description: "x" } }),
      404,
    );
  });
});

describe("DELETE /backends/failover/{id}", () => {
  it("answers 204 with an empty body, after which the backend is gone", async () => {
    const { json } = await create({ backends: ["bkdhr_a"] });
    const r = await call(emu.url, "DELETE", `/backends/failover/${json.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expectErrorBody(await call(emu.url, "GET", `/backends/failover/${json.id}`), 404);
    expectErrorBody(await call(emu.url, "DELETE", `/backends/failover/${json.id}`), 404);
  });

  it("answers 400 for a malformed id", async () => {
    expectErrorBody(await call(emu.url, "DELETE", "/backends/failover/x"), 400, "ERR_NGROK_227");
  });
});

// Tunnel group, HTTP response, weighted and static backends, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

const COMMON = ["id", "uri", "created_at", "description", "metadata"];

describe.each([
  [
    "tunnel_group",
    "bkdtg_",
    { labels: { service: "app", dc: "eu" } },
    { labels: { service: "app", dc: "eu" }, tunnels: [] },
  ],
  [
    "http_response",
    "bkdhr_",
    { body: "gone", headers: { "content-type": "text/plain" }, status_code: 410 },
    { body: "gone", headers: { "content-type": "text/plain" }, status_code: 410 },
  ],
  ["weighted", "bkdwd_", { backends: { bkdhr_a: 3, bkdtg_b: 1 } }, { backends: { bkdhr_a: 3, bkdtg_b: 1 } }],
  [
    "static",
    "bkdsc_",
    { address: "10.0.0.5:8443", tls: { enabled: true } },
    { address: "10.0.0.5:8443", tls: { enabled: true } },
  ],
] as const)("/backends/%s", (kind, prefix, body, shown) => {
  it(`creates one with a ${prefix} id and its own fields; GET returns the same`, async () => {
    const r = await call(emu.url, "POST", `/backends/${kind}`, { body: { description: kind, metadata: "m", ...body } });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(new RegExp(`^${prefix}[A-Za-z0-9]{27}$`));
    expect(Object.keys(r.json)).toEqual([...COMMON, ...Object.keys(shown)]);
    expect(r.json).toMatchObject({
      uri: `${emu.url}/backends/${kind}/${r.json.id}`,
      description: kind,
      metadata: "m",
      ...shown,
    });
    expect((await call(emu.url, "GET", `/backends/${kind}/${r.json.id}`)).json).toEqual(r.json);
  });

  it("lists under backends, newest first, paged with next_page_uri", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(emu.url, "POST", `/backends/${kind}`, { body })).json.id);
    const page = await call(emu.url, "GET", `/backends/${kind}?limit=2`);
    expect(Object.keys(page.json)).toEqual(["backends", "uri", "next_page_uri"]);
    expect(page.json.backends.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    const next = await call(emu.url, "GET", page.json.next_page_uri);
    expect(next.json.backends[0].id).toBe(ids[0]);
    expect((await call(emu.url, "GET", `/backends/${kind}?before_id=bkdfo_1`)).json.error_code).toBe("ERR_NGROK_227");
  });

  it("DELETE answers 204, then GET and DELETE answer 404", async () => {
    const r = await call(emu.url, "POST", `/backends/${kind}`, { body });
    expect((await call(emu.url, "DELETE", `/backends/${kind}/${r.json.id}`)).status).toBe(204);
    expect((await call(emu.url, "GET", `/backends/${kind}/${r.json.id}`)).status).toBe(404);
    expect((await call(emu.url, "DELETE", `/backends/${kind}/${r.json.id}`)).status).toBe(404);
  });

  it("answers 400 ERR_NGROK_227 for an id of another kind in the path, and ERR_NGROK_214 for an unknown field", async () => {
    expect((await call(emu.url, "GET", `/backends/${kind}/bkdfo_1`)).json.error_code).toBe("ERR_NGROK_227");
    expect((await call(emu.url, "POST", `/backends/${kind}`, { body: { ...body, nonsense: 1 } })).json.error_code).toBe(
      "ERR_NGROK_214",
    );
  });

  it("keeps its backends apart from the other kinds' lists", async () => {
    const r = await call(emu.url, "POST", `/backends/${kind}`, { body });
    const failover = await call(emu.url, "GET", "/backends/failover");
    expect(failover.json.backends.map((b: { id: string }) => b.id)).not.toContain(r.json.id);
  });
});

describe("backend validation", () => {
  it.each([
    ["tunnel_group", { labels: { service: 1 } }, /labels\["service"\] must be a string/],
    ["http_response", { status_code: 99 }, /status_code/],
    ["http_response", { headers: ["x"] }, /headers/],
    ["weighted", {}, /backends is required/],
    ["weighted", { backends: { bkdhr_a: -1 } }, /weight/],
    ["static", { address: "no-port" }, /address/],
    ["static", { address: "h:1", tls: { enabled: "yes" } }, /tls\.enabled/],
  ])("%s refuses %j with 400", async (kind, body, msg) => {
    const r = await call(emu.url, "POST", `/backends/${kind}`, { body });
    expect(r.status).toBe(400);
    expect(r.json.msg).toMatch(msg);
  });

  it("weighted refuses a malformed backend id with ERR_NGROK_242", async () => {
    const r = await call(emu.url, "POST", "/backends/weighted", { body: { backends: { nope: 1 } } });
    expect(r.json.error_code).toBe("ERR_NGROK_242");
  });

  it("http_response defaults: status 200, empty body, headers null; static: tls disabled", async () => {
    const hr = await call(emu.url, "POST", "/backends/http_response", { body: {} });
    expect(hr.json).toMatchObject({ body: "", headers: null, status_code: 200 });
    const sc = await call(emu.url, "POST", "/backends/static", { body: { address: "example.com:80" } });
    expect(sc.json.tls).toEqual({ enabled: false });
  });

  it("PATCH replaces the fields given and keeps the rest", async () => {
    const hr = await call(emu.url, "POST", "/backends/http_response", {
      body: { body: "a", status_code: 503, description: "d" },
    });
    const p = await call(emu.url, "PATCH", `/backends/http_response/${hr.json.id}`, { body: { body: "b" } });
    expect(p.status).toBe(200);
    expect(p.json).toEqual({ ...hr.json, body: "b" });
  });

  it("answers 404 for a backend kind the API does not have", async () => {
    expect((await call(emu.url, "GET", "/backends/http")).status).toBe(404);
  });
});

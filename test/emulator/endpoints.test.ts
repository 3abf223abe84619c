// Cloud Endpoints, over real HTTP.
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

let n = 0;
const url = () => `https://ep${++n}.example.com`;
const JSON_POLICY = JSON.stringify({
  on_http_request: [{ actions: [{ type: "custom-response", config: { status_code: 404 } }] }],
});
const YAML_POLICY = `on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config: { provider: github, secret: s }
      - type: forward-internal
        config:
          url: https://service-app.internal
  - actions:
      - type: deny
`;

describe("POST /endpoints", () => {
  it.each([
    ["JSON", JSON_POLICY],
    ["YAML", YAML_POLICY],
  ])("creates a cloud endpoint from a %s policy, keeping the text as sent", async (_what, policy) => {
    const u = url();
    const r = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: u, traffic_policy: policy, description: "Migrated", metadata: "m" },
    });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^ep_[A-Za-z0-9]{27}$/);
    expect(r.json).toMatchObject({
      type: "cloud",
      url: u,
      public_url: u,
      traffic_policy: policy,
      description: "Migrated",
      metadata: "m",
      bindings: ["public"],
      pooling_enabled: false,
      hostport: `${new URL(u).hostname}:443`,
      proto: "https",
      domain: { id: expect.stringMatching(/^rd_[A-Za-z0-9]{27}$/), uri: expect.any(String) },
      uri: `${emu.url}/endpoints/${r.json.id}`,
    });
    // As ngrok's examples show a cloud endpoint: no region, scheme, host or port.
    for (const k of ["region", "scheme", "host", "port"]) expect(r.json).not.toHaveProperty(k);
    expect(r.json.created_at).toBe(r.json.updated_at);
    expect((await call(emu.url, "GET", `/endpoints/${r.json.id}`)).json).toEqual(r.json);
  });

  it.each([
    [{ url: "https://a.example.com", traffic_policy: JSON_POLICY }, /type is required/, "ERR_NGROK_215"],
    [{ type: "cloud", traffic_policy: JSON_POLICY }, /url is required/, "ERR_NGROK_215"],
    [{ type: "cloud", url: "https://b.example.com" }, /traffic_policy is required/, "ERR_NGROK_215"],
    [
      { type: "agent", url: "https://c.example.com", traffic_policy: JSON_POLICY },
      /only support creation of cloud endpoints/,
      "ERR_NGROK_248",
    ],
    [{ type: "cloud", url: "not a url", traffic_policy: JSON_POLICY }, /not a URL/, "ERR_NGROK_215"],
    [{ type: "cloud", url: "tcp://d.example.com", traffic_policy: JSON_POLICY }, /port/, "ERR_NGROK_18003"],
    [
      { type: "cloud", url: "https://e.example.com", traffic_policy: "on_http_request: [ {actions: " },
      /not valid JSON or YAML/,
      "ERR_NGROK_2201",
    ],
    [
      { type: "cloud", url: "https://f.example.com", traffic_policy: "just text" },
      /must be an object/,
      "ERR_NGROK_2201",
    ],
    [
      { type: "cloud", url: "https://g.example.com", traffic_policy: '{"on_request":[]}' },
      /on_request: unknown phase/,
      "ERR_NGROK_2201",
    ],
    [
      {
        type: "cloud",
        url: "https://h.example.com",
        traffic_policy: '{"on_http_request":[{"actions":[{"config":{}}]}]}',
      },
      /on_http_request\[0\]\.actions\[0\]\.type: is required/,
      "ERR_NGROK_2201",
    ],
    [
      { type: "cloud", url: "https://i.example.com", traffic_policy: { on_http_request: [] } },
      /traffic_policy must be a string/,
      "ERR_NGROK_215",
    ],
    [
      { type: "cloud", url: "https://j.example.com", traffic_policy: JSON_POLICY, region: "eu" },
      /region/,
      "ERR_NGROK_214",
    ],
  ])("refuses %j with an ngrok error body", async (body, msg, code) => {
    const r = await call(emu.url, "POST", "/endpoints", { body });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: code, status_code: 400 });
    expect(r.json.msg).toMatch(msg);
    expect(r.json.details.operation_id).toMatch(/^op_/);
  });

  it("refuses a second cloud endpoint on the same URL with ERR_NGROK_18009", async () => {
    const u = url();
    expect(
      (await call(emu.url, "POST", "/endpoints", { body: { type: "cloud", url: u, traffic_policy: JSON_POLICY } }))
        .status,
    ).toBe(201);
    const again = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: `${u}/`, traffic_policy: JSON_POLICY },
    });
    expect(again.status).toBe(409);
    expect(again.json.error_code).toBe("ERR_NGROK_18009");
  });

  it("compares URLs without their default port or letter case: one cloud endpoint per address (issue 25)", async () => {
    const TCP_POLICY = JSON.stringify({ on_tcp_connect: [{ actions: [{ type: "deny" }] }] });
    const cases: [string, string, string][] = [
      ["https://dup%d.example.com", "https://dup%d.example.com:443", JSON_POLICY],
      ["https://dup%d.example.com:443", "https://DUP%d.Example.com", JSON_POLICY],
      ["http://dup%d.example.com", "http://dup%d.example.com:80/", JSON_POLICY],
      ["tls://dup%d.example.com", "tls://dup%d.example.com:443", TCP_POLICY],
      ["tls://dup%d.example.com:443", "tls://Dup%d.example.com", TCP_POLICY],
    ];
    for (const [first, second, policy] of cases) {
      const k = ++n;
      const [a, b] = [first.replace("%d", String(k)), second.replace("%d", String(k))];
      const made = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: a, traffic_policy: policy },
      });
      expect(made.status, `${a}: ${made.text}`).toBe(201);
      const again = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: b, traffic_policy: policy },
      });
      expect([b, again.status, again.json?.error_code]).toEqual([b, 409, "ERR_NGROK_18009"]);
      // Another endpoint moved onto the address is refused too; the endpoint itself may be renamed so.
      const other = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: a.replace("dup", "other"), traffic_policy: policy },
      });
      const moved = await call(emu.url, "PATCH", `/endpoints/${other.json.id}`, { body: { url: b } });
      expect([b, moved.status, moved.json?.error_code]).toEqual([b, 409, "ERR_NGROK_18009"]);
      expect((await call(emu.url, "PATCH", `/endpoints/${made.json.id}`, { body: { url: b } })).status).toBe(200);
    }
    // Different schemes are different addresses.
    const k = ++n;
    for (const u of [`https://dup${k}.example.com`, `http://dup${k}.example.com`])
      expect(
        (await call(emu.url, "POST", "/endpoints", { body: { type: "cloud", url: u, traffic_policy: JSON_POLICY } }))
          .status,
      ).toBe(201);
  });
});

it("refers to the host's reserved domain (one per host), a TCP endpoint to its address, an internal one to neither", async () => {
  const post = async (u: string, policy: string, bindings?: string[]) => {
    const r = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: u, traffic_policy: policy, ...(bindings ? { bindings } : {}) },
    });
    expect(r.status, r.text).toBe(201);
    return r.json as Record<string, { id: string; uri: string } | undefined>;
  };
  const tcpPolicy = JSON.stringify({ on_tcp_connect: [{ actions: [{ type: "deny" }] }] });
  const https = await post("https://shared.example.com", JSON_POLICY);
  const tls = await post("tls://shared.example.com:443", tcpPolicy);
  expect(tls.domain).toEqual(https.domain);
  expect(https.domain!.uri).toBe(`${emu.url}/reserved_domains/${https.domain!.id}`);
  expect(https).not.toHaveProperty("tcp_addr");
  const tcp = await post("tcp://1.tcp.ngrok.io:20001", tcpPolicy);
  expect(tcp.tcp_addr).toEqual({ id: expect.stringMatching(/^ra_[A-Za-z0-9]{27}$/), uri: expect.any(String) });
  expect(tcp).not.toHaveProperty("domain");
  const internal = await post("https://svc.internal", JSON_POLICY, ["internal"]);
  expect(internal).not.toHaveProperty("domain");
  expect(internal).not.toHaveProperty("tcp_addr");
});

describe("GET /endpoints, PATCH and DELETE /endpoints/{id}", () => {
  it("lists under endpoints, newest first, paged with next_page_uri", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          (
            await call(fresh.url, "POST", "/endpoints", {
              body: { type: "cloud", url: url(), traffic_policy: JSON_POLICY },
            })
          ).json.id,
        );
      const page = await call(fresh.url, "GET", "/endpoints?limit=2");
      expect(Object.keys(page.json)).toEqual(["endpoints", "uri", "next_page_uri"]);
      expect(page.json.endpoints.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
      const next = await call(fresh.url, "GET", page.json.next_page_uri);
      expect(next.json.endpoints.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
      expect(next.json.next_page_uri).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it("PATCH changes the fields given, checks a new policy, and keeps the rest", async () => {
    const c = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: JSON_POLICY, description: "d" },
    });
    const bad = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, { body: { traffic_policy: "{" } });
    expect(bad.status).toBe(400);
    const p = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, { body: { traffic_policy: YAML_POLICY } });
    expect(p.status).toBe(200);
    expect(p.json).toMatchObject({ id: c.json.id, url: c.json.url, description: "d", traffic_policy: YAML_POLICY });
  });

  it("DELETE answers 204; then GET is 404 and the URL is free again", async () => {
    const u = url();
    const c = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: u, traffic_policy: JSON_POLICY },
    });
    expect((await call(emu.url, "DELETE", `/endpoints/${c.json.id}`)).status).toBe(204);
    expect((await call(emu.url, "GET", `/endpoints/${c.json.id}`)).status).toBe(404);
    expect(
      (await call(emu.url, "POST", "/endpoints", { body: { type: "cloud", url: u, traffic_policy: JSON_POLICY } }))
        .status,
    ).toBe(201);
  });

  it("answers 400 ERR_NGROK_227 for a malformed id and 404 for one that does not exist", async () => {
    expect((await call(emu.url, "GET", "/endpoints/edghts_1")).json.error_code).toBe("ERR_NGROK_227");
    expect((await call(emu.url, "GET", "/endpoints/ep_missing")).status).toBe(404);
  });
});

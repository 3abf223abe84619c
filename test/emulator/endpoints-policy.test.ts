// The emulator enforces src/policy on POST and PATCH /endpoints, over real HTTP: 400 with the
// code of the first problem and every problem's place in the message; the URL is checked for
// its binding; the policy text is stored as sent.
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
const host = () => `pol${++n}.example.com`;
const policy = (doc: unknown) => JSON.stringify(doc);
const DENY = { actions: [{ type: "deny" }] };
const create = (body: Record<string, unknown>) =>
  call(emu.url, "POST", "/endpoints", { body: { type: "cloud", ...body } });

describe("POST /endpoints refuses a policy the validator refuses", () => {
  it.each([
    [
      "an action in a phase it is not allowed in",
      {
        on_http_request: [DENY],
        on_http_response: [{ actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s" } }] }],
      },
      "ERR_NGROK_2202",
      "on_http_response[0].actions[0].type: verify-webhook is not allowed in on_http_response",
    ],
    [
      "an action after a terminating one",
      { on_http_request: [{ actions: [{ type: "deny" }, { type: "custom-response" }] }] },
      "ERR_NGROK_2207",
      "on_http_request[0].actions[1]: unreachable",
    ],
    [
      "a phase the protocol does not have",
      { on_tcp_connect: [DENY], on_http_request: [DENY] },
      "ERR_NGROK_2230",
      "on_http_request: a public tcp endpoint takes no on_http_request phase",
      "tcp://1.tcp.ngrok.io:12345",
    ],
    [
      "a policy that does not end in a terminating action",
      { on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] },
      "ERR_NGROK_2235",
      "on_http_request[0].actions[0]: not guaranteed to handle traffic",
    ],
    [
      "a config field out of range",
      {
        on_http_request: [
          {
            actions: [
              {
                type: "custom-response",
                config: { headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`h${i}`, "v"])) },
              },
            ],
          },
          DENY,
        ],
      },
      "ERR_NGROK_2201",
      "on_http_request[0].actions[0].config.headers: at most 10 headers (got 11)",
    ],
  ])("%s: 400 %s", async (_what, doc, code, place, url = `https://${host()}`) => {
    const r = await create({ url, traffic_policy: policy(doc) });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: code, status_code: 400 });
    expect(r.json.msg).toContain(place);
    expect((await call(emu.url, "GET", "/endpoints")).json.endpoints.map((e: { url: string }) => e.url)).not.toContain(
      url,
    );
  });

  it("answers with the first problem's code and names every problem's place", async () => {
    const doc = {
      on_http_request: [
        { actions: [{ type: "deny" }, { type: "deny" }] },
        { actions: [{ type: "compress-response" }] },
      ],
    };
    const r = await create({ url: `https://${host()}`, traffic_policy: policy(doc) });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_2207");
    expect(r.json.msg).toBe(
      "The traffic policy is invalid: on_http_request[0].actions[1]: unreachable: the deny (actions[0]) action before it ends the phase; " +
        "on_http_request[1].actions[0].type: compress-response is not allowed in on_http_request (only in on_http_response)",
    );
  });

  it("refuses YAML nested deeper than the parser's stack with 400, and goes on serving", async () => {
    for (const text of ["on_http_request: " + "[".repeat(20_000), "- ".repeat(20_000) + "x"]) {
      const r = await create({ url: `https://${host()}`, traffic_policy: text });
      expect(r.status).toBe(400);
      expect(r.json.error_code).toBe("ERR_NGROK_2201");
      expect(r.json.msg).toMatch(/not valid JSON or YAML: (nested more than 100 levels|indented more than 400)/);
    }
    expect((await call(emu.url, "GET", "/endpoints")).status).toBe(200);
  });

  it("stores a valid YAML policy as the text sent, comments and all", async () => {
    const text =
      "# the fallback\non_http_request:\n  - actions:\n      - type: deny   # 403\n        config: {status_code: 403}\n";
    const r = await create({ url: `https://${host()}`, traffic_policy: text });
    expect(r.status).toBe(201);
    expect(r.json.traffic_policy).toBe(text);
    expect((await call(emu.url, "GET", `/endpoints/${r.json.id}`)).json.traffic_policy).toBe(text);
  });
});

describe("POST /endpoints checks the URL for its binding", () => {
  it.each([
    [
      "https on another port",
      `https://${host()}:8443`,
      undefined,
      "a public https endpoint listens on port 443 only (got 8443)",
    ],
    ["http on another port", `http://${host()}:8080`, undefined, "a public http endpoint listens on port 80 only"],
    [
      "a .internal host bound publicly",
      "https://api.internal",
      undefined,
      "a .internal host needs the internal binding",
    ],
    [
      "a public host bound internally",
      `https://${host()}`,
      ["internal"],
      "an internal URL's host must end in .internal",
    ],
    ["an internal host of 6 labels", "https://a.b.c.d.e.f.internal", ["internal"], "at most 5 labels"],
  ])("%s: 400 ERR_NGROK_2201", async (_what, url, bindings, message) => {
    const r = await create({
      url,
      traffic_policy: policy({ on_http_request: [DENY] }),
      ...(bindings ? { bindings } : {}),
    });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_2201");
    expect(r.json.msg).toContain(message);
  });

  it("refuses an internal endpoint whose policy does not end in a terminating action, takes one whose last rule is conditional (a warning only)", async () => {
    // The contract, "Handling all traffic": internal endpoints follow the public rule.
    const doc = { on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] };
    const refused = await create({ url: "https://svc.internal", bindings: ["internal"], traffic_policy: policy(doc) });
    expect(refused.json.error_code).toBe("ERR_NGROK_2235");
    const conditional = { on_http_request: [{ expressions: ["req.method == 'GET'"], actions: [{ type: "deny" }] }] };
    const r = await create({
      url: "https://svc.internal",
      bindings: ["internal"],
      traffic_policy: policy(conditional),
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ url: "https://svc.internal", bindings: ["internal"] });
    // But not one with on_tcp_connect, which an internal HTTP endpoint never runs.
    const tcp = await create({
      url: "https://svc2.internal",
      bindings: ["internal"],
      traffic_policy: policy({ on_tcp_connect: [DENY] }),
    });
    expect(tcp.json.error_code).toBe("ERR_NGROK_2230");
  });

  it("checks a public tcp endpoint's on_tcp_connect", async () => {
    const ok = await create({ url: "tcp://2.tcp.ngrok.io:20000", traffic_policy: policy({ on_tcp_connect: [DENY] }) });
    expect(ok.status).toBe(201);
    const bad = await create({ url: "tcp://2.tcp.ngrok.io:20001", traffic_policy: policy({ on_tcp_connect: [] }) });
    expect(bad.json.error_code).toBe("ERR_NGROK_2235");
  });
});

describe("PATCH /endpoints/{id}", () => {
  it("refuses a new policy the validator refuses, and keeps the old one", async () => {
    const text = policy({ on_http_request: [DENY] });
    const c = await create({ url: `https://${host()}`, traffic_policy: text });
    const bad = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, {
      body: {
        traffic_policy: policy({
          on_http_request: [{ expressions: ["req.methd == 'GET'"], actions: [{ type: "deny" }] }],
        }),
      },
    });
    expect(bad.status).toBe(400);
    // A CEL problem is ngrok's ERR_NGROK_2200 (the contract, "CEL, parsed and type-checked").
    expect(bad.json.error_code).toBe("ERR_NGROK_2200");
    expect(bad.json.msg).toContain(
      "on_http_request[0].expressions[0]: column 1: unknown name req.methd; did you mean req.method?",
    );
    expect((await call(emu.url, "GET", `/endpoints/${c.json.id}`)).json.traffic_policy).toBe(text);
  });

  it("checks the kept policy against a new URL", async () => {
    const c = await create({ url: `https://${host()}`, traffic_policy: policy({ on_http_request: [DENY] }) });
    const toTcp = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, {
      body: { url: "tcp://3.tcp.ngrok.io:30000" },
    });
    expect(toTcp.status).toBe(400);
    expect(toTcp.json.error_code).toBe("ERR_NGROK_2230");
    const badUrl = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, { body: { url: `https://${host()}:444` } });
    expect(badUrl.json).toMatchObject({ error_code: "ERR_NGROK_2201" });
    const moved = `https://${host()}`;
    const ok = await call(emu.url, "PATCH", `/endpoints/${c.json.id}`, { body: { url: moved } });
    expect(ok.status).toBe(200);
    expect(ok.json.url).toBe(moved);
  });
});

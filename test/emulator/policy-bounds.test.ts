// One request's policy never holds up other clients (issue 25): the emulator checks a policy of
// at most POLICY_MAX_BYTES (a larger one is refused before it is parsed) and POLICY_MAX_RULES
// rules (ERR_NGROK_2264, ngrok's "rule per policy limit"), so each check is short; a second
// client is answered while a big policy is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { POLICY_MAX_BYTES, POLICY_MAX_RULES } from "../../src/emulator/policy-text.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

let n = 0;
const url = () => `https://bound${++n}.example.com`;

/** The 3,000-rule YAML policy of the issue (~0.5 MB: under the 1 MiB body limit). */
function bigYaml(rules: number): string {
  let s = "on_http_request:\n";
  for (let i = 0; i < rules; i++)
    s += `  - name: r${i}\n    expressions:\n      - req.url.path.startsWith("/p${i}")\n    actions:\n      - type: add-headers\n        config:\n          headers:\n            x-a: "b${i}"\n`;
  return `${s}  - actions:\n      - type: deny\n`;
}

/** A valid JSON policy of `rules` rules, padded with a description-like name to `bytes` if given. */
function jsonPolicy(rules: number, bytes?: number): string {
  const list: unknown[] = Array.from({ length: rules - 1 }, (_, i: number) => ({
    expressions: [i % 2 ? "true" : "false"],
    actions: [{ type: "deny" }],
  }));
  list.push({ name: "", actions: [{ type: "deny" }] });
  let text = JSON.stringify({ on_http_request: list });
  if (bytes !== undefined) {
    list[list.length - 1] = { name: "x".repeat(bytes - text.length), actions: [{ type: "deny" }] };
    text = JSON.stringify({ on_http_request: list });
  }
  return text;
}

describe("a big policy holds up no other client", () => {
  it("refuses a 3,000-rule policy at once, while a second client is answered", async () => {
    const big = call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: bigYaml(3_000) },
    });
    // Sent once the big one is surely in: were it checked on the event loop for seconds, this would wait as long.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const small = await call(emu.url, "GET", "/endpoints?limit=1", { timeoutMs: 5_000 });
    expect(small.status).toBe(200);
    const refused = await big;
    expect(refused.status).toBe(400);
    expect(refused.json.msg).toMatch(new RegExp(`traffic_policy is \\d+ bytes.*at most ${POLICY_MAX_BYTES}`));
  });

  it(`takes a policy of exactly ${POLICY_MAX_BYTES} bytes and refuses one byte more, unparsed, on POST and PATCH`, async () => {
    const at = jsonPolicy(10, POLICY_MAX_BYTES);
    expect(Buffer.byteLength(at)).toBe(POLICY_MAX_BYTES);
    const made = await call(emu.url, "POST", "/endpoints", { body: { type: "cloud", url: url(), traffic_policy: at } });
    expect(made.status, made.text).toBe(201);
    const over = jsonPolicy(10, POLICY_MAX_BYTES + 1);
    const refused = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: over },
    });
    expect([refused.status, refused.json.error_code]).toEqual([400, "ERR_NGROK_215"]);
    const patched = await call(emu.url, "PATCH", `/endpoints/${made.json.id}`, { body: { traffic_policy: over } });
    expect([patched.status, patched.json.error_code]).toEqual([400, "ERR_NGROK_215"]);
    // Multi-byte characters count as bytes.
    const wide = jsonPolicy(10, POLICY_MAX_BYTES - 1).replace(`"name":"x`, `"name":"é`);
    expect(Buffer.byteLength(wide)).toBe(POLICY_MAX_BYTES);
    expect(
      (await call(emu.url, "POST", "/endpoints", { body: { type: "cloud", url: url(), traffic_policy: wide } })).status,
    ).toBe(201);
  });

  it(`takes ${POLICY_MAX_RULES} rules and refuses more with ERR_NGROK_2264, counting every phase`, async () => {
    const ok = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: jsonPolicy(POLICY_MAX_RULES) },
    });
    expect(ok.status, ok.text.slice(0, 300)).toBe(201);
    const more = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: jsonPolicy(POLICY_MAX_RULES + 1) },
    });
    expect([more.status, more.json.error_code]).toEqual([400, "ERR_NGROK_2264"]);
    expect(more.json.msg).toMatch(`rule per policy limit of ${POLICY_MAX_RULES}`);
    const doc = JSON.parse(jsonPolicy(POLICY_MAX_RULES)) as Record<string, unknown>;
    doc.on_http_response = [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }];
    const phases = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: url(), traffic_policy: JSON.stringify(doc) },
    });
    expect(phases.json.error_code).toBe("ERR_NGROK_2264");
  });

  it("bounds the traffic_policy module of a TLS or TCP edge alike", async () => {
    const value = JSON.stringify({
      on_tcp_connect: [{ name: "x".repeat(POLICY_MAX_BYTES), actions: [{ type: "deny" }] }],
    });
    const r = await call(emu.url, "POST", "/edges/tls", { body: { traffic_policy: { value } } });
    expect([r.status, r.json.error_code]).toEqual([400, "ERR_NGROK_215"]);
    expect(r.json.msg).toMatch(/traffic_policy.value is \d+ bytes/);
  });
});

import { describe, expect, it } from "vitest";
import { redactBody, redactLogText } from "../../src/api/redact.js";
import { MASK } from "../../src/secrets/index.js";
import { maskPolicyText } from "../../src/output/mask.js";

describe("redactLogText", () => {
  it("masks a quoted secret field with an escaped quote inside", () => {
    expect(redactLogText(`{"secret":"abc\\"def","x":1}`, [])).toBe(`{"secret":"${MASK}","x":1}`);
  });
  it("masks a secret cut off before its closing quote to the end", () => {
    expect(redactLogText(`{"secret":"abcdefgh`, [])).toBe(`{"secret":"${MASK}`);
  });
  it("masks a secret inside a JSON policy text inside a JSON string, even cut off", () => {
    const policy = JSON.stringify({
      on_http_request: [
        { actions: [{ type: "verify-webhook", config: { provider: "github", secret: 's3cr"QQ\\x' } }] },
      ],
    });
    const text = JSON.stringify({ traffic_policy: policy });
    const out = redactLogText(text, []);
    expect(out).not.toContain("s3cr");
    expect(out).not.toContain("QQ");
    expect(out).toContain("provider");
    const cut = redactLogText(text.slice(0, text.indexOf("s3cr") + 6), []);
    expect(cut).not.toContain("s3cr");
  });
  it("masks a YAML client_secret inside a JSON string", () => {
    const text = JSON.stringify({
      traffic_policy:
        'on_http_request:\n  - actions:\n      - type: oauth\n        config:\n          client_secret: "zz top"\n          x: 1\n',
    });
    const out = redactLogText(text.slice(0, -3), []);
    expect(out).not.toMatch(/zz|top/);
    expect(out).toContain("x: 1");
  });
  it("masks a YAML secret line", () => {
    expect(redactLogText("secret: abc def\nother: 1", [])).toBe(`secret: ${MASK}\nother: 1`);
  });
  it("keeps an empty secret empty", () => {
    expect(redactLogText(`{"client_secret": "hidden", "secret": ""}`, [])).toBe(
      `{"client_secret": "${MASK}", "secret": ""}`,
    );
  });
});

describe("redactBody", () => {
  it("masks by structure before it cuts, wherever the secret stands", async () => {
    const secret = "whsec_" + "Q".repeat(300);
    for (let pad = 3950; pad < 4010; pad += 7) {
      const body = JSON.stringify({ description: "d".repeat(pad), secret });
      const out = await redactBody(body, []);
      expect(out).not.toContain("QQ");
    }
  });
  it("masks secrets inside policy texts, JSON or YAML, and route module policies", async () => {
    const body = JSON.stringify({
      traffic_policy:
        "on_http_request:\n  - actions:\n      - type: oauth\n        config:\n          client_secret: |\n            zz top\n          x: 1\n",
      route: { traffic_policy: { enabled: true, value: '{"a": {"secret": "qqq"}}' } },
      oidc: { client_secret: "csec" },
    });
    for (const maskPolicy of [undefined, maskPolicyText]) {
      const out = await redactBody(body, [], { maskPolicy });
      expect(out).not.toMatch(/zz|top|qqq|csec/);
      expect(out).toContain("x: 1");
    }
  });
  // Written so that no line holds both the key and the value: only the parsed policy finds them.
  it.each([
    ["a plain scalar over two lines", "          secret: Zq8VnLpart1\n            Rt7Ykpart2\n"],
    ["a comment between the key and its value", "          secret: # rotated\n            Rt7Ykpart2\n"],
    ["an escaped key", '          "secr\\x65t": Rt7Ykpart2\n'],
    ["a double-quoted scalar over two lines", '          secret: "Zq8VnLpart1\n            Rt7Ykpart2"\n'],
  ])("masks a YAML policy's secret by the parsed policy: %s", async (_what, field) => {
    const policy = `on_http_request:\n  - actions:\n      - type: verify-webhook\n        config:\n          provider: github\n${field}      - type: custom-response\n        config: {status_code: 200}\n`;
    const body = JSON.stringify({ id: "ep_1", traffic_policy: policy, route: { traffic_policy: { value: policy } } });
    const out = await redactBody(body, [], { maskPolicy: maskPolicyText });
    expect(out).not.toMatch(/part1|part2/);
    expect(out).toContain("custom-response");
  });
});

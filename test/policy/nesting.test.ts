// A policy document nests at most 64 levels, JSON and YAML alike (the contract), and masking
// walks a text without recursing on its depth: no valid policy is hidden whole (issue 25 item 9).
import { describe, expect, it } from "vitest";
import { parsePolicyText } from "../../src/policy/parse.js";
import { maskPolicyText, maskSecretsIn } from "../../src/output/mask.js";
import { locateJson } from "../../src/output/json-ranges.js";

/** A log action whose metadata nests `levels` arrays inside a policy (the policy's own levels: 6 above it). */
const withMetadata = (metadata: string, secret = "whsec_1") =>
  `{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{"provider":"stripe","secret":"${secret}"}},` +
  `{"type":"log","config":{"metadata":{"a":${metadata}}}},{"type":"deny"}]}]}`;
const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
// The policy's own levels above the metadata's value: {} [ {} [ {} {} {} = 7.
const OWN = 7;

describe("nesting: 64 levels, JSON and YAML alike", () => {
  it("reads a JSON policy of 64 levels", async () => {
    expect((await parsePolicyText(withMetadata(nested(64 - OWN)))).ok).toBe(true);
  });

  it.each([65, 5_000, 20_000])("refuses a JSON policy of %i levels at check time", async (levels) => {
    expect(await parsePolicyText(withMetadata(nested(levels - OWN)))).toEqual({
      ok: false,
      problems: [{ path: "", message: "nested more than 64 levels deep", code: "ERR_NGROK_2201" }],
    });
  });

  it("refuses a YAML policy of 65 levels as it does JSON", async () => {
    const yaml = `on_http_request:\n  - actions:\n      - type: log\n        config:\n          metadata:\n            a: ${nested(65 - OWN)}\n`;
    const parsed = await parsePolicyText(yaml);
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed)).toContain("nested more than 64 levels deep");
  });
});

describe("masking never recurses on the depth of a text", () => {
  it("masks a JSON policy 100,000 deep by structure: the secret alone", async () => {
    const text = withMetadata(nested(100_000), "whsec_deep");
    const masked = await maskPolicyText(text);
    expect(masked).toBe(text.replace('"whsec_deep"', '"********"'));
  });

  it("locates a JSON text 100,000 deep", () => {
    const text = nested(100_000);
    const root = locateJson(text);
    expect(root).toMatchObject({ kind: "array", start: 0, end: text.length });
  });

  it("masks data 100,000 deep (an `api` answer) by its fields", async () => {
    let deep: unknown = { secret: "s1", keep: "k" };
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const out = (await maskSecretsIn({ x: deep, secret: "top" })) as Record<string, unknown>;
    expect(out.secret).toBe("********");
    let node: unknown = out.x;
    for (let i = 100_000 - 1; i >= 0; i--) node = i % 2 ? (node as unknown[])[0] : (node as { a: unknown }).a;
    expect(node).toEqual({ secret: "********", keep: "k" });
  });
});

describe("policy check refuses a JSON policy 20,000 deep (it passed before)", () => {
  it("exit 2 with the problem, through the CLI", async () => {
    const { appSandbox } = await import("../helpers/app.js");
    const cli = appSandbox();
    try {
      const r = await cli.run(["policy", "check", "-"], { input: withMetadata(nested(20_000)) });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toContain("nested more than 64 levels deep");
    } finally {
      cli.cleanup();
    }
  });
});

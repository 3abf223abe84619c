import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactText } from "../../src/api/redact.js";
import { MASK } from "../../src/secrets/index.js";

describe("redactText", () => {
  it("replaces the API key everywhere it appears", () => {
    const key = "2abcDEFkey_secretvalue123";
    const out = redactText(`Bearer ${key} and again ${key}.`, [key]);
    expect(out).toBe(`Bearer ${MASK} and again ${MASK}.`);
    expect(out).not.toContain(key);
  });

  it("replaces every secret given, skipping undefined ones", () => {
    const out = redactText("key=k3y-aaaa secret=whsec_bbbb", ["k3y-aaaa", undefined, "whsec_bbbb"]);
    expect(out).toBe(`key=${MASK} secret=${MASK}`);
  });

  it("masks a value shorter than 4 characters where it stands alone, not inside other words", () => {
    expect(redactText("your key abc is bad", ["abc"])).toBe(`your key ${MASK} is bad`);
    expect(redactText('{"msg":"secret xyz is too short"}', ["xyz"])).toBe(`{"msg":"secret ${MASK} is too short"}`);
    expect(redactText("the abcdef of it, abc.", ["abc"])).toBe(`the abcdef of it, ${MASK}.`);
    expect(redactText("a+b (a+b)", ["a+b"])).toBe(`${MASK} (${MASK})`);
    expect(redactText("the abcd of it", ["abcd"])).toBe(`the ${MASK} of it`);
  });

  it("masks a JSON secret field even when its value is not known", () => {
    const out = redactText('{"enabled":true,"provider":"github","secret":"unknown-value"}', []);
    expect(out).toBe(`{"enabled":true,"provider":"github","secret":"${MASK}"}`);
  });

  it("masks a pretty-printed JSON secret field with escaped quotes inside", () => {
    const text = '{\n  "secret": "a\\"b\\\\c",\n  "provider": "stripe"\n}';
    const out = redactText(text, []);
    expect(out).toBe(`{\n  "secret": "${MASK}",\n  "provider": "stripe"\n}`);
    expect(JSON.parse(out)).toEqual({ secret: MASK, provider: "stripe" });
  });

  it("replaces a secret echoed back inside a JSON string, where quotes and backslashes are escaped", () => {
    const secret = 'wh"sec\\value';
    const text = JSON.stringify({ msg: `secret ${secret} is invalid` });
    const out = redactText(text, [secret]);
    expect(out).toBe(JSON.stringify({ msg: `secret ${MASK} is invalid` }));
    expect(out).not.toContain("value");
  });

  it("leaves text without secrets unchanged", () => {
    const text = '{"provider":"github","secrets_count":2}';
    expect(redactText(text, ["nothere"])).toBe(text);
  });

  // A secret containing "*" can overlap the mask itself, so the property is stated for
  // secrets without it (API keys and webhook secrets from providers never contain "*").
  it("never leaves a secret of 4+ characters in the output, whatever surrounds it", () => {
    const secret = fc.string({ minLength: 4, maxLength: 40 }).filter((s) => !s.includes("*"));
    fc.assert(
      fc.property(fc.array(fc.string()), secret, fc.option(secret, { nil: undefined }), (parts, s1, s2) => {
        const text = parts.join(s1) + (s2 ?? "") + parts.join("");
        const out = redactText(text, [s1, s2]);
        expect(out).not.toContain(s1);
        if (s2 !== undefined) expect(out).not.toContain(s2);
      }),
    );
  });
});

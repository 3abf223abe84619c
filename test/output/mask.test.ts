import { describe, expect, it } from "vitest";
import { MASK } from "../../src/api/redact.js";
import { maskKey } from "../../src/commands/auth/mask.js";
import { maskSecret } from "../../src/output/mask.js";

describe("maskSecret", () => {
  const module = { enabled: true, provider: "github", secret: "whsec_abcdef" };

  it("shows the secret as ******** by default", () => {
    expect(maskSecret(module, false)).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(MASK).toBe("********");
  });

  it("does not change the object it was given", () => {
    maskSecret(module, false);
    expect(module.secret).toBe("whsec_abcdef");
  });

  it("shows the secret with --show-secret", () => {
    expect(maskSecret(module, true).secret).toBe("whsec_abcdef");
  });

  it("leaves a missing, null or empty secret as it is", () => {
    const noSecret: { provider: string; secret?: string } = { provider: "sns" };
    expect(maskSecret(noSecret, false)).toEqual({ provider: "sns" });
    expect(maskSecret({ provider: "sns", secret: null }, false)).toEqual({ provider: "sns", secret: null });
    expect(maskSecret({ provider: "sns", secret: "" }, false)).toEqual({ provider: "sns", secret: "" });
  });
});

describe("maskKey", () => {
  it("shows only the last four characters of a long key", () => {
    const out = maskKey("2abcdefghijklmnopWXYZ");
    expect(out).toBe(`${MASK}WXYZ`);
    expect(out).not.toContain("abcdefgh");
  });

  it("shows nothing of a short key", () => {
    expect(maskKey("short_key12")).toBe(MASK);
    expect(maskKey("123456789012")).toBe(MASK);
  });
});

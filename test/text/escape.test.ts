import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { escapeControl, excerpt, hasControl } from "../../src/text/escape.js";

// C0, DEL, C1 and the bidi/format controls the contract treats as unsafe.
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("escapeControl", () => {
  it("escapes an ANSI color sequence so ESC is visible text", () => {
    expect(escapeControl("\x1b[31mred\x1b[0m")).toBe("\\x1b[31mred\\x1b[0m");
  });

  it("escapes BEL and an OSC title sequence", () => {
    expect(escapeControl("\x07")).toBe("\\x07");
    expect(escapeControl("\x1b]0;pwned\x07")).toBe("\\x1b]0;pwned\\x07");
  });

  it("names carriage return, newline and tab", () => {
    expect(escapeControl("a\rb\nc\td")).toBe("a\\rb\\nc\\td");
  });

  it("escapes NUL and DEL", () => {
    expect(escapeControl("\x00")).toBe("\\x00");
    expect(escapeControl("\x7f")).toBe("\\x7f");
  });

  it("escapes the C1 control CSI (0x9b) and NEL (0x85)", () => {
    expect(escapeControl("\u009b31m")).toBe("\\x9b31m");
    expect(escapeControl("\u0085")).toBe("\\x85");
  });

  it("escapes bidi overrides and isolates", () => {
    expect(escapeControl("abc\u202Efdp.exe")).toBe("abc\\u202efdp.exe");
    expect(escapeControl("\u2066x\u2069")).toBe("\\u2066x\\u2069");
    expect(escapeControl("\u200e\u200f\u061c")).toBe("\\u200e\\u200f\\u061c");
  });

  it("escapes the unicode line and paragraph separators", () => {
    expect(escapeControl("a\u2028b\u2029")).toBe("a\\u2028b\\u2029");
  });

  it("leaves plain unicode unchanged", () => {
    for (const s of ["héllo wörld", "日本語", "€ 😀 👍🏽", "Ελληνικά", "emoji 🇪🇺", "", "plain ascii ~!@#"]) {
      expect(escapeControl(s)).toBe(s);
    }
  });

  it("leaves NBSP (0xa0), the first character past C1, unchanged", () => {
    expect(escapeControl("\u00a0")).toBe("\u00a0");
  });
});

describe("hasControl", () => {
  it("detects control characters, also when called repeatedly", () => {
    expect(hasControl("a\x1bb")).toBe(true);
    expect(hasControl("a\x1bb")).toBe(true);
    expect(hasControl("plain")).toBe(false);
    expect(hasControl("\u202e")).toBe(true);
  });
});

describe("excerpt", () => {
  it("trims, escapes and cuts at the given length with an ellipsis", () => {
    expect(excerpt("  \x1b[1mhi\n ")).toBe("\\x1b[1mhi");
    expect(excerpt("abcdef", 3)).toBe("abc…");
    expect(excerpt("abc", 3)).toBe("abc");
  });
});

describe("escapeControl properties", () => {
  const anyText = fc.oneof(
    fc.string({ unit: binary }),
    fc.string({ unit: fc.integer({ min: 0, max: 0x3000 }).map((c) => String.fromCharCode(c)) }),
    fc
      .array(fc.constantFrom("\x1b", "[", "\x9b", "\u202e", "\u2066", "\x7f", "\n", "a", "\u00a0", "\x00"))
      .map((a) => a.join("")),
  );

  it("never leaves a C0, DEL, C1 or bidi control character in its output", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(escapeControl(s)).not.toMatch(CONTROL);
        expect(hasControl(escapeControl(s))).toBe(false);
      }),
    );
  });

  it("leaves strings without control characters unchanged", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const clean = [...s].filter((ch) => !CONTROL.test(ch)).join("");
        expect(escapeControl(clean)).toBe(clean);
      }),
    );
  });

  it("changes a string exactly when it has a control character", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(escapeControl(s) !== s).toBe(CONTROL.test(s));
      }),
    );
  });
});

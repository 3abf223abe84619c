import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { ID_RULES, isValidId, utf8Length, type IdKind } from "../../src/api-data/ids.js";

const TAIL_64 = "a".repeat(64);
const TAIL_65 = "a".repeat(65);

const PREFIX: Record<IdKind, string> = {
  failover: "bkdfo_",
  backend: "bkdhr_",
  edge: "edghts_",
  anyEdge: "edgtcp_",
  route: "edghtsrt_",
  endpoint: "ep_",
};
const KINDS = Object.keys(PREFIX) as IdKind[];

describe("isValidId accepts well-formed ids", () => {
  it.each(KINDS)("accepts a %s id with a 1-char, mixed-case and 64-char tail", (kind) => {
    expect(isValidId(kind, `${PREFIX[kind]}a`)).toBe(true);
    expect(isValidId(kind, `${PREFIX[kind]}2AbC9z`)).toBe(true);
    expect(isValidId(kind, `${PREFIX[kind]}${TAIL_64}`)).toBe(true);
  });

  it.each(["bkdhr_", "bkdsc_", "bkdtg_", "bkdwd_", "bkdfo_"])("accepts child backend prefix %s", (prefix) => {
    expect(isValidId("backend", `${prefix}abc123`)).toBe(true);
  });

  it.each(["edghts_", "edgtls_", "edgtcp_"])("accepts %s as an edge of any kind, and no other prefix", (prefix) => {
    expect(isValidId("anyEdge", `${prefix}abc123`)).toBe(true);
    expect(isValidId("anyEdge", `${prefix.replace("_", "x_")}abc123`)).toBe(false);
  });
});

describe("isValidId refuses malformed ids", () => {
  const badTails = [
    ["a slash", "abc/def"],
    ["dot-dot", ".."],
    ["a dot-dot path", "abc/../x"],
    ["an encoded slash", "abc%2Fdef"],
    ["a space", "abc def"],
    ["a tab", "abc\tdef"],
    ["a trailing newline", "abc\n"],
    ["unicode letters", "abcé"],
    ["an emoji", "ab😀"],
    ["an underscore in the tail", "ab_c"],
    ["a hyphen", "ab-c"],
    ["an empty tail", ""],
    ["a 65-char tail", TAIL_65],
  ] as const;
  for (const kind of KINDS) {
    it.each(badTails)(`refuses a ${kind} id with %s`, (_what, tail) => {
      expect(isValidId(kind, `${PREFIX[kind]}${tail}`)).toBe(false);
    });
    it(`refuses an empty ${kind} id`, () => {
      expect(isValidId(kind, "")).toBe(false);
    });
    it(`refuses a ${kind} id with a leading space`, () => {
      expect(isValidId(kind, ` ${PREFIX[kind]}abc`)).toBe(false);
    });
  }

  it("refuses ids with the wrong prefix for their kind", () => {
    expect(isValidId("failover", "bkdhr_abc")).toBe(false);
    expect(isValidId("edge", "edghtsrt_abc")).toBe(false);
    expect(isValidId("route", "edghts_abc")).toBe(false);
    expect(isValidId("failover", "BKDFO_abc")).toBe(false);
    expect(isValidId("edge", "edgtls_abc")).toBe(false);
    expect(isValidId("backend", "bkd_abc")).toBe(false);
    expect(isValidId("backend", "bkdabc_abc")).toBe(false);
    expect(isValidId("backend", "xyzhr_abc")).toBe(false);
  });

  it("refuses uppercase in the two letters of a child backend prefix", () => {
    expect(isValidId("backend", "bkdHR_abc")).toBe(false);
    expect(isValidId("backend", "bkdHr_abc")).toBe(false);
    expect(isValidId("backend", "bkdhR_abc")).toBe(false);
    expect(isValidId("backend", "bkd1r_abc")).toBe(false);
  });

  it("names the rule in words for each kind", () => {
    expect(ID_RULES.failover.rule).toContain("bkdfo_");
    expect(ID_RULES.backend.rule).toContain("two lowercase letters");
    expect(ID_RULES.edge.rule).toContain("edghts_");
    expect(ID_RULES.route.rule).toContain("edghtsrt_");
    for (const kind of KINDS) expect(ID_RULES[kind].rule).toContain("1–64");
  });
});

describe("utf8Length", () => {
  it("counts bytes, not UTF-16 units", () => {
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("€")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("")).toBe(0);
  });

  it("agrees with Buffer.byteLength for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: binary }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, "utf8"));
      }),
    );
  });
});

describe("isValidId properties", () => {
  const forbidden = fc.constantFrom("/", "%", ".", " ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000");
  for (const kind of KINDS) {
    it(`never accepts a ${kind} id containing /, %, . or whitespace`, () => {
      fc.assert(
        fc.property(fc.string(), forbidden, fc.string(), (before, bad, after) => {
          expect(isValidId(kind, `${before}${bad}${after}`)).toBe(false);
          expect(isValidId(kind, `${PREFIX[kind]}${before}${bad}${after}`)).toBe(false);
        }),
      );
    });

    it(`accepts every ${kind} id made of the prefix and 1–64 letters or digits`, () => {
      const alnum = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""));
      fc.assert(
        fc.property(fc.string({ unit: alnum, minLength: 1, maxLength: 64 }), (tail) => {
          expect(isValidId(kind, `${PREFIX[kind]}${tail}`)).toBe(true);
        }),
      );
    });
  }
});

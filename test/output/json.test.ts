import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { renderJson } from "../../src/output/json.js";

describe("renderJson", () => {
  it("indents with two spaces and ends with one newline", () => {
    expect(renderJson({ id: "bkdfo_1", backends: ["bkdhr_a"] })).toBe(
      '{\n  "id": "bkdfo_1",\n  "backends": [\n    "bkdhr_a"\n  ]\n}\n',
    );
  });

  it("keeps field names and values as given", () => {
    const resource = { id: "x", created_at: "2026-01-01T00:00:00Z", next_page_uri: null, enabled: false, n: 3 };
    expect(JSON.parse(renderJson(resource))).toEqual(resource);
  });

  it("escapes C0 controls, DEL, C1 controls and bidi characters", () => {
    const out = renderJson({ d: "\x1b[31m\x07\x7f\u009b2J\u202eabc\u2066\u2028" });
    expect(out).toContain("\\u001b[31m\\u0007\\u007f\\u009b2J\\u202eabc\\u2066\\u2028");
    expect(out.replace(/\n/g, "")).not.toMatch(
      /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
    );
    expect(JSON.parse(out)).toEqual({ d: "\x1b[31m\x07\x7f\u009b2J\u202eabc\u2066\u2028" });
  });

  it("escapes controls in keys too", () => {
    const out = renderJson({ "k\u009b": 1 });
    expect(out).toContain('"k\\u009b"');
    expect(JSON.parse(out)).toEqual({ "k\u009b": 1 });
  });

  it("leaves plain unicode readable", () => {
    expect(renderJson("héllo € 😀")).toBe('"héllo € 😀"\n');
  });

  it("prints an array as one document", () => {
    const out = renderJson([{ id: "a" }, { id: "b" }]);
    expect(
      out
        .trimEnd()
        .split("\n")
        .filter((l) => l === "]"),
    ).toHaveLength(1);
    expect(JSON.parse(out)).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("parses back to the same value for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = renderJson(value);
        expect(out.endsWith("\n")).toBe(true);
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("never writes a raw control character for any JSON value with any strings", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: binary }), (value) => {
        const out = renderJson(value);
        // newlines are the layout; everything else unsafe must be escaped
        expect(out.replace(/\n/g, "")).not.toMatch(
          /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
        );
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

import { describe, expect, it } from "vitest";
import { displayWidth, renderRecord, renderRows } from "../../src/output/table.js";

// The layout (borders, padding) may change; these tests hold to what the contract says:
// a FIELD/VALUE header, one line per row, values escaped, color only on request.

const lines = (text: string) => text.replace(/\n$/, "").split("\n");

describe("renderRecord", () => {
  const rows: [string, string][] = [
    ["ID", "bkdfo_123"],
    ["DESCRIPTION", "\x1b[31mred\x1b[0m\x07 line1\nline2\ttab"],
    ["METADATA", "\u009b2J \u202eevil"],
  ];

  it("has a FIELD/VALUE header followed by one line per field", () => {
    const out = renderRecord(rows, false);
    expect(out.endsWith("\n")).toBe(true);
    const [head, ...body] = lines(out).filter((l) => /\w/.test(l));
    expect(head).toMatch(/FIELD\s.*VALUE/);
    expect(body).toHaveLength(3);
    expect(body[0]).toMatch(/ID\s.*bkdfo_123/);
    expect(body[1]).toMatch(/^\W*DESCRIPTION\s/);
    expect(body[2]).toMatch(/^\W*METADATA\s/);
  });

  it("shows control characters in values escaped", () => {
    const out = renderRecord(rows, false);
    expect(out).toContain("\\x1b[31mred\\x1b[0m\\x07 line1\\nline2\\ttab");
    expect(out).toContain("\\x9b2J \\u202eevil");
  });

  it("writes no raw control character at all when color is off", () => {
    const out = renderRecord(rows, false);
    expect(out).not.toContain("\x1b");
    expect(out.replace(/\n/g, "")).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  it("makes only the header bold when color is on", () => {
    const out = renderRecord(rows, true);
    const all = lines(out);
    const headIndex = all.findIndex((l) => l.includes("FIELD"));
    expect(all[headIndex]).toContain("\x1b[1mFIELD\x1b[22m");
    expect(all[headIndex]).toContain("\x1b[1mVALUE\x1b[22m");
    all.forEach((line, i) => {
      if (i !== headIndex) expect(line).not.toContain("\x1b");
    });
    expect(out).toContain("\\x1b[31mred");
  });

  it("renders an empty value without breaking the row count", () => {
    const out = renderRecord(
      [
        ["DESCRIPTION", ""],
        ["ID", "x"],
      ],
      false,
    );
    expect(lines(out).filter((l) => /\w/.test(l))).toHaveLength(3);
  });
});

describe("renderRows", () => {
  it("prints the header and one line per resource, escaping every cell", () => {
    const out = renderRows(
      ["ID", "DESCRIPTION"],
      [
        ["bkdfo_1", "a\x1b[2Jb"],
        ["bkdfo_2", "c\nd"],
      ],
      false,
    );
    const body = lines(out).filter((l) => /\w/.test(l));
    expect(body).toHaveLength(3);
    expect(body[0]).toMatch(/ID\s.*DESCRIPTION/);
    expect(body[1]).toMatch(/bkdfo_1\s.*a\\x1b\[2Jb/);
    expect(body[2]).toMatch(/bkdfo_2\s.*c\\nd/);
    expect(out).not.toContain("\x1b");
  });

  it("prints just the header for an empty list", () => {
    const out = renderRows(["ID", "DESCRIPTION"], [], false);
    expect(lines(out).filter((l) => /\w/.test(l))).toEqual([expect.stringMatching(/ID\s.*DESCRIPTION/)]);
  });
});

describe("displayWidth", () => {
  it.each([
    ["abc", 3],
    ["日本", 4],
    ["e\u0301", 1],
    ["a\u200bb", 2],
    ["👨‍👩‍👧", 2], // a ZWJ family is one picture
    ["🇺🇸", 2], // a flag: two regional indicators
    ["👍🏽", 2], // a skin tone
    ["❤️", 2], // the emoji variation selector
    ["😀x", 3],
  ])("%j takes %i columns", (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it("keeps the next column aligned after an emoji sequence", () => {
    const out = renderRows(
      ["ID", "DESCRIPTION", "BACKENDS"],
      [
        ["bkdfo_1", "family 👨‍👩‍👧"],
        ["bkdfo_2", "plain"],
      ].map((r) => [...r, "bkdhr_a"]),
      false,
    );
    const [, a, b] = lines(out);
    const col = (line: string) => displayWidth(line.slice(0, line.indexOf("bkdhr_a")));
    expect(col(a!)).toBe(col(b!));
  });
});

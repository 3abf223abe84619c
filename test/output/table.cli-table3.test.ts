// cli-table3 as the yardstick: for the same rows, drawn borderless with three spaces between
// columns, cli-table3 lays out exactly what src/output/table.ts prints (but for the trailing
// spaces it leaves). cli-table3 is a devDependency: edgectl does not load it (README "Choices").
import Table from "cli-table3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderRows } from "../../src/output/table.js";

const NO_BORDER = Object.fromEntries(
  [
    "top",
    "top-mid",
    "top-left",
    "top-right",
    "bottom",
    "bottom-mid",
    "bottom-left",
    "bottom-right",
    "left",
    "left-mid",
    "mid",
    "mid-mid",
    "right",
    "right-mid",
  ].map((k) => [k, ""]),
);

function cliTable3(head: string[], rows: string[][]): string {
  const table = new Table({
    head,
    chars: { ...NO_BORDER, middle: "   " },
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
  });
  table.push(...rows);
  return `${table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")}\n`;
}

/** Printable text both agree on: ASCII, accents, CJK, Hangul, half-width and fullwidth forms. */
const PIECES = [
  "a",
  "Z",
  "-",
  "_",
  "0",
  " x",
  "é",
  "ñ",
  "中",
  "文字",
  "한국어",
  "ｶﾀｶﾅ",
  "ＡＢ",
  "〜",
  "\u3000",
  "bkdfo_2abc",
];
const cell = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join("").trim() || "x");

describe("the table matches cli-table3's layout", () => {
  it("for a failover list with wide characters", () => {
    const head = ["ID", "DESCRIPTION", "BACKENDS"];
    const rows = [
      ["bkdfo_1", "中文字 wide", "bkdhr_a,bkdhr_b"],
      ["bkdfo_22", "ｶﾀｶﾅ half-width", "bkdhr_c"],
      ["bkdfo_333", "ＡＢ한국어", "-"],
    ];
    expect(renderRows(head, rows, false)).toBe(cliTable3(head, rows));
  });

  it("for any rows of printable text", () => {
    const tables = fc.integer({ min: 1, max: 4 }).chain((n) =>
      fc.record({
        head: fc.uniqueArray(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: n, maxLength: n }),
        rows: fc.array(fc.array(cell, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 6 }),
      }),
    );
    fc.assert(
      fc.property(tables, ({ head, rows }) => {
        expect(renderRows(head, rows, false)).toBe(cliTable3(head, rows));
      }),
      { numRuns: 100 },
    );
  });
});

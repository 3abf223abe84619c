// Property-based tests of the table renderer: whatever the cells hold (control characters,
// ANSI escapes, wide CJK, emoji, combining marks, lone surrogates), the output is one line
// per row plus the header, holds no raw control character but the line ends, has no
// trailing spaces, and every column starts at the same display offset on every line.
import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { escapeControl } from "../../src/text/escape.js";
import { displayWidth, renderRecord, renderRows } from "../../src/output/table.js";

// --- Arbitraries ---------------------------------------------------------------------------

/** Pieces chosen to break tables: escapes, line breaks, wide and zero-width characters. */
const NASTY = [
  "\x1b[31m",
  "\x1b[0m",
  "\x1b]0;title\x07",
  "\x1b[2J",
  "\x9b2J",
  "\x00",
  "\x07",
  "\x08",
  "\x7f",
  "\x85",
  "\n",
  "\r\n",
  "\r",
  "\t",
  "\v",
  "\f",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\u200e",
  "\u061c", // bidi controls
  "\u200b",
  "\u200d",
  "\ufeff",
  "\u2060",
  "\ufe0f", // zero-width / format
  "e\u0301",
  "\u0301",
  "\u20dd",
  "a\u0308\u0323", // combining marks (Mn, Me)
  "中",
  "文字",
  "한국어",
  "ｶﾀｶﾅ",
  "ＡＢ",
  "\u3000",
  "〜", // wide, half-width, fullwidth
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "🇺🇸",
  "❤️",
  "✅", // emoji (presentation, modifiers, ZWJ, flags, VS16)
  "\u00a0",
  "\u00ad",
  " ",
  "  ",
  "a",
  "Z",
  "-",
  "\\",
  "%s",
  "é",
  "\ud800",
  "\udfff", // lone surrogates
];

const anyCell = fc.oneof(
  fc.array(fc.constantFrom(...NASTY), { maxLength: 8 }).map((parts) => parts.join("")),
  fc.string({ unit: binary, maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.string({ maxLength: 12 }),
);

/** Header names as the commands use them: upper-case words. */
const headName = fc.stringMatching(/^[A-Z][A-Z_]{0,11}$/);

const table = fc.uniqueArray(headName, { minLength: 1, maxLength: 5 }).chain((head) =>
  fc.record({
    head: fc.constant(head),
    rows: fc.array(fc.array(anyCell, { minLength: head.length, maxLength: head.length }), { maxLength: 6 }),
  }),
);

const record = fc.array(fc.tuple(anyCell, anyCell), { maxLength: 8 });

// --- Checks --------------------------------------------------------------------------------

const C0_C1_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
const BOLD_ON = "\x1b[1m";
const BOLD_OFF = "\x1b[22m";

function splitLines(out: string): string[] {
  expect(out.endsWith("\n")).toBe(true);
  return out.slice(0, -1).split("\n");
}

/**
 * The display offset at which each column starts, read from the header line (header names
 * hold no spaces, so the line is: name, spaces, name, spaces, …).
 */
function headerOffsets(headerLine: string, head: string[]): number[] {
  const offsets: number[] = [];
  let pos = 0;
  head.forEach((name, i) => {
    if (i > 0) {
      const spaces = /^ +/.exec(headerLine.slice(pos));
      expect(spaces, `header: no space before column ${i} in ${JSON.stringify(headerLine)}`).not.toBeNull();
      pos += spaces![0].length;
    }
    offsets.push(displayWidth(headerLine.slice(0, pos)));
    expect(
      headerLine.startsWith(name, pos),
      `header: ${JSON.stringify(name)} at ${pos} in ${JSON.stringify(headerLine)}`,
    ).toBe(true);
    pos += name.length;
  });
  expect(pos, `header: trailing text in ${JSON.stringify(headerLine)}`).toBe(headerLine.length);
  return offsets;
}

/**
 * A data line is its cells, escaped, each starting at its column's offset (counted with
 * displayWidth), separated by spaces only (at least one); what may be missing at the end is
 * only whitespace (a right-trimmed line).
 */
function expectAligned(line: string, cells: string[], offsets: number[]): void {
  let full = "";
  cells.forEach((cell, i) => {
    if (i > 0) {
      const pad = offsets[i]! - displayWidth(full);
      expect(pad, `column ${i} of ${JSON.stringify(line)} starts before the previous cell ends`).toBeGreaterThanOrEqual(
        1,
      );
      full += " ".repeat(pad);
    }
    full += escapeControl(cell);
  });
  expect(full.startsWith(line), `${JSON.stringify(line)} is not the aligned row ${JSON.stringify(full)}`).toBe(true);
  expect(full.slice(line.length)).toMatch(/^\s*$/u);
}

function checkTable(out: string, head: string[], rows: string[][], color: boolean): void {
  const lines = splitLines(out);
  expect(lines).toHaveLength(rows.length + 1);
  if (color) {
    // Bold header names, and no escape anywhere else.
    for (const name of head) expect(lines[0]).toContain(`${BOLD_ON}${name}${BOLD_OFF}`);
    for (const line of lines.slice(1)) expect(line).not.toContain("\x1b");
  } else {
    expect(out).not.toContain("\x1b");
  }
  const plain = color ? out.split(BOLD_ON).join("").split(BOLD_OFF).join("") : out;
  expect(plain).not.toMatch(C0_C1_BUT_NEWLINE);
  const plainLines = splitLines(plain);
  for (const line of plainLines) expect(line, `trailing space in ${JSON.stringify(line)}`).not.toMatch(/ $/);
  const offsets = headerOffsets(plainLines[0]!, head);
  rows.forEach((row, r) => expectAligned(plainLines[r + 1]!, row, offsets));
}

// --- Properties ----------------------------------------------------------------------------

describe("renderRows properties", () => {
  it("prints rows+1 lines, escaped, without trailing spaces, columns aligned (no color)", () => {
    fc.assert(fc.property(table, ({ head, rows }) => checkTable(renderRows(head, rows, false), head, rows, false)));
  });

  it("keeps all of that with color on, and color only adds bold around the header names", () => {
    fc.assert(
      fc.property(table, ({ head, rows }) => {
        const colored = renderRows(head, rows, true);
        checkTable(colored, head, rows, true);
        expect(colored.split(BOLD_ON).join("").split(BOLD_OFF).join("")).toBe(renderRows(head, rows, false));
      }),
    );
  });
});

describe("renderRecord properties", () => {
  it("prints a FIELD/VALUE header and one aligned, escaped line per field (no color)", () => {
    fc.assert(fc.property(record, (rows) => checkTable(renderRecord(rows, false), ["FIELD", "VALUE"], rows, false)));
  });

  it("keeps all of that with color on", () => {
    fc.assert(
      fc.property(record, (rows) => {
        const colored = renderRecord(rows, true);
        checkTable(colored, ["FIELD", "VALUE"], rows, true);
        expect(colored.split(BOLD_ON).join("").split(BOLD_OFF).join("")).toBe(renderRecord(rows, false));
      }),
    );
  });
});

describe("displayWidth properties", () => {
  const codePoint = fc.string({ unit: binary, minLength: 1, maxLength: 1 });

  it("is the length for printable ASCII", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }), (s) => {
        expect(displayWidth(s)).toBe(s.length);
      }),
    );
  });

  // Except where the join falls inside an emoji sequence (ZWJ, U+FE0F, skin tone, flag),
  // which is one picture however it is cut.
  // eslint-disable-next-line no-misleading-character-class -- code points of a sequence, each alone
  const SEQUENCE_START = /^[\u200d\ufe0f\u{1f3fb}-\u{1f3ff}\u{1f1e6}-\u{1f1ff}]/u;
  const SEQUENCE_END = /[\u200d\u{1f1e6}-\u{1f1ff}]$/u;
  it("adds up over concatenation of whole code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: binary }), fc.string({ unit: binary }), (a, b) => {
        fc.pre(!SEQUENCE_START.test(b) && !SEQUENCE_END.test(a));
        expect(displayWidth(a + b)).toBe(displayWidth(a) + displayWidth(b));
      }),
    );
  });

  it("gives every code point 0, 1 or 2 columns", () => {
    fc.assert(
      fc.property(codePoint, (ch) => {
        expect([0, 1, 2]).toContain(displayWidth(ch));
      }),
    );
  });

  it("gives CJK ideographs, Hangul syllables and fullwidth forms two columns each", () => {
    const wide = fc.oneof(
      fc.integer({ min: 0x4e00, max: 0x9fff }),
      fc.integer({ min: 0xac00, max: 0xd7a3 }),
      fc.integer({ min: 0xff01, max: 0xff60 }),
      fc.integer({ min: 0x20000, max: 0x2a6df }),
    );
    fc.assert(
      fc.property(fc.array(wide.map((c) => String.fromCodePoint(c))), (chars) => {
        expect(displayWidth(chars.join(""))).toBe(2 * chars.length);
      }),
    );
  });

  it("gives combining marks no column of their own", () => {
    const mark = fc.integer({ min: 0x300, max: 0x36f }).map((c) => String.fromCodePoint(c));
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
        fc.array(mark),
        (base, marks) => {
          expect(displayWidth(base + marks.join(""))).toBe(base.length);
        },
      ),
    );
  });
});

// --- The checks have teeth -------------------------------------------------------------------

describe("the table checks reject broken renderers", () => {
  // Minimal renderers, each with one defect the properties above must catch.
  const GAP = "   ";
  const naive =
    (opts: { escape: boolean; width: (s: string) => number; trim: boolean }) => (head: string[], rows: string[][]) => {
      const cells = rows.map((row) => row.map((c) => (opts.escape ? escapeControl(c) : c)));
      const widths = head.map((h, i) => Math.max(opts.width(h), ...cells.map((row) => opts.width(row[i]!))));
      const line = (row: string[]) => {
        const text = row.map((c, i) => c + " ".repeat(Math.max(0, widths[i]! - opts.width(c)))).join(GAP);
        return opts.trim ? text.trimEnd() : text;
      };
      return `${[line(head), ...cells.map(line)].join("\n")}\n`;
    };
  // A broken renderer fails within a few runs; 500 makes missing it practically impossible.
  const fails = (render: (head: string[], rows: string[][]) => string, numRuns = 500) =>
    fc.check(
      fc.property(table, ({ head, rows }) => checkTable(render(head, rows), head, rows, false)),
      { numRuns },
    ).failed;

  it("accepts a correct one", () => {
    expect(fails(naive({ escape: true, width: displayWidth, trim: true }), 100)).toBe(false);
  });

  it("catches one that does not escape", () => {
    expect(fails(naive({ escape: false, width: displayWidth, trim: true }))).toBe(true);
  });

  it("catches one that measures in UTF-16 code units", () => {
    expect(fails(naive({ escape: true, width: (s) => s.length, trim: true }))).toBe(true);
  });

  it("catches one that leaves trailing padding", () => {
    expect(fails(naive({ escape: true, width: displayWidth, trim: false }))).toBe(true);
  });
});

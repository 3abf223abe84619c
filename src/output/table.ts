// Tables for people. Every cell is escaped (values come from the server or the user), and
// color is used only when the caller says the stream is a color terminal.
//
// Borderless columns, as kubectl and gh print them: one line per row, columns three spaces
// apart, easy to read and grep. Rendered here rather than with cli-table3, which costs more
// to load and per row (BENCHMARKS.md); a test holds this layout to cli-table3's.
import { escapeControl } from "../text/escape.js";

const BOLD = (s: string) => `\x1b[1m${s}\x1b[22m`;
const GAP = "   ";

/**
 * How a table is drawn: color (a color terminal), and the terminal's width when it is one. A
 * list is cut to that width as gh cuts its tables: the longest columns shortened, each cut
 * cell ending in `…`, the id column never cut; piped (no width), nothing is cut.
 */
export interface TableStyle {
  color: boolean;
  width?: number | undefined;
}

const styleOf = (style: boolean | TableStyle): TableStyle => (typeof style === "boolean" ? { color: style } : style);

/**
 * One resource as FIELD/VALUE rows. Never cut, on a terminal either (as gh's `view` commands
 * print one item whole): a long value wraps; it is what was asked for.
 */
export function renderRecord(rows: [string, string][], style: boolean | TableStyle): string {
  return render(["FIELD", "VALUE"], rows, styleOf(style).color);
}

/** A list as one row per resource, fitted to `style.width` when given; columns named in `whole` (the ids) are never cut. */
export function renderRows(
  head: string[],
  rows: string[][],
  style: boolean | TableStyle,
  whole: readonly string[] = ["ID"],
): string {
  const { color, width } = styleOf(style);
  return render(head, rows, color, width, whole);
}

const ELLIPSIS = "\u2026";

function render(head: string[], rows: string[][], color: boolean, fit?: number, whole: readonly string[] = []): string {
  let cells = rows.map((row) => row.map((cell) => escapeControl(cell)));
  let heads = head;
  let widths = head.map((h) => displayWidth(h));
  for (const row of cells) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  const line = (row: string[], style?: (s: string) => string) =>
    row
      .map((cell, i) => (style ? style(cell) : cell) + " ".repeat(widths[i]! - displayWidth(cell)))
      .join(GAP)
      .trimEnd();
  // A table whose lines fit as drawn (their ends trimmed: a last cell of spaces takes no column)
  // is not touched.
  const fits = () => [heads, ...cells].every((row) => displayWidth(line(row)) <= fit!);
  if (fit !== undefined && !fits()) {
    const fitted = fitWidths(
      widths,
      head.map((h) => whole.includes(h)),
      fit,
    );
    if (fitted !== widths) {
      widths = fitted;
      heads = head.map((h, i) => cut(h, widths[i]!));
      cells = cells.map((row) => row.map((cell, i) => cut(cell, widths[i]!)));
    }
  }
  return `${[line(heads, color ? BOLD : undefined), ...cells.map((row) => line(row))].join("\n")}\n`;
}

/**
 * Column widths that fit `total` columns: `widths` itself when the table fits; else the columns
 * that may be cut share what the whole ones and the gaps leave, the longest shortened first
 * (every cut column gets the same cap, the largest that fits, at least one column for `…`).
 */
export function fitWidths(widths: number[], keep: boolean[], total: number): number[] {
  const gaps = GAP.length * Math.max(0, widths.length - 1);
  const natural = widths.reduce((a, b) => a + b, 0) + gaps;
  if (natural <= total) return widths;
  const fixed = widths.reduce((a, w, i) => (keep[i] ? a + w : a), 0);
  const budget = total - gaps - fixed;
  const used = (cap: number) => widths.reduce((a, w, i) => (keep[i] ? a : a + Math.min(w, cap)), 0);
  let low = 1;
  let high = Math.max(1, ...widths.filter((_, i) => !keep[i]));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (used(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return widths.map((w, i) => (keep[i] ? w : Math.min(w, low)));
}

/** `text` in at most `columns` terminal columns: whole when it fits, else its start and `…`. */
export function cut(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  if (PRINTABLE_ASCII.test(text)) return text.slice(0, columns - 1) + ELLIPSIS;
  let kept = "";
  for (const ch of text) {
    if (displayWidth(kept + ch) > columns - 1) break;
    kept += ch;
  }
  return kept + ELLIPSIS;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Unicode property classes cost ~0.2 ms to build: made on the first text that is not ASCII.
let classes: { zeroWidth: RegExp; emoji: RegExp; emojiCapable: RegExp } | undefined;
const unicodeClasses = () =>
  (classes ??= {
    // One code point at a time: U+FE0F and the combining marks are matched alone on purpose.
    // eslint-disable-next-line no-misleading-character-class -- see above
    zeroWidth: /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f\ufeff]$/u,
    emoji: /^\p{Emoji_Presentation}$/u,
    emojiCapable: /^\p{Emoji}$/u,
  });

/**
 * Terminal columns a (control-free) string takes, code point by code point as wcwidth does:
 * wide East Asian characters and emoji take two, combining marks none. Emoji sequences are
 * one picture: a ZWJ family, a flag (a pair of regional indicators), a skin tone, and a
 * text-style emoji made emoji-style by U+FE0F each take two columns in all.
 */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length; // the common case
  const { zeroWidth: ZERO_WIDTH, emoji: EMOJI, emojiCapable: EMOJI_CAPABLE } = unicodeClasses();
  let width = 0;
  let last: "emoji" | "text-emoji" | "other" = "other";
  let joinNext = false;
  let flagOpen = false;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const joined = joinNext;
    joinNext = false;
    const regional = code >= 0x1f1e6 && code <= 0x1f1ff;
    if (!regional) flagOpen = false;
    if (code === 0x200d) {
      joinNext = last === "emoji"; // what follows is drawn into the same picture
    } else if (code === 0xfe0f) {
      if (last === "text-emoji") width += 1; // emoji presentation: two columns, not one
      if (last !== "other") last = "emoji";
    } else if (joined && EMOJI_CAPABLE.test(ch)) {
      last = "emoji";
    } else if (code >= 0x1f3fb && code <= 0x1f3ff && last === "emoji") {
      // a skin tone on the emoji before it
    } else if (regional) {
      if (!flagOpen) width += 2;
      flagOpen = !flagOpen;
      last = "emoji";
    } else if (code >= 0x300 && ZERO_WIDTH.test(ch)) {
      // a combining mark or a zero-width format character
    } else if (code >= 0x300 && (isWide(code) || EMOJI.test(ch))) {
      width += 2;
      last = EMOJI.test(ch) ? "emoji" : "other";
    } else {
      width += 1;
      last = EMOJI_CAPABLE.test(ch) ? "text-emoji" : "other";
    }
  }
  return width;
}

/**
 * East Asian Wide and Fullwidth code points (the ranges cli-table3's string-width uses). Not
 * get-east-asian-width: measured, its calls per character made a cold 1000-row table of wide
 * text ~5% slower (BENCHMARKS.md); a test holds these widths to cli-table3's.
 */
function isWide(code: number): boolean {
  return (
    code >= 0x1100 &&
    (code <= 0x115f ||
      code === 0x2329 ||
      code === 0x232a ||
      (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) ||
      (code >= 0x4e00 && code <= 0xa4c6) ||
      (code >= 0xa960 && code <= 0xa97c) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) ||
      (code >= 0xff01 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1b000 && code <= 0x1b001) ||
      (code >= 0x1f200 && code <= 0x1f251) ||
      (code >= 0x20000 && code <= 0x3fffd))
  );
}

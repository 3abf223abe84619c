// Tables for people. Every cell is escaped (values come from the server or the user), and
// color is used only when the caller says the stream is a color terminal.
//
// Borderless columns, as kubectl and gh print them: one line per row, columns three spaces
// apart, easy to read and grep. Rendered here rather than with cli-table3, which costs more
// to load and per row (BENCHMARKS.md); a test holds this layout to cli-table3's.
import { escapeControl } from "../text/escape.js";

const BOLD = (s: string) => `\x1b[1m${s}\x1b[22m`;
const GAP = "   ";

/** One resource as FIELD/VALUE rows. */
export function renderRecord(rows: [string, string][], color: boolean): string {
  return render(["FIELD", "VALUE"], rows, color);
}

/** A list as one row per resource. */
export function renderRows(head: string[], rows: string[][], color: boolean): string {
  return render(head, rows, color);
}

function render(head: string[], rows: string[][], color: boolean): string {
  const cells = rows.map((row) => row.map((cell) => escapeControl(cell)));
  const widths = head.map((h) => displayWidth(h));
  for (const row of cells) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  const line = (row: string[], style?: (s: string) => string) =>
    row
      .map((cell, i) => (style ? style(cell) : cell) + " ".repeat(widths[i]! - displayWidth(cell)))
      .join(GAP)
      .trimEnd();
  return `${[line(head, color ? BOLD : undefined), ...cells.map((row) => line(row))].join("\n")}\n`;
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

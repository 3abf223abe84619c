// Tables for people. Every cell is escaped (values come from the server or the user), and
// color is used only when the caller says the stream is a color terminal.
import Table from "cli-table3";
import { escapeControl } from "./escape.js";

const BOLD = (s: string) => `\x1b[1m${s}\x1b[22m`;

function header(cells: string[], color: boolean): string[] {
  return color ? cells.map(BOLD) : cells;
}

const PLAIN_STYLE = { head: [] as string[], border: [] as string[], "padding-left": 0, "padding-right": 0 };
// Borderless columns, as kubectl and gh print them: one line per row, easy to read and grep.
const CHARS = {
  top: "", "top-mid": "", "top-left": "", "top-right": "",
  bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "",
  left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "",
  middle: "   ",
};

/** One resource as FIELD/VALUE rows. */
export function renderRecord(rows: [string, string][], color: boolean): string {
  const table = new Table({ head: header(["FIELD", "VALUE"], color), style: PLAIN_STYLE, chars: CHARS, wordWrap: false });
  for (const [field, value] of rows) table.push([field, escapeControl(value)]);
  return finish(table.toString());
}

/** A list as one row per resource. */
export function renderRows(head: string[], rows: string[][], color: boolean): string {
  const table = new Table({ head: header(head, color), style: PLAIN_STYLE, chars: CHARS, wordWrap: false });
  for (const row of rows) table.push(row.map((cell) => escapeControl(cell)));
  return finish(table.toString());
}

function finish(text: string): string {
  return `${text.split("\n").map((line) => line.trimEnd()).join("\n")}\n`;
}

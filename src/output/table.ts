// Tables for people. Every cell is escaped (values come from the server or the user), and
// color is used only when the caller says the stream is a color terminal.
import Table from "cli-table3";
import { escapeControl } from "./escape.js";

const BOLD = (s: string) => `\x1b[1m${s}\x1b[22m`;

function header(cells: string[], color: boolean): string[] {
  return color ? cells.map(BOLD) : cells;
}

const PLAIN_STYLE = { head: [] as string[], border: [] as string[], "padding-left": 1, "padding-right": 1 };

/** One resource as FIELD/VALUE rows. */
export function renderRecord(rows: [string, string][], color: boolean): string {
  const table = new Table({ head: header(["FIELD", "VALUE"], color), style: PLAIN_STYLE, wordWrap: false });
  for (const [field, value] of rows) table.push([field, escapeControl(value)]);
  return `${table.toString()}\n`;
}

/** A list as one row per resource. */
export function renderRows(head: string[], rows: string[][], color: boolean): string {
  const table = new Table({ head: header(head, color), style: PLAIN_STYLE, wordWrap: false });
  for (const row of rows) table.push(row.map((cell) => escapeControl(cell)));
  return `${table.toString()}\n`;
}

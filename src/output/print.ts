// Writes a command's result to stdout in the chosen format, in one write so an
// interruption never leaves half a document.
import type { IOStreams } from "../io/iostreams.js";
import type { OutputFormat } from "../settings/resolve.js";
import { renderJson } from "./json.js";
import type { TableStyle } from "./table.js";
import { yamlText } from "./yaml-write.js";

/** Data for scripts in a machine format: `-o json`, or the same data as YAML with `-o yaml`. */
export function renderData(format: Exclude<OutputFormat, "table">, value: unknown): string {
  return format === "yaml" ? yamlText(value) : renderJson(value);
}

/** How a table is drawn on this stdout: color, and the terminal's width to fit (none when piped). */
export function tableStyle(io: IOStreams): TableStyle {
  return { color: io.colorOn(io.stdout), width: io.columns(io.stdout) };
}

export function printResult(
  deps: { io: IOStreams; settings: { output: OutputFormat } },
  data: unknown,
  table: (style: TableStyle) => string,
): void {
  const { output } = deps.settings;
  deps.io.stdout.write(output === "table" ? table(tableStyle(deps.io)) : renderData(output, data));
}

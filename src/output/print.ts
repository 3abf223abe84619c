// Writes a command's result to stdout in the chosen format, in one write so an
// interruption never leaves half a document.
import type { IOStreams } from "../io/iostreams.js";
import type { OutputFormat } from "../settings/resolve.js";
import { renderJson } from "./json.js";

export function printResult(
  deps: { io: IOStreams; settings: { output: OutputFormat } },
  json: unknown,
  table: (color: boolean) => string,
): void {
  const { stdout } = deps.io;
  stdout.write(deps.settings.output === "json" ? renderJson(json) : table(deps.io.colorOn(stdout)));
}

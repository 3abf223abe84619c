// Writes a command's result to stdout in the chosen format, in one write so an
// interruption never leaves half a document.
import type { Deps, OutStream } from "../commands/deps.js";
import { renderJson } from "./json.js";

export function colorOn(deps: Pick<Deps, "io">, stream: OutStream): boolean {
  return deps.io.color && Boolean(stream.isTTY);
}

export function printResult(deps: Pick<Deps, "io" | "settings">, json: unknown, table: (color: boolean) => string): void {
  const { stdout } = deps.io;
  stdout.write(deps.settings.output === "json" ? renderJson(json) : table(colorOn(deps, stdout)));
}

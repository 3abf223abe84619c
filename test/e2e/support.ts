// Small shared pieces of the end-to-end suites (not a test file itself).
import { readFileSync } from "node:fs";
import type { CliSandbox, RunOptions } from "../helpers/cli.js";

export const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** A Failover backend as the API returns it. */
export interface Failover {
  id: string;
  uri: string;
  created_at: string;
  description: string;
  metadata: string;
  backends: string[];
}

export interface TextResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in the sandbox and returns its streams as plain strings. */
export async function runCli(cli: CliSandbox, args: string[], opts?: RunOptions): Promise<TextResult> {
  const r = await cli.run(args, opts);
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") };
}

/** stderr with `-o json`: exactly one JSON object on one line. */
export function parseJsonError(stderr: string): { error: Record<string, unknown> } {
  const lines = stderr.split("\n").filter((l) => l !== "");
  if (lines.length !== 1) throw new Error(`expected one line of JSON on stderr, got:\n${stderr}`);
  return JSON.parse(lines[0]!) as { error: Record<string, unknown> };
}

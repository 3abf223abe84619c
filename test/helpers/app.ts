// Runs the CLI in-process (src/app.ts) as test/helpers/cli.ts runs bin/edgectl.js: the same
// clean environment (its own temp config folder, no inherited EDGECTL_*/NGROK_* variables,
// no color), captured stdout and stderr with the final newline stripped as execa does, and
// stdin that is empty unless given. For tests of what the CLI says and does, not of what
// only a separate process shows (signals, exit timing, broken pipes, the bin, Node lines).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { runApp } from "../../src/app.js";
import { baseEnv, type RunOptions } from "./cli.js";

export interface AppResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface AppSandbox {
  configDir: string;
  run(args: string[], opts?: RunOptions): Promise<AppResult>;
  cleanup(): void;
}

/** A stream that keeps what is written, as bytes (decoded at the end, as execa does). */
class Capture {
  readonly isTTY = false;
  private readonly chunks: Buffer[] = [];
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  }
  text(): string {
    return Buffer.concat(this.chunks)
      .toString("utf8")
      .replace(/\r?\n$/, "");
  }
}

export async function runInProcess(args: string[], opts: RunOptions & { configDir: string }): Promise<AppResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const exitCode = await runApp(args, {
    env: { ...baseEnv(opts.configDir), ...opts.env },
    stdout,
    stderr,
    stdin: Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input, "utf8")]),
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

export function appSandbox(): AppSandbox {
  const configDir = mkdtempSync(join(tmpdir(), "edgectl-test-"));
  return {
    configDir,
    run: (args, opts = {}) => runInProcess(args, { ...opts, configDir }),
    cleanup() {
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

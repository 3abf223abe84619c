// Runs the real bin/edgectl.js as a user would, in a clean environment: its own temp
// config folder, a code cache folder shared by the whole run, no inherited
// EDGECTL_*/NGROK_* variables, no color, and no stdin unless given. EDGECTL_TEST_NODE names the Node binary to run it with
// (.ci/run runs the end-to-end tests on each maintained Node line); by default, this one.
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type Options, type Result } from "execa";
import { inject } from "vitest";

export const BIN = fileURLToPath(new URL("../../bin/edgectl.js", import.meta.url));
export const NODE = process.env.EDGECTL_TEST_NODE || process.execPath;

// edgectl's V8 code cache (src/start.ts): one folder for the whole run, not the user's, made and
// removed by test/global-setup.ts.
const CACHE_DIR = inject("cacheDir");

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** A file given as stdin itself (`< file`), not through a pipe. */
  inputFile?: string;
  timeoutMs?: number;
}

export interface CliSandbox {
  configDir: string;
  run(args: string[], opts?: RunOptions): Promise<Result>;
  cleanup(): void;
}

// This process's environment without what would steer the CLI, read once: no test changes
// process.env, and reading it whole (each variable through Node's accessor) at each of the
// suite's ~290 spawns cost 0.4 s of CPU.
const inherited: Record<string, string | undefined> = {};
for (const [k, v] of Object.entries(process.env)) {
  if (/^(EDGECTL_|NGROK_|HTTPS?_PROXY$|NO_PROXY$|FORCE_COLOR$)/i.test(k)) continue;
  inherited[k] = v;
}

export function baseEnv(configDir: string): Record<string, string | undefined> {
  return { ...inherited, EDGECTL_CONFIG_DIR: configDir, EDGECTL_CACHE_DIR: CACHE_DIR, NO_COLOR: "1" };
}

export function sandbox(): CliSandbox {
  const configDir = mkdtempSync(join(tmpdir(), "edgectl-test-"));
  return {
    configDir,
    run(args, opts = {}) {
      const options: Options = {
        reject: false,
        env: { ...baseEnv(configDir), ...opts.env },
        extendEnv: false,
        timeout: opts.timeoutMs ?? 20_000,
        ...(opts.input !== undefined ? { input: opts.input } : { stdin: "ignore" }),
      };
      if (opts.inputFile === undefined) return execa(NODE, [BIN, ...args], options) as Promise<Result>;
      // The file's own descriptor as stdin (execa's { file } would pipe it through); execa
      // hands a descriptor to the child as it is, though its types do not list one for stdin.
      const fd = openSync(opts.inputFile, "r");
      return (execa(NODE, [BIN, ...args], { ...options, stdin: fd as unknown as "ignore" }) as Promise<Result>).finally(
        () => closeSync(fd),
      );
    },
    cleanup() {
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

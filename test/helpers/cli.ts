// Runs the real bin/edgectl.js as a user would, in a clean environment: its own temp
// config folder, no inherited EDGECTL_*/NGROK_* variables, no color, and no stdin unless given.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type Options, type Result } from "execa";

export const BIN = fileURLToPath(new URL("../../bin/edgectl.js", import.meta.url));

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

export interface CliSandbox {
  configDir: string;
  run(args: string[], opts?: RunOptions): Promise<Result>;
  cleanup(): void;
}

export function baseEnv(configDir: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(EDGECTL_|NGROK_|HTTPS?_PROXY$|NO_PROXY$|FORCE_COLOR$)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, EDGECTL_CONFIG_DIR: configDir, NO_COLOR: "1" };
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
      return execa("node", [BIN, ...args], options) as Promise<Result>;
    },
    cleanup() {
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

// The settings suite's server, sandbox and helpers (app/settings.test.ts runs the CLI in-process;
// the spawned default is for a test of the real bin).

import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { json, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { FB, runCli, type Sandbox, type TextResult } from "./support.js";

export function useSettingsSuite(makeSandbox: () => Sandbox = sandbox) {
  const KEYS = {
    flag: "key_from_flag_AAAA1111",
    edgectl: "key_from_edgectl_env_BBBB2222",
    ngrok: "key_from_ngrok_env_CCCC3333",
    profile: "key_from_profile_DDDD4444",
    staging: "key_from_staging_EEEE5555",
  };
  const ALL_KEYS = Object.values(KEYS);

  let server: FaultServer;
  let cli: Sandbox;
  /** Outputs of the current test's CLI runs; afterEach checks that no key shows up in them. */
  const outputs: TextResult[] = [];
  async function run(args: string[], opts?: RunOptions): Promise<TextResult> {
    const r = await runCli(cli, args, opts);
    outputs.push(r);
    return r;
  }
  const lastAuth = () => server.requests.at(-1)?.headers.authorization;
  const lastPath = () => server.requests.at(-1)?.path;

  beforeAll(async () => {
    server = await startFaultServer();
    server.fallback = () => json(200, FB);
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    cli = makeSandbox();
  });
  afterEach(() => {
    cli.cleanup();
    // The API key never appears in stdout or stderr of any run of this file.
    for (const r of outputs.splice(0)) {
      for (const key of ALL_KEYS) {
        expect(r.stdout).not.toContain(key);
        expect(r.stderr).not.toContain(key);
      }
    }
  });

  const login = async (key: string, extra: string[] = [], env: Record<string, string> = {}) => {
    const r = await run(["auth", "login", "--with-token", "--no-verify", ...extra], { input: `${key}\n`, env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    return r;
  };
  return {
    get server() {
      return server;
    },
    get cli() {
      return cli;
    },
    KEYS,
    ALL_KEYS,
    outputs,
    run,
    lastAuth,
    lastPath,
    login,
  };
}

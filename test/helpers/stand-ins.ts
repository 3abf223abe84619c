// What a test file of the whole CLI in-process (test/helpers/app.ts) runs against: the emulator
// in this process, a fault server that records exactly what was sent, one CLI sandbox and a
// scratch folder, all for the file (or the describe block that calls `useStandIns`).
import { afterAll, beforeAll } from "vitest";
import { appSandbox } from "./app.js";
import type { RunOptions } from "./cli.js";
import { makeRoute, startInProcessEmulator } from "./emulator.js";
import type { FaultServer } from "./fault-server.js";
import { runCli, useScratch, useServerAndSandbox, type Runner, type TextResult } from "../e2e/support.js";

export interface StandIns {
  /** The CLI in-process, with its own config folder (for runs given an environment of their own). */
  readonly cli: Runner;
  /** The fault server: its recorded requests cleared before each test, its own fallback back after. */
  readonly server: FaultServer;
  /** A temp folder for the files a test hands the CLI (removed after the suite). */
  readonly scratch: string;
  /** Runs the CLI against the shared emulator with the key (opts.env may override either). */
  readonly run: (args: string[], opts?: RunOptions) => Promise<TextResult>;
  /** Runs the CLI against the fault server with the key (opts.env may override either). */
  readonly runF: (args: string[], opts?: RunOptions) => Promise<TextResult>;
  /** The result when the CLI exited 0; otherwise throws with its exit code and streams. */
  readonly ok: (r: TextResult) => TextResult;
  /** A fresh edge/route pair on the shared emulator, made through the API: [edgeId, routeId]. */
  readonly route: () => Promise<readonly [string, string]>;
}

/**
 * The emulator, a fault server and a CLI sandbox (useServerAndSandbox's, in-process), started
 * before the suite and stopped after it, and a scratch folder. `server` and `cli` stand for the
 * ones the set-up hooks start, so they can be taken apart where the suite is declared.
 */
export function useStandIns(key = "key_more_commands_0123456789"): StandIns {
  const shared = useServerAndSandbox(appSandbox);
  let emu: Awaited<ReturnType<typeof startInProcessEmulator>> | undefined;
  beforeAll(async () => {
    emu = await startInProcessEmulator();
  });
  afterAll(async () => {
    await emu?.stop();
  });
  const { dir: scratch } = useScratch("edgectl-more-");

  const server: FaultServer = {
    get url() {
      return shared.server.url;
    },
    get requests() {
      return shared.server.requests;
    },
    set requests(requests) {
      shared.server.requests = requests;
    },
    get fallback() {
      return shared.server.fallback;
    },
    set fallback(fallback) {
      shared.server.fallback = fallback;
    },
    script: (...replies) => shared.server.script(...replies),
    waitForRequests: (count, timeoutMs) => shared.server.waitForRequests(count, timeoutMs),
    close: () => shared.server.close(),
  };
  const cli: Runner = { run: (args, opts) => shared.cli.run(args, opts) };
  const against =
    (url: () => string) =>
    (args: string[], opts: RunOptions = {}) =>
      runCli(cli, args, { ...opts, env: { EDGECTL_API_KEY: key, EDGECTL_BASE_URL: url(), ...opts.env } });

  return {
    cli,
    server,
    scratch,
    run: against(() => emu!.url),
    runF: against(() => server.url),
    ok: (r) => {
      if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r;
    },
    route: async () => {
      const made = await makeRoute(emu!.url);
      return [made.edgeId, made.routeId] as const;
    },
  };
}

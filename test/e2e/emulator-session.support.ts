// The emulator-session suite's emulator, sandbox and helpers (app/emulator-session.test.ts runs
// the CLI and the emulator in-process; with the spawned sandbox, the emulator is a process too).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { spawnEmulator, startInProcessEmulator } from "../helpers/emulator.js";
import { runCli, type Failover, type Sandbox } from "./support.js";

export function useEmulatorSessionSuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_emulator_session_12345";
  let emu: { url: string; stop(): Promise<unknown> };
  let cli: Sandbox;
  let scratch: string;
  const env = (extra: Record<string, string> = {}) => ({ EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emu.url, ...extra });
  const run = (args: string[], opts: RunOptions = {}) => runCli(cli, args, { ...opts, env: { ...env(), ...opts.env } });
  const runJson = async <T = unknown>(args: string[], opts: RunOptions = {}): Promise<T> => {
    const r = await run([...args, "-o", "json"], opts);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  const create = (...args: string[]) => runJson<Failover>(["failover", "create", ...args]);

  /** FIELD/VALUE table → map of field to value. */
  function record(stdout: string): Record<string, string> {
    const lines = stdout.split("\n").filter((l) => l.trim() !== "");
    expect(lines[0]).toMatch(/^FIELD\s+VALUE$/);
    return Object.fromEntries(
      lines.slice(1).map((l) => {
        const m = /^(\S+(?: \S+)*?)(?:\s{2,}(.*))?$/.exec(l)!;
        return [m[1]!, m[2] ?? ""];
      }),
    );
  }

  beforeAll(async () => {
    emu = await (makeSandbox === sandbox ? spawnEmulator : startInProcessEmulator)();
    cli = makeSandbox();
    scratch = mkdtempSync(join(tmpdir(), "edgectl-emu-session-"));
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await emu?.stop();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    cli?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get emu() {
      return emu;
    },
    get scratch() {
      return scratch;
    },
    KEY,
    env,
    run,
    runJson,
    create,
    record,
  };
}

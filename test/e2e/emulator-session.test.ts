// Every command against the real emulator (`edgectl emulator --port 0`), in JSON and table
// output, as an operator's session would run them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";
import { parseJsonError, runCli, type Failover } from "./support.js";

const KEY = "key_emulator_session_12345";
let emu: SpawnedEmulator;
let cli: CliSandbox;
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
  emu = await spawnEmulator();
  cli = sandbox();
  scratch = mkdtempSync(join(tmpdir(), "edgectl-emu-session-"));
});
afterAll(async () => {
  await emu?.stop();
  cli?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a realistic failover session (JSON)", () => {
  it("create → get → update → list → delete → get gives 404", async () => {
    const created = await create("--backends", "bkdhr_primary,bkdtg_standby", "--backends", "bkdwd_last", "--description", "eu pair", "--metadata", '{"team":"edge"}');
    expect(created).toMatchObject({ description: "eu pair", metadata: '{"team":"edge"}', backends: ["bkdhr_primary", "bkdtg_standby", "bkdwd_last"] });
    expect(created.id).toMatch(/^bkdfo_[A-Za-z0-9]+$/);
    expect(created.uri).toBe(`${emu.url}/backends/failover/${created.id}`);
    expect(Number.isNaN(Date.parse(created.created_at))).toBe(false);

    expect(await runJson(["failover", "get", created.id])).toEqual(created);

    const updated = await runJson<Failover>(["failover", "update", created.id, "--description", "eu pair (v2)"]);
    expect(updated).toEqual({ ...created, description: "eu pair (v2)" });
    const reordered = await runJson<Failover>(["failover", "update", created.id, "--backends", "bkdwd_last,bkdhr_primary"]);
    expect(reordered).toEqual({ ...updated, backends: ["bkdwd_last", "bkdhr_primary"] });

    const list = await runJson<Failover[]>(["failover", "list", "--all"]);
    expect(Array.isArray(list)).toBe(true);
    expect(list.find((x) => x.id === created.id)).toEqual(reordered);

    expect(await runJson(["failover", "delete", created.id, "--yes"])).toEqual({ id: created.id, deleted: true });

    const gone = await run(["failover", "get", created.id]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stdout).toBe("");
    expect(gone.stderr).toMatch(/^error: /);
    expect(gone.stderr).toContain("404");
    expect(gone.stderr).toMatch(/operation_id op_[A-Za-z0-9]+/);

    const goneJson = await run(["failover", "get", created.id, "-o", "json"]);
    expect(goneJson.exitCode).toBe(1);
    expect(goneJson.stdout).toBe("");
    const { error } = parseJsonError(goneJson.stderr);
    expect(error).toMatchObject({ kind: "api", status_code: 404 });
    expect(error.operation_id).toMatch(/^op_/);

    const again = await run(["failover", "delete", created.id, "--yes"]);
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("404");
  });

  it("create with only backends gives empty description and metadata", async () => {
    const fb = await create("--backends", "bkdsc_only");
    expect(fb).toMatchObject({ description: "", metadata: "", backends: ["bkdsc_only"] });
  });

  it("update with an empty description clears it and leaves the rest alone", async () => {
    const fb = await create("--backends", "bkdhr_a", "--description", "to clear", "--metadata", "keep");
    const cleared = await runJson<Failover>(["failover", "update", fb.id, "--description", ""]);
    expect(cleared).toEqual({ ...fb, description: "" });
  });

  it("list is newest first and --limit/--all page through everything", async () => {
    const a = await create("--backends", "bkdhr_p1", "--description", "page-1");
    const b = await create("--backends", "bkdhr_p2", "--description", "page-2");
    const c = await create("--backends", "bkdhr_p3", "--description", "page-3");
    const first = await runJson<Failover[]>(["failover", "list", "--limit", "2"]);
    expect(first.map((x) => x.id)).toEqual([c.id, b.id]);
    const all = await runJson<Failover[]>(["failover", "list", "--limit", "1", "--all"]);
    const ids = all.map((x) => x.id);
    expect(ids.slice(0, 3)).toEqual([c.id, b.id, a.id]);
    expect(new Set(ids).size).toBe(ids.length);
    const full = await runJson<Failover[]>(["failover", "list", "--all"]);
    expect(full.map((x) => x.id)).toEqual(ids);
  });
});


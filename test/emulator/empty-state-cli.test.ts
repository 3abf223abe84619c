// `edgectl emulator --state FILE` with an empty or blank FILE, as a user runs it: refused like
// any other corrupt state file (exit 2, no stack, file untouched); a missing FILE starts empty.
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { call, spawnEmulator } from "../helpers/emulator.js";

let cli: CliSandbox;
let dir: string;
beforeAll(async () => {
  cli = sandbox();
  dir = await mkdtemp(join(tmpdir(), "edgectl-emu-empty-"));
});
afterAll(async () => {
  cli.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe("edgectl emulator --state with an empty file", () => {
  it.each([
    ["empty", "empty.json", ""],
    ["whitespace only", "blank.json", "  \n\t\n"],
  ])("refuses a state file that is %s with exit 2, naming it, without a stack and without touching it", async (_what, name, content) => {
    const file = join(dir, name);
    await writeFile(file, content);
    // Bounded: were the file taken as empty state, the emulator would start and serve until killed.
    const r = await cli.run(["emulator", "--port", "0", "--state", file], { timeoutMs: 10_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(String(r.stderr)).toMatch(/^error: /);
    expect(String(r.stderr)).toContain(file);
    expect(String(r.stderr)).toMatch(/corrupt/);
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
    expect(await readFile(file, "utf8")).toBe(content);
  });

  it("still starts empty from a state path that does not exist yet, and creates it on the first change", async () => {
    const sub = await mkdtemp(join(dir, "fresh-"));
    const file = join(sub, "state.json");
    const emu = await spawnEmulator(["--state", file]);
    try {
      expect((await call(emu.url, "GET", "/backends/failover")).json.backends).toEqual([]);
      await expect(stat(file)).rejects.toThrow();
      expect((await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } })).status).toBe(201);
      expect(JSON.parse(await readFile(file, "utf8")).failover_backends).toHaveLength(1);
    } finally {
      expect(await emu.stop("SIGTERM")).toBe(0);
    }
    expect(await readdir(sub)).toEqual(["state.json"]);
  });
});

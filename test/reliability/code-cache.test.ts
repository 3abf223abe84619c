// The code cache never writes through a path it did not make, and loads only what this user
// made (issue 25, item 5): with a shared EDGECTL_CACHE_DIR, another user could plant
// `<cache>.<pid>.tmp` links to have edgectl overwrite a file they name, or leave a cache file
// (code V8 runs) of their own.
import { execFileSync, spawn as nodeSpawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, NODE, baseEnv } from "../helpers/cli.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "edgectl-cache-safety-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const POLICY = "on_http_request:\n  - actions: [{type: deny}]\n";

/** `policy check <file> --debug` with the code cache in `cacheDir`. */
function check(cacheDir: string, file: string) {
  const child = nodeSpawn(NODE, [BIN, "policy", "check", file, "--debug"], {
    env: { ...baseEnv(join(dir, "config")), EDGECTL_CACHE_DIR: cacheDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const cacheLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("debug: code cache"));

describe("the code cache in a shared folder", () => {
  it("never writes through a planted <cache>.<pid>.tmp link, and leaves it in place", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, POLICY);
    // The names of this command's cache files, made once in a folder of their own.
    const scratch = join(dir, "scratch");
    expect((await check(scratch, policy).done).code).toBe(0);
    const names = readdirSync(scratch);
    expect(names.length).toBeGreaterThan(0);

    const shared = join(dir, "shared");
    execFileSync("mkdir", ["-p", shared]);
    const victim = join(dir, "victim");
    writeFileSync(victim, "another user's file\n");
    // A FIFO holds the command while the links are planted for its pid.
    const fifo = join(dir, "policy-fifo");
    execFileSync("mkfifo", [fifo]);
    const { child, done } = check(shared, fifo);
    const writer = await open(fifo, "w"); // opens once edgectl reads it: it runs, with its pid
    const planted = names.map((name) => join(shared, `${name}.${child.pid}.tmp`));
    for (const link of planted) symlinkSync(victim, link);
    await writer.write(POLICY);
    await writer.close();
    const r = await done;

    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(readFileSync(victim, "utf8")).toBe("another user's file\n");
    for (const link of planted) expect(lstatSync(link).isSymbolicLink()).toBe(true);
    // No cache this time (its temp names were taken), and nothing else in the folder.
    expect(readdirSync(shared).sort()).toEqual(planted.map((p) => p.slice(shared.length + 1)).sort());
  });

  /** Makes the caches of `policy check` in `cacheDir`, and checks the next run takes them. */
  async function made(cacheDir: string, policy: string): Promise<string[]> {
    expect((await check(cacheDir, policy).done).code).toBe(0);
    const again = await check(cacheDir, policy).done;
    expect(cacheLines(again.stderr).every((l) => l.startsWith("debug: code cache hit ("))).toBe(true);
    return readdirSync(cacheDir).map((name) => join(cacheDir, name));
  }

  it("loads no cache file that a group or other users can write", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, POLICY);
    const cacheDir = join(dir, "writable");
    const files = await made(cacheDir, policy);
    for (const file of files) chmodSync(file, 0o666);
    const r = await check(cacheDir, policy).done;
    expect(r.code).toBe(0);
    const lines = cacheLines(r.stderr);
    expect(lines.length).toBe(files.length);
    for (const line of lines) expect(line).toMatch(/^debug: code cache refused \(writable by others\) \(/);
    // It is replaced by one of this user's own, which the next run takes.
    const next = await check(cacheDir, policy).done;
    for (const line of cacheLines(next.stderr)) expect(line).toMatch(/^debug: code cache hit \(/);
  });

  it("loads no cache file through a symbolic link", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, POLICY);
    const cacheDir = join(dir, "linked");
    const files = await made(cacheDir, policy);
    for (const file of files) {
      renameSync(file, `${file}.real`);
      symlinkSync(`${file}.real`, file);
    }
    const r = await check(cacheDir, policy).done;
    expect(r.code).toBe(0);
    for (const line of cacheLines(r.stderr)) expect(line).toMatch(/^debug: code cache refused \(a symbolic link\) \(/);
  });

  it.runIf(process.getuid?.() === 0)("loads no cache file that another user owns (run as root)", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, POLICY);
    const cacheDir = join(dir, "owned");
    const files = await made(cacheDir, policy);
    for (const file of files) chownSync(file, 65534, 65534);
    const r = await check(cacheDir, policy).done;
    expect(r.code).toBe(0);
    for (const line of cacheLines(r.stderr))
      expect(line).toMatch(/^debug: code cache refused \(owned by another user\) \(/);
  });

  it.runIf(process.getuid?.() === 0)(
    "deletes another build's cache only when it is this user's own file (run as root)",
    async () => {
      const policy = join(dir, "policy.yml");
      writeFileSync(policy, POLICY);
      const cacheDir = join(dir, "cleanup");
      const [file] = await made(cacheDir, policy);
      const other = (build: string) =>
        join(cacheDir, file!.slice(cacheDir.length + 1).replace(/-[0-9a-f]{16}-/, `-${build}-`));
      const theirs = other("00000000000000aa");
      const mine = other("00000000000000bb");
      const link = other("00000000000000cc");
      writeFileSync(theirs, "another user's cache");
      chownSync(theirs, 65534, 65534);
      writeFileSync(mine, "an old cache of mine");
      symlinkSync(join(dir, "policy.yml"), link);
      chmodSync(file!, 0o666); // refused, so this run writes its cache and cleans up
      expect((await check(cacheDir, policy).done).code).toBe(0);
      const left = readdirSync(cacheDir).map((name) => join(cacheDir, name));
      expect(left).toContain(theirs);
      expect(left).toContain(link);
      expect(left).not.toContain(mine);
    },
  );
});

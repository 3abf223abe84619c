// "`npm link` / `npx edgectl` work too": what npm packs, and the bin run through a symlink
// from another folder, as npm link and node_modules/.bin run it.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, baseEnv } from "../helpers/cli.js";
import { VERSION } from "./support.js";

const ROOT = join(BIN, "..", "..");

describe("the package", () => {
  it("packs the bin, its CommonJS marker and every built file, and no sources or tests", async () => {
    // Not execFileSync: npm takes a second or more, and a blocked worker runs no other test meanwhile.
    const { stdout: out } = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      stdin: "ignore",
      stderr: "ignore",
    });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const f of [
      "bin/edgectl.js",
      "bin/package.json",
      "dist/cli.cjs",
      "dist/main.cjs",
      "dist/main-failover.cjs",
      "dist/config-write.cjs",
      "dist/yaml.cjs",
      "dist/actions.cjs",
      "dist/cel.cjs",
      "dist/emulator.cjs",
      "dist/help.txt",
      "package.json",
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
  });
});

describe("the bin through a symlink, from another folder", () => {
  let dir: string;
  let link: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "edgectl-link-"));
    link = join(dir, "edgectl");
    symlinkSync(BIN, link);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], input?: string) =>
    execa(link, args, {
      cwd: dir,
      env: baseEnv(join(dir, "config")),
      extendEnv: false,
      reject: false,
      ...(input === undefined ? { stdin: "ignore" as const } : { input }),
    });

  it("answers --version and --help", async () => {
    const v = await run(["--version"]);
    expect([v.exitCode, v.stdout]).toEqual([0, VERSION]);
    const h = await run(["--help"]);
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toMatch(/^Usage: edgectl /);
  });

  it("writes and reads the config (the command that loads conf from its own file)", async () => {
    const login = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], "key_linked_bin_123456\n");
    expect(login.exitCode).toBe(0);
    const status = await run(["auth", "status", "-o", "json"]);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ api_key_source: 'profile "default"' });
    expect(status.stdout).not.toContain("key_linked_bin_123456");
  });
});

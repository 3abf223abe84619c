// scripts/build-stamp.mjs: `npm test` skips the build only when dist/ is the build of the tree as
// it stands. Each row changes one thing after a stamp and expects the stamp to no longer hold.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript (scripts/ is not in the TypeScript project)
import { distIsFresh, writeStamp } from "../../scripts/build-stamp.mjs";

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "edgectl-stamp-"));
  for (const path of ["src/cli.ts", "src/commands/failover/get.ts", "bin/edgectl.js", "scripts/build.mjs"])
    write(path, path);
  for (const path of ["package.json", "package-lock.json", "tsconfig.json", "dist/cli.cjs", "dist/help.txt"])
    write(path, path);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the build stamp", () => {
  it("is missing before any build, and holds right after one", () => {
    expect(distIsFresh(root)).toBe(false);
    writeStamp(root);
    expect(distIsFresh(root)).toBe(true);
  });

  it.each([
    ["a source file edited", () => write("src/commands/failover/get.ts", "changed")],
    ["a source file added", () => write("src/commands/failover/new.ts", "new")],
    ["a source file removed", () => rmSync(join(root, "src/cli.ts"))],
    ["the lock file changed (another esbuild or dependency)", () => write("package-lock.json", "changed")],
    ["tsconfig.json changed (esbuild reads it)", () => write("tsconfig.json", "changed")],
    ["the build script changed", () => write("scripts/build.mjs", "changed")],
    ["a built file edited", () => write("dist/help.txt", "changed")],
    ["dist/ removed", () => rmSync(join(root, "dist"), { recursive: true })],
  ])("no longer holds after %s", (_, change) => {
    writeStamp(root);
    change();
    expect(distIsFresh(root)).toBe(false);
  });
});

// The V8 code cache of each bundle (src/start.ts): made by the first run into the cache
// folder, used by the next, replaced when V8 rejects it, never a reason to fail.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isGroup, REGISTRY } from "../src/commands/registry.js";
import { FB, useFaultServer } from "./e2e/support.js";
import { json } from "./helpers/fault-server.js";

const suite = useFaultServer("key_cache");
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "edgectl-cache-test-"));
  suite.server.fallback = () => json(200, FB);
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

const get = (env: Record<string, string>) =>
  suite.run(["failover", "get", FB.id, "--debug"], { env: { EDGECTL_CACHE_DIR: cacheDir, ...env } });
const cacheLine = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("debug: code cache"));

describe("the code cache", () => {
  it("is made by the first run and accepted by the second", async () => {
    const first = await get({});
    expect(first.exitCode).toBe(0);
    expect(cacheLine(first.stderr)).toMatch(/^debug: code cache miss \(/);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^main-failover-[0-9a-f]{16}-node\d+\.\d+\.\d+-\w+\.v8cache$/);

    const second = await get({});
    expect(second.exitCode).toBe(0);
    expect(cacheLine(second.stderr)).toBe(`debug: code cache hit (${join(cacheDir, files[0]!)})`);
    expect(second.stdout).toBe(first.stdout);
  });

  it("is taken again, once, by a command under the same word that has not run with it (so that it holds that command's functions too)", async () => {
    const path = await suite.run(["failover", "list", "--help"], { env: { EDGECTL_CACHE_DIR: cacheDir } });
    expect(path.exitCode).toBe(0);
    // Help is commander's: its own bundle's cache is made beside the word's.
    const made = readdirSync(cacheDir);
    const file = made.find((name) => name.startsWith("main-failover-"));
    const cache = () => readFileSync(join(cacheDir, file!));
    const madeByPath = cache();
    const first = await get({});
    expect(cacheLine(first.stderr)).toMatch(/^debug: code cache hit \(/);
    const withGet = cache();
    expect(withGet.equals(madeByPath)).toBe(false);
    await get({});
    expect(cache().equals(withGet)).toBe(true);
    expect(readdirSync(cacheDir)).toEqual(made);
  });

  it("replaces a cache V8 rejects", async () => {
    await get({});
    const [file] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, file!), "not a V8 code cache");
    const rejected = await get({});
    expect(rejected.exitCode).toBe(0);
    expect(cacheLine(rejected.stderr)).toMatch(/^debug: code cache rejected \(/);
    expect(cacheLine((await get({})).stderr)).toMatch(/^debug: code cache hit \(/);
  });

  it("goes to XDG_CACHE_HOME/edgectl and never to the config folder", async () => {
    const r = await suite.run(["failover", "get", FB.id], {
      env: { XDG_CACHE_HOME: cacheDir, EDGECTL_CACHE_DIR: undefined },
    });
    expect(r.exitCode).toBe(0);
    expect(readdirSync(join(cacheDir, "edgectl"))).toHaveLength(1);
    expect(readdirSync(suite.cli.configDir)).toEqual([]);
  });

  it("that cannot be written changes nothing the user sees", async () => {
    const ok = await get({ EDGECTL_CACHE_DIR: join(cacheDir, "ok") });
    writeFileSync(join(cacheDir, "file"), "");
    const blocked = join(cacheDir, "file", "edgectl"); // below a file: no one can make it
    const r = await get({ EDGECTL_CACHE_DIR: blocked });
    const plain = (stderr: string, dir: string) => stderr.replaceAll(dir, "DIR").replace(/in \d+ ms/g, "in N ms");
    expect([r.exitCode, r.stdout]).toEqual([0, ok.stdout]);
    expect(plain(r.stderr, blocked)).toBe(plain(ok.stderr, join(cacheDir, "ok")));
    expect(readdirSync(cacheDir).sort()).toEqual(["file", "ok"]);
  });
});

describe("the bundle a command runs from", () => {
  const bundleOf = async (args: string[]) => {
    const r = await suite.run([...args, "--debug"], { env: { EDGECTL_CACHE_DIR: cacheDir } });
    return /\/(main(?:-[a-z-]+)?)-[0-9a-f]{16}-node/.exec(cacheLine(r.stderr) ?? "")?.[1];
  };

  // The build makes the bundles from the registry: one for each first word but those reading the whole tree.
  const words = [...new Set(REGISTRY.map((e) => e.command.split(" ")[0]!))].filter(
    (word) => !REGISTRY.some((e) => e.command === word && !isGroup(e) && e.wholeTree),
  );

  it("is the one made for the first word, for every command at the root but completion", async () => {
    expect(words).not.toContain("completion");
    expect(words.length).toBeGreaterThan(5);
    // At once: each word's cache is a file of its own (the runs wait on their start-up, not on each other).
    const bundles = await Promise.all(words.map(async (word) => [word, await bundleOf([word, "--help"])]));
    expect(bundles).toEqual(words.map((word) => [word, `main-${word}`]));
  });

  it("holds that word's commands alone (the build makes one for each first word of the registry)", () => {
    const dist = new URL("../dist/", import.meta.url);
    const made = readdirSync(dist).filter((f) => /^main-.*\.cjs$/.test(f));
    expect(made.sort()).toEqual(words.map((w) => `main-${w}.cjs`).sort());
    // A group's declaration (its description) is in its own word's bundle, and in no other word's.
    const groups = REGISTRY.filter(isGroup);
    expect(groups.length).toBeGreaterThan(3);
    for (const word of words) {
      const bundle = readFileSync(new URL(`main-${word}.cjs`, dist), "utf8");
      const found = groups.filter((g) => bundle.includes(JSON.stringify(g.description))).map((g) => g.command);
      expect([word, found]).toEqual([
        word,
        groups.filter((g) => g.command.split(" ")[0] === word).map((g) => g.command),
      ]);
    }
  });

  // Issue 24 item 5: a bundle's every byte is read, and its source held, at each start.
  it("holds no action schema: those are dist/actions.cjs, required with the validator (RE2 is in dist/cel.cjs)", () => {
    const dist = new URL("../dist/", import.meta.url);
    for (const name of readdirSync(dist).filter((f) => /^main(-.*)?\.cjs$/.test(f))) {
      const bundle = readFileSync(new URL(name, dist), "utf8");
      // esbuild names each module it bundles in a comment of its path. (actions/regex.ts is RE2's
      // verdict, with CEL, which `policy test` and `migrate --verify` evaluate in their bundles.)
      const found = /\/\/ src\/policy\/actions(\.ts|\/(?!regex\.ts)[\w-]+\.ts)/.exec(bundle)?.[0];
      expect([name, found]).toEqual([name, undefined]);
    }
    const endpoint = readFileSync(new URL("main-endpoint.cjs", dist), "utf8");
    expect(endpoint).toContain('require("./actions.cjs")');
    expect(endpoint).not.toContain("@bufbuild/re2");
    expect(readFileSync(new URL("actions.cjs", dist), "utf8")).not.toContain("@bufbuild/re2");
    expect(readFileSync(new URL("cel.cjs", dist), "utf8")).toContain("// src/policy/actions/regex.ts");
  });

  it("is written as the CommonJS module body's function expression, compiled as read (no copy joined to a wrapper)", () => {
    const dist = new URL("../dist/", import.meta.url);
    const bundles = readdirSync(dist).filter((f) => f.endsWith(".cjs") && f !== "cli.cjs");
    expect(bundles).toEqual(
      expect.arrayContaining(["main.cjs", "main-endpoint.cjs", "yaml.cjs", "zod.cjs", "emulator.cjs"]),
    );
    for (const name of bundles) {
      const text = readFileSync(new URL(name, dist), "utf8");
      expect([
        name,
        text.startsWith("(function (exports, require, module, __filename, __dirname) {\n"),
        text.trimEnd().endsWith("})"),
      ]).toEqual([name, true, true]);
    }
    // cli.cjs is Node's own CommonJS module (bin/edgectl.js requires it).
    expect(readFileSync(new URL("cli.cjs", dist), "utf8")).toMatch(/^"use strict";/);
  });

  it("is ASCII for failover and endpoint: one other character, even in a comment esbuild keeps, makes V8 hold all of it two bytes a character", () => {
    const dist = new URL("../dist/", import.meta.url);
    for (const name of ["main-failover.cjs", "main-endpoint.cjs"]) {
      const bundle = readFileSync(new URL(name, dist), "utf8");
      const other = /[^\u0000-\u007f]/.exec(bundle);
      expect([name, other && bundle.slice(Math.max(0, other.index - 60), other.index + 1)]).toEqual([name, null]);
    }
  });

  it("is the whole tree for completion, the root's help, or a command line that starts with a flag", async () => {
    expect(await bundleOf(["completion", "bash"])).toBe("main");
    expect(await bundleOf(["--help", "--no-color"])).toBe("main");
    expect(await bundleOf(["--json", "failover", "get", FB.id])).toBe("main");
  });

  it("keeps each bundle's cache apart", async () => {
    await get({});
    await suite.run(["config", "path"], { env: { EDGECTL_CACHE_DIR: cacheDir } });
    expect(
      readdirSync(cacheDir)
        .map((f) => f.replace(/-[0-9a-f]{16}-.*/, ""))
        .sort(),
    ).toEqual(["main-config", "main-failover"]);
    expect(cacheLine((await get({})).stderr)).toMatch(/^debug: code cache hit \(.*main-failover-/);
  });
});

describe("a bundle required on demand (zod, to word a refusal)", () => {
  it("gets a code cache of its own, made by the first run that needs it and used by the next", async () => {
    const refuse = () => suite.run(["failover", "get", "bkdfo_", "--debug"], { env: { EDGECTL_CACHE_DIR: cacheDir } });
    const zodLines = (stderr: string) =>
      stderr.split("\n").filter((l) => l.startsWith("debug: code cache") && l.includes("/zod-"));
    const first = await refuse();
    expect(first.exitCode).toBe(2);
    expect(zodLines(first.stderr)).toEqual([expect.stringMatching(/^debug: code cache miss \(/)]);
    const second = await refuse();
    expect(second.stderr).toBe(first.stderr.replace(/code cache miss/g, "code cache hit"));
    expect(
      readdirSync(cacheDir)
        .map((f) => f.replace(/-[0-9a-f]{16}-.*/, ""))
        .sort(),
    ).toEqual(["main-failover", "zod"]);
  });
});

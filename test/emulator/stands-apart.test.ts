// The emulator stands apart from the CLI: no file it reaches, following imports (type imports
// too) from file to file, is one of the CLI's layers. What both sides share is data about the
// API, in src/api-data/. (eslint.config.js refuses a direct import; this also catches one made
// through a shared module.)
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");
const CLI_LAYERS = /^(errors\.ts|cli\.ts|app\.ts|factory\.ts|start\.ts|(commands|output|settings|io)\/)/;

/** Relative imports of a file (static, dynamic, re-exports), as source paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["'](\.[^"']+)["']/gm)].map((m) => m[1]!);
  return specs.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ".ts"));
}

/** Every source file reached from `roots`, each with the chain of imports that reached it. */
function reached(roots: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>(roots.map((r) => [r, [r]]));
  const queue = [...roots];
  while (queue.length) {
    const file = queue.shift()!;
    for (const next of importsOf(file)) {
      if (seen.has(next)) continue;
      seen.set(next, [...seen.get(file)!, next]);
      queue.push(next);
    }
  }
  return seen;
}

const emulatorFiles = () =>
  readdirSync(join(SRC, "emulator"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(SRC, "emulator", f));

describe("the emulator", () => {
  it("reaches none of the CLI's layers through its imports", () => {
    const files = emulatorFiles();
    expect(files.length).toBeGreaterThan(5);
    const offending = [...reached(files)]
      .filter(([file]) => CLI_LAYERS.test(relative(SRC, file)))
      .map(([, chain]) => chain.map((f) => relative(SRC, f)).join(" → "));
    expect(offending).toEqual([]);
  });

  it("shares the data about the API with the CLI through src/api-data", () => {
    const shared = [...reached(emulatorFiles()).keys()].map((f) => relative(SRC, f));
    expect(shared).toEqual(expect.arrayContaining(["api-data/ids.ts", "api-data/providers.ts"]));
  });
});

describe("the scan", () => {
  it("finds a CLI layer reached through another module", () => {
    const chains = [...reached([join(SRC, "commands/input.ts")]).keys()].map((f) => relative(SRC, f));
    expect(chains).toEqual(expect.arrayContaining(["errors.ts", "text/escape.ts", "api-data/ids.ts"]));
  });
});

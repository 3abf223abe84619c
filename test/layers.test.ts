// No import runs back up: the source's layers read, from the bottom,
//   base (errors, version, text, secrets, api-data, files, webhooks)
//   ← api, settings, policy, io ← output ← migrate ← commands (and the entry: cli, app, factory, start),
// and a file imports (statically, dynamically, or for types) only from its own layer or one
// below. eslint.config.js refuses the same imports as you type; this follows every file.
// (The emulator stands apart from the CLI: test/emulator/stands-apart.test.ts.)
import { readFileSync, readdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

/** Each top-level folder or file of src/ and its layer (higher imports lower). */
const LAYER: Record<string, number> = {
  errors: 0,
  version: 0,
  text: 0,
  secrets: 0,
  "api-data": 0,
  files: 0,
  webhooks: 0,
  api: 1,
  settings: 1,
  policy: 1,
  io: 1,
  output: 2,
  migrate: 3,
  emulator: 3,
  commands: 4,
  factory: 5,
  app: 5,
  cli: 5,
  start: 6,
};

const top = (file: string) => relative(SRC, file).split("/")[0]!.replace(/\.ts$/, "");

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["'](\.[^"']+)["']/gm)].map((m) => m[1]!);
  return specs.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ".ts"));
}

const sources = () =>
  readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => resolve(SRC, f));

describe("the layers", () => {
  it("name every top-level folder and file of src/", () => {
    expect([...new Set(sources().map(top))].filter((t) => !(t in LAYER))).toEqual([]);
  });

  it("are never imported upwards", () => {
    const upwards: string[] = [];
    for (const file of sources()) {
      for (const target of importsOf(file)) {
        if (LAYER[top(target)]! > LAYER[top(file)]!) upwards.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(upwards).toEqual([]);
  });

  it("keep terminal escaping and what a secret is in the base", () => {
    const below = (name: string) => importsOf(resolve(SRC, name)).map((f) => relative(SRC, f));
    expect(below("api/client.ts")).toContain("text/escape.ts");
    expect(below("output/mask.ts")).toContain("secrets/index.ts");
    // The walk over the table of secret places is the base's too (src/secrets/walk.ts).
    expect(below("migrate/policy.ts")).toContain("secrets/walk.ts");
    expect(below("api/redact.ts")).toContain("secrets/walk.ts");
    expect(below("policy/index.ts")).toContain("secrets/index.ts");
  });
});

import { existsSync } from "node:fs";
import type { TestSpecification, Vitest } from "vitest/node";
import { describe, expect, it } from "vitest";
import SpawningFirst, { SPAWNING, spawns } from "./sequencer.js";

const ROOT = "/repo";
const project = { name: "", config: { sequence: { groupOrder: 0 }, isolate: false } };
const spec = (file: string) => ({ moduleId: `${ROOT}/${file}`, project }) as unknown as TestSpecification;
/** A sequencer over a stand-in vitest: `durations` an earlier run's (none: a clean clone), `sizes` the files'. */
const sequencer = (sizes: Record<string, number>, durations?: Record<string, number>) =>
  new SpawningFirst({
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => durations && { duration: durations[key.slice(1)] ?? 0, failed: false },
      getFileStats: (key: string) => ({ size: sizes[key.slice(1)] ?? 0 }),
    },
  } as unknown as Vitest);
const order = async (s: SpawningFirst, files: string[]) =>
  (await s.sort(files.map(spec))).map((f) => f.moduleId.slice(ROOT.length + 1));

describe("the suite's sequencer (test/sequencer.ts)", () => {
  it.each(SPAWNING)("names %s, which exists", (path) => {
    expect(existsSync(new URL(`../${path}`, import.meta.url))).toBe(true);
  });

  it("tells the spawning files from the in-process tables", () => {
    expect(spawns("test/e2e/examples.test.ts")).toBe(true);
    expect(spawns("test/emulator/process.test.ts")).toBe(true);
    expect(spawns("test/commands/failover/get.test.ts")).toBe(false);
    expect(spawns("test/emulator/protocol.test.ts")).toBe(false);
  });

  const files = [
    "test/commands/failover/get.test.ts",
    "test/e2e/examples.test.ts",
    "test/policy/corpus.test.ts",
    "test/start.test.ts",
  ];
  const sizes = {
    "test/commands/failover/get.test.ts": 9_000,
    "test/policy/corpus.test.ts": 20_000,
    "test/e2e/examples.test.ts": 5_000,
    "test/start.test.ts": 3_000,
  };

  it("without an earlier run's durations, starts the spawning files first, each group largest first", async () => {
    expect(await order(sequencer(sizes), files)).toEqual([
      "test/e2e/examples.test.ts",
      "test/start.test.ts",
      "test/policy/corpus.test.ts",
      "test/commands/failover/get.test.ts",
    ]);
  });

  it("with them, keeps vitest's order: the longest first", async () => {
    const durations = {
      "test/commands/failover/get.test.ts": 4_000,
      "test/e2e/examples.test.ts": 8_000,
      "test/policy/corpus.test.ts": 100,
      "test/start.test.ts": 2_000,
    };
    expect(await order(sequencer(sizes, durations), files)).toEqual([
      "test/e2e/examples.test.ts",
      "test/commands/failover/get.test.ts",
      "test/start.test.ts",
      "test/policy/corpus.test.ts",
    ]);
  });
});

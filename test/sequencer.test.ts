import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SPAWNING, spawns } from "./sequencer.js";

describe("the suite's sequencer (test/sequencer.ts)", () => {
  it.each(SPAWNING)("names %s, which exists", (path) => {
    expect(existsSync(new URL(`../${path}`, import.meta.url))).toBe(true);
  });

  it("puts the spawning files first and the in-process tables after", () => {
    expect(spawns("test/e2e/examples.test.ts")).toBe(true);
    expect(spawns("test/emulator/process.test.ts")).toBe(true);
    expect(spawns("test/commands/failover/get.test.ts")).toBe(false);
    expect(spawns("test/emulator/protocol.test.ts")).toBe(false);
  });
});

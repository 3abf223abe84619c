// The spawned CLIs of every worker share the one code cache folder test/global-setup.ts makes
// and removes: a folder made per worker outlived the run (a worker thread has no "exit" event).
import { existsSync } from "node:fs";
import { describe, expect, it, inject } from "vitest";
import { baseEnv } from "./cli.js";

describe("the test CLI's environment", () => {
  it("hands every child the run's one code cache folder, which exists while the run does", () => {
    const cacheDir = inject("cacheDir");
    expect(baseEnv("/nowhere").EDGECTL_CACHE_DIR).toBe(cacheDir);
    expect(existsSync(cacheDir)).toBe(true);
  });
});

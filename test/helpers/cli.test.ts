// Every temp folder of a run is inside the run's own folder (test/global-setup.ts), which is
// removed when the run ends; the spawned CLIs of every worker share its one code cache folder.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, inject } from "vitest";
import { baseEnv, sandbox } from "./cli.js";

describe("the test CLI's environment", () => {
  it("hands every child the run's one code cache folder, which exists while the run does", () => {
    const cacheDir = inject("cacheDir");
    expect(baseEnv("/nowhere").EDGECTL_CACHE_DIR).toBe(cacheDir);
    expect(existsSync(cacheDir)).toBe(true);
  });

  it("makes temp folders inside the run's folder, in this worker and in the children it starts", () => {
    const runDir = inject("runDir");
    expect(tmpdir()).toBe(runDir);
    expect(baseEnv("/nowhere").TMPDIR).toBe(runDir);
    const cli = sandbox();
    try {
      expect(cli.configDir.startsWith(join(runDir, "edgectl-test-"))).toBe(true);
    } finally {
      cli.cleanup();
    }
  });
});

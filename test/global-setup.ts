// Runs once for the whole `vitest run`, before any worker starts: the code cache folder the
// suite's children of bin/edgectl.js share (src/start.ts, EDGECTL_CACHE_DIR). One folder for the
// run, made here and removed here, because a worker thread never sees its process's "exit"
// event: made per worker, four folders were left in the temp folder by every run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The code cache folder of this run's spawned CLIs (test/helpers/cli.ts). */
    cacheDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const cacheDir = mkdtempSync(join(tmpdir(), "edgectl-test-cache-"));
  project.provide("cacheDir", cacheDir);
  return () => {
    rmSync(cacheDir, { recursive: true, force: true });
  };
}

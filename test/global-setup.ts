// Runs once for the whole `vitest run`, before any worker starts. It makes one folder for the
// run, and every temp folder of the run goes inside it: the workers and the processes they start
// inherit TMPDIR (os.tmpdir(), mkdtemp), so the code cache the spawned CLIs share
// (src/start.ts, EDGECTL_CACHE_DIR), the tests' config and scratch folders, and whatever a
// child leaves behind are all removed with it when the run ends. Tests remove their own
// folders too; this catches what a hook never reached: a worker thread has no "exit" event
// (a cache folder per worker outlived every run), and a run filtered with -t collects
// describe blocks whose afterAll never runs.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of this run, TMPDIR for its workers and their children. */
    runDir: string;
    /** The code cache folder of this run's spawned CLIs (test/helpers/cli.ts). */
    cacheDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const runDir = mkdtempSync(join(tmpdir(), "edgectl-test-run-"));
  const cacheDir = join(runDir, "code-cache");
  mkdirSync(cacheDir);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = runDir;
  project.provide("runDir", runDir);
  project.provide("cacheDir", cacheDir);
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(runDir, { recursive: true, force: true });
  };
}

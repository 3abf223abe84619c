// The order vitest starts test files in. With durations from an earlier run (its cache in
// node_modules/.vite), vitest starts the longest first, and this keeps that order. A clean
// clone (CI) has none, and vitest then starts the largest files first: the in-process tables,
// while the files that spawn processes, small but long because they wait on their children,
// start last and run on after the rest (a clean clone took 58.9 s where a rerun took 50.0 s:
// BENCHMARKS.md, "Test suite, fourth round"). So files under these paths, which spawn
// bin/edgectl.js or the emulator, start first when there is no earlier run to go by.
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

export const SPAWNING = [
  "test/e2e/",
  "test/reliability/",
  "test/proxy/",
  "test/batch/",
  "test/start.test.ts",
  "test/emulator/cli.test.ts",
  "test/emulator/process.test.ts",
  "test/emulator/traffic/process.test.ts",
];

/** True when `file` (relative to the root) spawns processes for its tests. */
export function spawns(file: string): boolean {
  return SPAWNING.some((path) => file.startsWith(path));
}

export default class SpawningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root + "/";
    const relative = (spec: TestSpecification) => spec.moduleId.slice(root.length);
    const known = sorted.every((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(spec)}`));
    if (known) return sorted;
    return [...sorted.filter((spec) => spawns(relative(spec))), ...sorted.filter((spec) => !spawns(relative(spec)))];
  }
}

import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import SpawningFirst from "./test/sequencer.js";

// The suite's children (bin/edgectl.js, the emulator as a process) talk to loopback servers over
// plain http, so the machine's extra CA file is not theirs to load: on Node 20 it costs every
// child ~45 ms of CPU at start-up, 12 s of the suite's ~270 spawns (BENCHMARKS.md, "Test suite,
// fourth round"). The proxy tests, which test the variable, hand their own CA file to the child;
// start-up with and without it is measured in `npm run bench`. Workers inherit this process.env.
delete process.env.NODE_EXTRA_CA_CERTS;

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  define: { __EDGECTL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Threads, and one module graph per worker rather than per file: loading vitest, zod,
    // commander and src/ again for each of ~100 files cost more CPU than the tests themselves
    // (BENCHMARKS.md, "Test suite"). Tests therefore leave no global state behind (timers
    // are restored; the CLI under test gets its env and streams handed in, src/app.ts).
    pool: "threads",
    isolate: false,
    // Most of a spawned test's time is waiting on its child or a server, so a worker more than
    // the two cores keeps them busy. Not two more: each worker imports the whole module graph
    // (src/, vitest, zod, commander, yaml, CEL) once, and four threads on two cores cost the
    // in-process tests (test/commands, app, api, output, policy, migrate, webhooks: 2,801) 32.1 s
    // of CPU and 44.5 s wall against 27.6 s and 28.8 s with three (2: 25.5 s and 29.7 s).
    maxWorkers: 3,
    // Without an earlier run's durations (a clean clone), the files that spawn processes start first.
    sequence: { sequencer: SpawningFirst },
  },
});

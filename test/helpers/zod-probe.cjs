// Preloaded (node --require) by test/e2e/zod-on-demand.test.ts: says on stderr, as the process
// exits, whether zod was evaluated (zod's core sets globalThis.__zod_globalConfig when it is).
"use strict";
process.on("exit", () =>
  process.stderr.write(`zod evaluated: ${globalThis.__zod_globalConfig === undefined ? "no" : "yes"}\n`),
);

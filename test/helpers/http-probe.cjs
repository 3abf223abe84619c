// Preloaded (node --require) by test/e2e/zod-on-demand.test.ts: says on stderr, as the process
// exits, whether node:http was loaded (process.moduleLoadList names each builtin loaded).
"use strict";
process.on("exit", () =>
  process.stderr.write(`node:http loaded: ${process.moduleLoadList.includes("NativeModule http") ? "yes" : "no"}\n`),
);

// Preloaded (node --require) by test/e2e/zod-on-demand.test.ts: says on stderr, as the process
// exits, whether zod was evaluated (zod's core sets globalThis.__zod_globalConfig when it is),
// and whether node:http was loaded (process.moduleLoadList names each builtin).
"use strict";
process.on("exit", () => {
  const loaded = ["http"].filter((name) => process.moduleLoadList.includes(`NativeModule ${name}`));
  process.stderr.write(`zod evaluated: ${globalThis.__zod_globalConfig === undefined ? "no" : "yes"}\n`);
  process.stderr.write(`builtins loaded: ${loaded.join(" ") || "none"}\n`);
});

// Preloaded (node --require) by test/e2e/yaml-on-demand.test.ts: says on stderr, as the process
// exits, whether the command read the action table's bundle (dist/actions.cjs: every action's
// config schema, required with the validator): src/start.ts reads each bundle it runs with fs.readFileSync.
"use strict";
const fs = require("node:fs");
const readFileSync = fs.readFileSync;
const seen = new Set();
fs.readFileSync = function (path, ...rest) {
  if (typeof path === "string" && /[\\/]actions\.cjs$/.test(path)) seen.add(path.replace(/.*[\\/]/, ""));
  return readFileSync.call(this, path, ...rest);
};
process.on("exit", () =>
  process.stderr.write(`action schemas loaded: ${seen.size === 0 ? "no" : [...seen].sort().join(", ")}\n`),
);

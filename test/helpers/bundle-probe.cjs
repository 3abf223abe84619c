// Preloaded (node --require) by test/e2e/commander-on-demand.test.ts: says on stderr, as the
// process exits, which of dist/'s bundles src/start.ts compiled (each one it runs goes through
// vm.Script), in order.
"use strict";
const vm = require("node:vm");
const { basename } = require("node:path");
const compiled = [];
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (options && typeof options.filename === "string") compiled.push(basename(options.filename));
    super(code, options);
  }
};
process.on("exit", () => process.stderr.write(`bundles compiled: ${compiled.join(" ")}\n`));

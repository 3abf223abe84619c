#!/usr/bin/env node
// CommonJS (see bin/package.json): Node 20 starts a CommonJS entry ~10 ms sooner than an ES module.
"use strict";
require("../dist/cli.cjs").main();

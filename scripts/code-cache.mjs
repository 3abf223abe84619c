// Runs one edgectl command the way dist/cli.cjs does, then saves the V8 code cache of
// dist/main.cjs with every function that command compiled. Used by scripts/build.mjs:
// node scripts/code-cache.mjs <cache-file> <edgectl args…>
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const { compileMain, runMain } = createRequire(import.meta.url)("../dist/cli.cjs");

const [cacheFile, ...args] = process.argv.slice(2);
const script = compileMain();
// The CLI ends with process.exit(); the cache is taken just before the process goes.
process.on("exit", () => writeFileSync(cacheFile, script.createCachedData()));
await runMain(script).main([process.argv[0], "edgectl", ...args]);

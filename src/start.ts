// What bin/edgectl.js runs (built as dist/cli.cjs). `edgectl --version` and `edgectl --help`
// are answered here, at Node's start-up floor; everything else runs src/cli.ts, which the
// build bundles, with all it may need, as dist/main.cjs. The root help is commander's own
// text, saved by scripts/build.mjs as dist/help.txt.
//
// dist/main.cjs is compiled with the V8 code cache the build saved beside it: Node 20 keeps
// no compiled code for ES modules, and compiling commander, zod and the command tree is most
// of what a command costs beyond `node -e 0` (measured in BENCHMARKS.md). A cache that does
// not fit (another Node version) is ignored by V8, which then compiles as usual.
//
// It is built as CommonJS, and bin/edgectl.js is CommonJS too (bin/package.json): Node 20's
// ES module loader costs ~10 ms at every start, a quarter of what a command adds to `node -e 0`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "node:vm";
import { helpWidth } from "./output/help-width.js";
import { VERSION } from "./version.js";

type Cli = typeof import("./cli.js");

export async function main(argv: string[] = process.argv): Promise<void> {
  const only = argv.length === 3 ? argv[2] : undefined;
  if (only === "--version" || only === "-v") return answer(`${VERSION}\n`);
  if ((only === "--help" || only === "-h") && helpWidth() === 80) {
    const help = read("help.txt");
    if (help !== undefined) return answer(help.toString("utf8"));
  }
  await runMain(compileMain(read("main.cjs.cache"))).main(argv);
}

/**
 * Writes the answer; one that cannot be written (a full disk, a closed stdout) is an error,
 * as src/cli.ts makes it for every command, and a reader closing the pipe is not.
 */
function answer(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.on("error", () => {}); // reported through the callback below
    process.stdout.write(text, (err?: NodeJS.ErrnoException | null) => {
      if (err && err.code !== "EPIPE") {
        process.stderr.write(`error: cannot write output: ${err.message}\n`);
        process.exitCode = 1;
      }
      resolve();
    });
  });
}

// __dirname: this file runs as dist/cli.cjs, beside main.cjs.
const MAIN = join(__dirname, "main.cjs");

/** dist/main.cjs as a CommonJS module body (scripts/build.mjs makes the cache with this too). */
export function compileMain(cachedData?: Buffer): Script {
  const vm = process.getBuiltinModule("node:vm");
  const body = readFileSync(MAIN, "utf8");
  return new vm.Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename: MAIN, cachedData });
}

export function runMain(script: Script): Cli {
  const { createRequire } = process.getBuiltinModule("node:module");
  const module = { exports: {} as Cli };
  script.runInThisContext()(module.exports, createRequire(MAIN), module, MAIN, __dirname);
  return module.exports;
}

function read(name: string): Buffer | undefined {
  try {
    return readFileSync(join(__dirname, name));
  } catch {
    return undefined;
  }
}

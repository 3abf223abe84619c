// `npm test`: the build (test/e2e spawns bin/edgectl.js, which runs dist/) unless dist/ is already
// the build of this tree (scripts/build-stamp.mjs; in CI, `npm ci` has just built it), then the whole suite
// (vitest run, with any arguments given after `--`). vitest's own output, its `Tests N passed`
// line included (.ci/run reads it), goes through untouched. Last comes the total time,
// `npm test: NN.N s`. The exit code is the build's, else vitest's. The type check is a static
// check like ESLint's (whose type-aware rules build the same program): `npm run lint` runs it,
// and CI runs lint before the tests.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { distIsFresh } from "./build-stamp.mjs";

const started = performance.now();
const root = fileURLToPath(new URL("..", import.meta.url));

/** Runs node with `args` in the project; resolves with its exit code and, when buffered, its output. */
function node(args, { buffer = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: buffer ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (buffer) for (const s of [child.stdout, child.stderr]) s.on("data", (c) => (output += c));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

function finish(code) {
  const seconds = (performance.now() - started) / 1000;
  console.log(`npm test: ${seconds.toFixed(1)} s`);
  process.exit(code);
}

if (distIsFresh()) console.log("npm test: dist/ is the build of this tree (not rebuilt)");
else {
  const build = await node(["scripts/build.mjs"], { buffer: true });
  if (build.output) process.stdout.write(build.output);
  if (build.code !== 0) {
    console.error(`npm test: the build failed (exit code ${build.code})`);
    finish(build.code);
  }
}
const vitest = await node(["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]);
finish(vitest.code);

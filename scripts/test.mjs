// `npm test`: the build (test/e2e spawns bin/edgectl.js, which runs dist/), then the whole suite
// (vitest run, with any arguments given after `--`), with `tsc --noEmit` beside both: started
// with the build, it runs while vitest's tests wait on the processes and servers they start, so
// it adds little to the total. vitest's own output, its `Tests N passed` line included
// (.ci/run reads it), goes through untouched; tsc's follows it. Last comes the total time,
// `npm test: NN.N s`. The exit code is the build's, else vitest's, else tsc's.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

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

const typecheck = node(["node_modules/typescript/bin/tsc", "--noEmit"], { buffer: true });
const build = await node(["scripts/build.mjs"], { buffer: true });
if (build.output) process.stdout.write(build.output);
if (build.code !== 0) {
  console.error(`npm test: the build failed (exit code ${build.code})`);
  finish(build.code);
}
const vitest = await node(["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]);
const tsc = await typecheck;
if (tsc.output) process.stdout.write(tsc.output);
if (tsc.code !== 0) console.error(`npm test: tsc --noEmit failed (exit code ${tsc.code})`);
finish(vitest.code || tsc.code);

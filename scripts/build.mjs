// Bundles src/ into dist/ with esbuild, in two files:
// - dist/cli.cjs (CommonJS, from src/start.ts): answers --version and --help itself and
//   otherwise runs
// - dist/main.cjs (CommonJS, from src/cli.ts): the command tree and all it may need (the
//   emulator), in one file whose modules esbuild evaluates only when first imported; and
//   dist/config-write.cjs (proper-lockfile, write-file-atomic), required only by commands that
//   write the config; and dist/yaml-text.cjs (yaml), required only to print or mask a Traffic Policy in YAML.
// Then it saves commander's root help (dist/help.txt) and a V8 code cache for main.cjs
// (dist/main.cjs.cache), made by running one real command so that the functions a command
// runs are compiled in it; see src/start.ts and BENCHMARKS.md.
import { build } from "esbuild";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const dist = (name) => new URL(`../dist/${name}`, import.meta.url);
const bin = fileURLToPath(new URL("../bin/edgectl.js", import.meta.url));
rmSync(dist(""), { recursive: true, force: true });
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  minifySyntax: true,
  legalComments: "none",
  define: { __EDGECTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
};
// CommonJS, like bin/edgectl.js: Node 20's ES module loader costs ~10 ms at every start.
await build({ ...common, entryPoints: { cli: "src/start.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" }, format: "cjs" });
// No import() is left in main.cjs (src/start.ts compiles it as a script, where import() is not
// available): esbuild turns every one into require().
// The config file's lock and atomic write go to dist/config-write.cjs, required by main.cjs
// only when a command writes the config file.
const writeApart = {
  name: "config-write-apart",
  setup(b) {
    b.onResolve({ filter: /\/config-write\.js$/ }, () => ({ path: "./config-write.cjs", external: true }));
    // The yaml library likewise, required only by `migrate edge` to print a policy.
    b.onResolve({ filter: /\/yaml-text\.js$/ }, () => ({ path: "./yaml-text.cjs", external: true }));
  },
};
await build({ ...common, entryPoints: { main: "src/cli.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" }, format: "cjs", supported: { "dynamic-import": false }, plugins: [writeApart] });
await build({ ...common, entryPoints: { "config-write": "src/settings/config-write.ts", "yaml-text": "src/output/yaml-text.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" }, format: "cjs" });

// Commander's root help at the 80 columns help always uses (printed by src/start.ts).
const env = { PATH: process.env.PATH, NO_COLOR: "1" };
writeFileSync(dist("help.txt"), execFileSync(process.execPath, [bin, "--help"], { env, encoding: "utf8" }));

// The code cache, after `edgectl failover get <id>` against the emulator. Without it (say,
// no loopback networking here) edgectl works the same, only compiles at every start.
const configDir = mkdtempSync(join(tmpdir(), "edgectl-build-"));
try {
  await withEmulator(async (url) => {
    const id = await createFailover(url);
    const warm = fileURLToPath(new URL("./code-cache.mjs", import.meta.url));
    execFileSync(process.execPath, [warm, fileURLToPath(dist("main.cjs.cache")), "failover", "get", id], {
      env: { ...env, EDGECTL_BASE_URL: url, EDGECTL_API_KEY: "build", EDGECTL_CONFIG_DIR: configDir },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 20_000,
    });
  });
} catch (err) {
  rmSync(dist("main.cjs.cache"), { force: true });
  console.warn(`build: no code cache for dist/main.cjs (${err.message}); edgectl will compile at every start`);
} finally {
  rmSync(configDir, { recursive: true, force: true });
}

async function withEmulator(use) {
  const child = spawn(process.execPath, [bin, "emulator", "--port", "0"], { env, stdio: ["ignore", "pipe", "ignore"] });
  try {
    const url = await new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error("the emulator did not start")), 10_000).unref();
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code})`)));
    });
    await use(url);
  } finally {
    child.kill("SIGTERM");
  }
}

function createFailover(url) {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: "Bearer build", "Ngrok-Version": "2", "Content-Type": "application/json" };
    const req = http.request(`${url}/backends/failover`, { method: "POST", headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => (res.statusCode === 201 ? resolve(JSON.parse(body).id) : reject(new Error(`create answered ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ backends: ["bkdhr_build"] }));
  });
}

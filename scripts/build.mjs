// Bundles src/ into dist/ with esbuild, in two files:
// - dist/cli.cjs (CommonJS, from src/start.ts): answers --version and --help itself and
//   otherwise runs
// - dist/main.cjs (CommonJS, from src/cli.ts): the command tree, in one file whose command
//   modules esbuild evaluates only when first imported (src/commands/root.ts imports the one
//   argv names); dist/main-<word>.cjs, the same with only the commands under one first word
//   (`failover`, one for each word src/commands/tree.ts lists), which src/start.ts runs when the command line starts with it; and dist/config-write.cjs (proper-lockfile, write-file-atomic), required only
//   by commands that write the config; dist/yaml.cjs (the yaml library and the tool's one YAML
//   configuration, src/policy/yaml.ts), required only when a YAML text is read (to check, mask
//   or edit a Traffic Policy in YAML; src/output/yaml-write.ts prints one without it);
//   dist/emulator.cjs, required only by `edgectl emulator`; dist/commander.cjs, required only
//   for a command line src/commands/argv.ts does not read (help, errors).
// Then it saves commander's root help (dist/help.txt). No V8 code cache is made here: V8
// takes one only from the Node version that made it, so src/start.ts makes it on first run
// in the user's cache folder, keyed by Node version and by the hash of the main bundles defined below.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
// No import() is left in main.cjs (src/start.ts compiles it as a script, where import() is not
// available): esbuild turns every one into require().
// The config file's lock and atomic write go to dist/config-write.cjs, required by main.cjs
// only when a command writes the config file.
const writeApart = {
  name: "config-write-apart",
  setup(b) {
    b.onResolve({ filter: /\/config-write\.js$/ }, () => ({ path: "./config-write.cjs", external: true }));
    // The yaml library likewise (dist/yaml.cjs), required only when a YAML text is read: to check
    // (src/policy/yaml.ts), mask or edit (src/output/yaml-text.ts) a YAML policy. `policy check`
    // of a JSON policy never loads it.
    b.onResolve({ filter: /\/policy\/yaml\.js$|^\.\/yaml\.js$|\/yaml-text\.js$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: "./yaml.cjs", external: true } : undefined,
    );
    // The emulator's server (with zod classic, its locales and yaml) to dist/emulator.cjs:
    // sharing zod with the command tree, it made esbuild wrap all of zod in lazy module
    // initialisers, so every command evaluated zod's every locale and its JSON Schema code.
    b.onResolve({ filter: /\/emulator\/server\.js$/ }, () => ({ path: "./emulator.cjs", external: true }));
    // commander to dist/commander.cjs, required only for a line src/commands/argv.ts leaves to it
    // (help, errors, the few forms it does not read): most commands never evaluate it.
    b.onResolve({ filter: /^commander$/ }, () => ({ path: "./commander.cjs", external: true }));
  },
};
// commander requires node:child_process (and with it net, dgram…) at load, for executable
// subcommands, which edgectl has none of: it is required when first used instead.
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, ({ path }) => {
      const source = readFileSync(path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`lazy-child-process: not found in ${path}`);
      return {
        contents: source.replace(
          eager,
          "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
        ),
        loader: "js",
      };
    });
  },
};
// zod is evaluated on first use, not when a module importing it is: `import * as z from
// "zod/mini"` in src/ gets a stand-in whose functions load zod when first called, so a command
// that makes no schema (`failover get` with valid input and answers: src/commands/input.ts,
// src/api/schema.ts) never evaluates it. The stand-in has the zod functions src/ calls
// (`z.name(`); it requires dist/zod.cjs, a bundle of just those (zod tree-shaken), which
// src/start.ts compiles with its own code cache, like every bundle it runs; the main bundles
// then carry none of zod's code. src/ uses zod's classes and namespaces as types
// only; a value use of any name the stand-in lacks fails the build (logOverride below).
const zodExports = await import("zod/mini");
const zodNames = new Set();
for (const file of readdirSync("src", { recursive: true })) {
  if (!file.endsWith(".ts")) continue;
  const source = readFileSync(join("src", file), "utf8");
  if (!source.includes('from "zod/mini"')) continue;
  for (const [, name] of source.matchAll(/\bz\.(\w+)\(/g))
    if (typeof zodExports[name] === "function") zodNames.add(name);
}
const lazyZod = {
  name: "lazy-zod",
  setup(b) {
    const resolveDir = fileURLToPath(new URL("..", import.meta.url));
    b.onResolve({ filter: /^zod\/mini$/ }, () => ({ path: "stand-in", namespace: "lazy-zod" }));
    b.onResolve({ filter: /^\.\/zod\.cjs$/ }, () => ({ path: "./zod.cjs", external: true }));
    b.onLoad({ filter: /^stand-in$/, namespace: "lazy-zod" }, () => ({
      resolveDir,
      loader: "js",
      contents: [
        "let zod;",
        'const load = () => (zod ??= require("./zod.cjs"));',
        // Numbered: some of zod's names (catch, enum…) are reserved words.
        ...[...zodNames].map(
          (name, i) => `const f${i} = (...a) => load().${name}(...a);\nexport { f${i} as ${name} };`,
        ),
      ].join("\n"),
    }));
  },
};
const mainOptions = {
  ...common,
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  supported: { "dynamic-import": false },
  plugins: [writeApart, lazyZod],
  logOverride: { "import-is-undefined": "error" },
};
await build({ ...mainOptions, entryPoints: { main: "src/cli.ts" } });
// The commands under each first word of the command line, each in a bundle of its own,
// main-<word>.cjs: `edgectl failover get` then reads and deserialises failover's modules alone.
// The words are those src/commands/tree.ts imports (`import { name } from "./<word>/index.js";`),
// but any whose declaration reads the whole tree (`wholeTree: true`: completion); in the
// bundle of one word, tree.ts is replaced by a module holding that word's command alone.
const treeFile = fileURLToPath(new URL("../src/commands/tree.ts", import.meta.url));
const treeSource = readFileSync(treeFile, "utf8");
const entries = [...treeSource.matchAll(/^import \{ (\w+) \} from "\.\/([a-z]+(?:-[a-z]+)*)\/index\.js";$/gm)].map(
  ([line, name, word]) => ({ line, name, word }),
);
const listed = /COMMANDS[^=]*=\s*\[([^\]]*)\]/.exec(treeSource)?.[1].match(/\w+/g) ?? [];
if (entries.length === 0 || listed.join() !== entries.map((e) => e.name).join())
  throw new Error(
    'src/commands/tree.ts: COMMANDS must list, in order, one name per `import { name } from "./<word>/index.js";`',
  );
const WORDS = entries.filter(
  ({ word }) => !/\bwholeTree: true\b/.test(readFileSync(join("src/commands", word, "index.ts"), "utf8")),
);
for (const { line, name, word } of WORDS) {
  const oneWord = {
    name: "one-word",
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]commands[\\/]tree\.ts$/ }, () => ({
        contents: `${line}\nexport const COMMANDS = [${name}];\n`,
        resolveDir: dirname(treeFile),
        loader: "ts",
      }));
    },
  };
  await build({
    ...mainOptions,
    entryPoints: { [`main-${word}`]: "src/cli.ts" },
    plugins: [oneWord, ...mainOptions.plugins],
  });
}
// commander, as src/app.ts and src/commands/root.ts require it.
await build({
  ...common,
  entryPoints: { commander: "node_modules/commander/index.js" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  plugins: [lazyChildProcess],
});
// zod, as the stand-in requires it: the functions src/ calls, tree-shaken.
await build({
  ...common,
  stdin: {
    contents: `export { ${[...zodNames].join(", ")} } from "zod/mini";`,
    resolveDir: fileURLToPath(new URL("..", import.meta.url)),
    sourcefile: "zod-used.js",
  },
  outfile: "dist/zod.cjs",
  format: "cjs",
});
await build({
  ...common,
  entryPoints: {
    "config-write": "src/settings/config-write.ts",
    emulator: "src/emulator/server.ts",
  },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
});
// One yaml bundle, dist/yaml.cjs: the tool's YAML configuration and readings (src/policy/yaml.ts)
// and the masking and editing on its Document (src/output/yaml-text.ts). yaml's ES module build
// (its "default" export, which platform "node" passes over for the CommonJS one) lets esbuild
// drop what these do not use.
await build({
  ...common,
  platform: "neutral",
  mainFields: ["module", "main"],
  stdin: {
    contents: 'export * from "./src/policy/yaml.ts";\nexport * from "./src/output/yaml-text.ts";\n',
    resolveDir: fileURLToPath(new URL("..", import.meta.url)),
    sourcefile: "yaml-entry.js",
    loader: "js",
  },
  outfile: "dist/yaml.cjs",
  format: "cjs",
});
// A default or namespace import of a Node builtin (`import http from "node:http"`) is bundled
// as a copy of the module with a getter per export (esbuild's __toESM), made at start: for
// node:http and node:net that was enough to cost `failover get` a young-generation GC on Node
// 22 and 24 (BENCHMARKS.md, "Start-up, fifth round"). The command tree imports builtins by
// name; a lazy import() of one (made only when used) is fine.
for (const name of readdirSync(dist(""))) {
  if (!/^main(-[\w-]+)?\.cjs$/.test(name)) continue;
  const copy = /(?<!\(\) => )__toESM\(require\("node:([\w/]+)"\)/.exec(readFileSync(dist(name), "utf8"));
  if (copy) throw new Error(`${name}: node:${copy[1]} is imported as a whole at start; import what is used by name`);
}
// CommonJS, like bin/edgectl.js: Node 20's ES module loader costs ~10 ms at every start.
// Of every bundle src/start.ts compiles with a code cache (all but cli.cjs itself).
const hash = createHash("sha256");
for (const name of readdirSync(dist("")).sort())
  if (name.endsWith(".cjs")) hash.update(name).update(readFileSync(dist(name)));
const buildHash = hash.digest("hex").slice(0, 16);
await build({
  ...common,
  define: { ...common.define, __EDGECTL_BUILD__: JSON.stringify(buildHash) },
  entryPoints: { cli: "src/start.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
});

// Commander's root help at the 80 columns help always uses (printed by src/start.ts); the code
// cache that run makes goes to a temp folder, not the builder's.
const cacheDir = mkdtempSync(join(tmpdir(), "edgectl-build-"));
try {
  const env = { PATH: process.env.PATH, NO_COLOR: "1", EDGECTL_CACHE_DIR: cacheDir };
  writeFileSync(dist("help.txt"), execFileSync(process.execPath, [bin, "--help"], { env, encoding: "utf8" }));
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}

// Bundles src/ into dist/ with esbuild, in two files:
// - dist/cli.cjs (CommonJS, from src/start.ts): answers --version and --help itself and
//   otherwise runs
// - dist/main.cjs (CommonJS, from src/cli.ts): commander and the command tree, in one file
//   whose command modules esbuild evaluates only when first imported (src/commands/root.ts
//   imports the ones the command line names); dist/main-<word>.cjs, the same with only the
//   commands under one first word (`failover`: one for each first word of the registry,
//   src/commands/registry.ts), which src/start.ts runs when the command line starts with it;
//   and dist/config-write.cjs (proper-lockfile and src/files/durable.ts), required only by commands
//   that write the config; dist/yaml.cjs (the yaml library and the tool's one YAML
//   configuration, src/policy/yaml.ts), required only when a YAML text is read (to check, mask
//   or edit a Traffic Policy in YAML; src/output/yaml-write.ts prints one without it); dist/emulator.cjs,
//   required only by `edgectl emulator`; dist/zod.cjs, required only by a command that makes
//   a zod schema; dist/cel.cjs (src/policy/cel and @bufbuild/cel, with the RE2 that checks an
//   action's patterns), required only for a Traffic Policy with CEL (expressions or `${…}`) or a
//   pattern; dist/actions.cjs (src/policy/actions.ts: every action's spec and config schema),
//   required with the validator, by a command that checks a policy.
// The build reads no source text: it imports the registry (bundled on its own) for the words
// and the modules of each bundle, and zod/mini for the names of its functions.
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
import { writeStamp } from "./build-stamp.mjs";
import { loadRegistry } from "./registry.mjs";

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
// Every bundle but cli.cjs is run by src/start.ts as a CommonJS module body, compiled with
// its code cache: written as that function expression, so that V8 compiles the file's text
// as it was read, not a copy of it joined to a wrapper (the copy of main-endpoint.cjs and
// yaml.cjs, flattened before V8 compiles it, was 0.2–0.4 ms of `endpoint get`, and 0.5 MB
// more of the young generation: BENCHMARKS.md, "Issue 24 item 5, fifth look").
const wrapped = {
  ...common,
  banner: { js: "(function (exports, require, module, __filename, __dirname) {" },
  footer: { js: "})" },
};
// No import() is left in main.cjs (src/start.ts compiles it as a script, where import() is not
// available): esbuild turns every one into require().
// The config file's lock and atomic write go to dist/config-write.cjs, required by main.cjs
// only when a command writes the config file.
const actionsModule = fileURLToPath(new URL("../src/policy/actions.js", import.meta.url));
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
    // The CEL checker and evaluator (src/policy/cel/ with @bufbuild/cel, its RE2 and protobuf)
    // likewise (dist/cel.cjs), required only for a policy with expressions or `${…}`
    // (src/policy/index.ts loadCel): a policy of actions alone never reads it.
    b.onResolve({ filter: /^\.\/cel\/index\.js$/ }, (args) =>
      /[\\/]src[\\/]policy[\\/]/.test(args.importer) ? { path: "./cel.cjs", external: true } : undefined,
    );
    // The action table (src/policy/actions.ts and its 26 modules: each config's schema, made on
    // first use) likewise (dist/actions.cjs), required with the validator (src/policy/index.ts),
    // which a command loads only to check a policy: `endpoint get` parses none of it. Its RE2
    // checker is in dist/cel.cjs (src/policy/cel/index.ts), loaded for a policy that needs it.
    b.onResolve({ filter: /\/actions\.js$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && join(args.resolveDir, args.path) === actionsModule
        ? { path: "./actions.cjs", external: true }
        : undefined,
    );
    // The emulator's server (with zod classic, its locales and yaml) to dist/emulator.cjs:
    // sharing zod with the command tree, it made esbuild wrap all of zod in lazy module
    // initialisers, so every command evaluated zod's every locale and its JSON Schema code.
    b.onResolve({ filter: /\/emulator\/server\.js$/ }, () => ({ path: "./emulator.cjs", external: true }));
  },
};
// commander requires node:child_process at load (and with it net, dgram…: ~1 ms of every
// command), for executable subcommands, which edgectl has none of. In the main bundles the
// import resolves to a stand-in that requires the builtin when first used (resolved by import
// path, like the bundles above: no source is read or rewritten).
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, () => ({ path: "child_process", namespace: "lazy-builtin" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents: 'module.exports = new Proxy({}, { get: (_, name) => require("child_process")[name] });',
      loader: "js",
    }));
  },
};
// zod is evaluated on first use, not when a module importing it is: `import * as z from
// "zod/mini"` in src/ gets a stand-in whose functions load zod when first called, so a command
// that makes no schema (`failover get` with valid input and answers: src/commands/input.ts,
// src/api/schema.ts) never evaluates it. The stand-in re-exports every function zod/mini
// exports (the names come from zod/mini itself, not from our source), each from a module of
// its own (`lazy-zod:<name>`, free of side effects), so that esbuild's tree shaking keeps only
// those the bundle calls; the build's metafile then names them, and dist/zod.cjs is a bundle
// of just those (zod tree-shaken: a bundle of all of zod/mini cost `policy check` 7% more CPU),
// required by the stand-in and compiled by src/start.ts with its own code cache, like every
// bundle it runs; the main bundles carry none of zod's code. src/ uses zod's classes and
// namespaces as types only; a value use of any name the stand-in lacks fails the build
// (logOverride below).
const zodExports = await import("zod/mini");
const zodNames = Object.keys(zodExports).filter((name) => typeof zodExports[name] === "function");
const lazyZod = {
  name: "lazy-zod",
  setup(b) {
    const resolveDir = fileURLToPath(new URL("..", import.meta.url));
    b.onResolve({ filter: /^zod\/mini$/ }, () => ({ path: "stand-in", namespace: "lazy-zod" }));
    b.onResolve({ filter: /^\.\/zod\.cjs$/ }, () => ({ path: "./zod.cjs", external: true }));
    b.onResolve({ filter: /^lazy-zod:/ }, ({ path }) => ({ path, namespace: "lazy-zod", sideEffects: false }));
    b.onLoad({ filter: /^stand-in$/, namespace: "lazy-zod" }, () => ({
      resolveDir,
      loader: "js",
      // `as` takes any name, reserved words (catch, enum…) included.
      contents: zodNames.map((name) => `export { default as ${name} } from "lazy-zod:${name}";`).join("\n"),
    }));
    b.onLoad({ filter: /^lazy-zod:load$/, namespace: "lazy-zod" }, () => ({
      resolveDir,
      loader: "js",
      contents: 'let zod;\nexport const load = () => (zod ??= require("./zod.cjs"));',
    }));
    b.onLoad({ filter: /^lazy-zod:\w+$/, namespace: "lazy-zod" }, ({ path }) => ({
      resolveDir,
      loader: "js",
      contents: `import { load } from "lazy-zod:load";\nexport default (...a) => load()[${JSON.stringify(path.slice("lazy-zod:".length))}](...a);`,
    }));
  },
};
/** The zod functions the main bundles call: the stand-in's modules their metafiles hold. */
const zodUsed = new Set();
const noteZodUsed = (metafile) => {
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = input.startsWith("lazy-zod:lazy-zod:") ? input.slice("lazy-zod:lazy-zod:".length) : undefined;
      if (name !== undefined && name !== "load" && bytesInOutput > 0) zodUsed.add(name);
    }
};
// The registry (src/commands/registry.ts: data alone, it imports nothing at run time), bundled
// on its own and imported: the build's one source of the command tree.
const { REGISTRY } = await loadRegistry();
const isCommand = (entry) => "module" in entry;
// In a bundle, src/commands/tree.ts is this module, made from the registry's data: the entries
// given (without what only the README reads) and a static import() of each of their modules,
// so that a bundle holds the modules of its entries alone.
const treeModule = (entries) => {
  const modules = [...new Set(entries.filter(isCommand).map((e) => e.module))];
  const tree = entries.map((e) =>
    isCommand(e)
      ? { command: e.command, module: e.module, export: e.export, ...(e.wholeTree ? { wholeTree: true } : {}) }
      : { command: e.command, description: e.description, examples: e.examples },
  );
  return [
    `export const TREE = ${JSON.stringify(tree)};`,
    "export function loadModule(module) {",
    "  switch (module) {",
    ...modules.map((m) => `    case ${JSON.stringify(m)}: return import(${JSON.stringify(`./${m}.js`)});`),
    "  }",
    "  return Promise.reject(new Error(`no module ${module} in this bundle`));",
    "}",
  ].join("\n");
};
const treeFile = fileURLToPath(new URL("../src/commands/tree.ts", import.meta.url));
const treeOf = (entries) => ({
  name: "tree-from-registry",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]commands[\\/]tree\.ts$/ }, () => ({
      contents: treeModule(entries),
      resolveDir: dirname(treeFile),
      loader: "js",
    }));
  },
});
const mainOptions = {
  ...wrapped,
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  supported: { "dynamic-import": false },
  plugins: [writeApart, lazyZod, lazyChildProcess],
  logOverride: { "import-is-undefined": "error" },
};
const mainBundle = async (name, entries) => {
  const { metafile } = await build({
    ...mainOptions,
    entryPoints: { [name]: "src/cli.ts" },
    plugins: [treeOf(entries), ...mainOptions.plugins],
    metafile: true,
  });
  noteZodUsed(metafile);
};
// The commands under each first word of the command line, each in a bundle of its own,
// main-<word>.cjs: `edgectl failover get` then reads and deserialises failover's modules alone.
// Every first word of the registry has one, but a command that reads the whole tree
// (`wholeTree`: completion), which runs from main.cjs.
const firstWord = (e) => e.command.split(" ")[0];
const words = [...new Set(REGISTRY.map(firstWord))].filter(
  (word) => !REGISTRY.some((e) => e.command === word && e.wholeTree),
);
// All at once (esbuild builds them side by side; one after another they were most of the build's time).
await Promise.all([
  // The action table (dist/actions.cjs, see writeApart), with zod on demand like the main bundles.
  build({ ...mainOptions, entryPoints: { actions: "src/policy/actions.ts" }, metafile: true }).then(({ metafile }) =>
    noteZodUsed(metafile),
  ),
  mainBundle("main", REGISTRY),
  ...words.map((word) =>
    mainBundle(
      `main-${word}`,
      REGISTRY.filter((e) => firstWord(e) === word),
    ),
  ),
]);
if (zodUsed.size === 0) throw new Error("lazy-zod: the main bundles call no zod function (the metafile changed?)");
// zod, the two bundles apart and yaml, side by side.
await Promise.all([
  // zod, as the stand-in requires it: the functions the main bundles call, tree-shaken (sorted:
  // the main bundles, built at once, note them in any order).
  build({
    ...wrapped,
    stdin: {
      contents: `export { ${[...zodUsed].sort().join(", ")} } from "zod/mini";`,
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      sourcefile: "zod-used.js",
    },
    outfile: "dist/zod.cjs",
    format: "cjs",
  }),
  build({
    ...wrapped,
    entryPoints: {
      "config-write": "src/settings/config-write.ts",
      emulator: "src/emulator/server.ts",
      cel: "src/policy/cel/index.ts",
    },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
  }),
  // One yaml bundle, dist/yaml.cjs: the tool's YAML configuration and readings (src/policy/yaml.ts)
  // and the masking and editing on its Document (src/output/yaml-text.ts). yaml's ES module build
  // (its "default" export, which platform "node" passes over for the CommonJS one) lets esbuild
  // drop what these do not use.
  build({
    ...wrapped,
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
  }),
]);
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
// Last: what `npm test` checks to skip a build of what is already built (scripts/build-stamp.mjs).
writeStamp();

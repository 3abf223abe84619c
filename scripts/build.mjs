// Bundles src/ into dist/ with esbuild. One bundle loads far faster than hundreds of
// node_modules files; heavy, rarely-used modules (conf, the emulator) stay behind
// dynamic imports, which esbuild splits into their own chunks.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  // src/start.ts answers --version/--help itself and imports src/cli.ts only for the rest.
  entryPoints: { cli: "src/start.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifySyntax: true,
  legalComments: "none",
  define: { __EDGECTL_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies (commander, cli-table3) call require() for node built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});

// `edgectl --help` prints this file without loading commander (src/start.ts): commander's
// own root help, rendered once here at the 80 columns help always uses.
const help = execFileSync(process.execPath, [new URL("../bin/edgectl.js", import.meta.url).pathname, "--help"], {
  env: { PATH: process.env.PATH, NO_COLOR: "1" },
  encoding: "utf8",
});
writeFileSync(new URL("../dist/help.txt", import.meta.url), help);

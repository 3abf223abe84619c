// Bundles src/ into dist/ with esbuild. One bundle loads far faster than hundreds of
// node_modules files; heavy, rarely-used modules (conf, the emulator) stay behind
// dynamic imports, which esbuild splits into their own chunks.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts" },
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

// The command registry (src/commands/registry.ts) as data for the scripts: bundled on its own
// with esbuild (it imports nothing at run time) and imported. scripts/build.mjs makes the
// bundles from it; scripts/readme.mjs the README's command table.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The module's exports: REGISTRY, commandTable, isGroup. */
export async function loadRegistry() {
  const scratch = mkdtempSync(join(tmpdir(), "edgectl-registry-"));
  try {
    const outfile = join(scratch, "registry.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("../src/commands/registry.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      logLevel: "warning",
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// Whether dist/ is the build of the tree as it stands, so that `npm test` builds only when it is
// not: in CI, `npm ci` has just built it (`prepare`), and a second build cost the suite's time
// 3–6 s on this 2-core machine. The build writes the stamp last: the hash of every input it
// reads (src/, bin/, the build scripts, the package and lock files, tsconfig.json, which esbuild
// reads) and of every file it wrote. A changed input, a changed or missing output, or no stamp:
// not fresh. The stamp lives in node_modules/.cache (not shipped, gone with a clean install).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const stampOf = (root) => join(root, "node_modules", ".cache", "edgectl-build.json");
const INPUTS = [
  "src",
  "bin",
  "scripts/build.mjs",
  "scripts/build-stamp.mjs",
  "scripts/registry.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

/** The hash of the files at `paths` (folders read whole, in a stable order), names and contents. */
function hashOf(root, paths) {
  const hash = createHash("sha256");
  const add = (path) => {
    let entries;
    try {
      entries = readdirSync(join(root, path), { withFileTypes: true });
    } catch (err) {
      if (err.code !== "ENOTDIR") {
        hash.update(`${path}\0missing\0`);
        return;
      }
      hash
        .update(`${path}\0`)
        .update(readFileSync(join(root, path)))
        .update("\0");
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) add(`${path}/${entry.name}`);
  };
  for (const path of paths) add(path);
  return hash.digest("hex");
}

const current = (root) => ({ inputs: hashOf(root, INPUTS), dist: hashOf(root, ["dist"]) });

/** Called by the build once dist/ is complete (`root`: the project's folder). */
export function writeStamp(root = ROOT) {
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  writeFileSync(stampOf(root), JSON.stringify(current(root)) + "\n");
}

/** True when dist/ is what the build makes of the tree as it stands now. */
export function distIsFresh(root = ROOT) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampOf(root), "utf8"));
  } catch {
    return false;
  }
  const now = current(root);
  return stamp.inputs === now.inputs && stamp.dist === now.dist;
}

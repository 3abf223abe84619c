// What bin/edgectl.js runs. `edgectl --version` and `edgectl --help` are answered here,
// at Node's start-up floor: the rest of the CLI (src/cli.ts, commander, the command tree)
// loads only for everything else. The root help is commander's own text, saved by
// scripts/build.mjs as dist/help.txt; from source (no such file) commander prints it.
import { readFileSync } from "node:fs";
import { helpWidth } from "./output/help-width.js";
import { VERSION } from "./version.js";

export async function main(argv: string[] = process.argv): Promise<void> {
  const only = argv.length === 3 ? argv[2] : undefined;
  if (only === "--version" || only === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if ((only === "--help" || only === "-h") && helpWidth() === 80) {
    const help = savedHelp();
    if (help !== undefined) {
      process.stdout.write(help);
      return;
    }
  }
  const cli = await import("./cli.js");
  await cli.main(argv);
}

function savedHelp(): string | undefined {
  try {
    return readFileSync(new URL("./help.txt", import.meta.url), "utf8");
  } catch {
    return undefined;
  }
}

// Writes the command table of README.md ("Command reference") from the registry
// (src/commands/registry.ts): `npm run readme`. test/commands/registry.test.ts fails when the
// README's table is not what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { loadRegistry } from "./registry.mjs";

export const START = "<!-- The table is made from src/commands/registry.ts by `npm run readme`: edit the registry. -->";
export const END = "<!-- End of the table made from the registry. -->";

const readme = new URL("../README.md", import.meta.url);
const text = readFileSync(readme, "utf8");
const start = text.indexOf(`${START}\n`);
const end = text.indexOf(`${END}\n`, start);
if (start < 0 || end < 0) throw new Error(`README.md: the table's markers are missing:\n${START}\n${END}`);
const { commandTable } = await loadRegistry();
writeFileSync(readme, `${text.slice(0, start + START.length + 1)}${commandTable()}${text.slice(end)}`);

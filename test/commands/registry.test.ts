// The registry (src/commands/registry.ts) is the one list of commands: each entry comes after its
// group, each command's module declares it under its last word, the README's usage names only
// flags it declares, and the README's command table is the one the registry makes.
import { existsSync, readFileSync } from "node:fs";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { GLOBAL_OPTIONS, VERSION_FLAG } from "../../src/commands/globals.js";
import { commandTable, isGroup, REGISTRY, type CommandEntry } from "../../src/commands/registry.js";
import { loadDef } from "../../src/commands/root.js";
import { fakeDeps } from "./fake-deps.js";

const commands = REGISTRY.filter((e): e is CommandEntry => !isGroup(e));

/** Where a command's tests live: test/commands/<its words>.test.ts (a word at the root: <word>/<word>). */
const testFileOf = (command: string): string => {
  const words = command.split(" ");
  return `test/commands/${(words.length === 1 ? [words[0], words[0]] : words).join("/")}.test.ts`;
};

describe("the registry", () => {
  it("names each full command path once, each after the group it belongs to", () => {
    const seen = new Set<string>();
    for (const { command } of REGISTRY) {
      expect(seen.has(command), command).toBe(false);
      const words = command.split(" ");
      expect(
        words.every((w) => /^[a-z]+(-[a-z]+)*$/.test(w)),
        command,
      ).toBe(true);
      if (words.length > 1) expect(seen.has(words.slice(0, -1).join(" ")), `the group of ${command}`).toBe(true);
      seen.add(command);
    }
    // A group holds at least one command; a command holds none.
    for (const entry of REGISTRY) {
      const below = REGISTRY.some((e) => e.command.startsWith(`${entry.command} `));
      expect([entry.command, below]).toEqual([entry.command, isGroup(entry)]);
    }
  });

  // Issue 24: a verb's tests beside it, its two tables (command line → options; a stand-in API → output).
  it.each(commands.map((e) => [e.command, testFileOf(e.command)] as const))(
    "%s: its tests live in %s",
    (_command, file) => {
      expect(existsSync(new URL(`../../${file}`, import.meta.url)), file).toBe(true);
    },
  );

  it.each(commands.map((e) => [e.command, e] as const))(
    "%s: its module declares it under its last word, and its README usage names only flags it takes",
    async (command, entry) => {
      const def = await loadDef(entry);
      expect(def.name).toBe(command.split(" ").at(-1));
      const cmd = def.register(new Command("edgectl"), fakeDeps());
      const declared = new Set([
        ...cmd.options.flatMap((o) => [o.long, o.short]),
        ...[VERSION_FLAG, ...GLOBAL_OPTIONS.map((o) => o.flag)].flatMap((f) => f.match(/--?[\w-]+/g) ?? []),
      ]);
      for (const flag of entry.usage.match(/(?<![\w<])--?[a-z][\w-]*/g) ?? [])
        expect(declared, `${command}: ${flag}`).toContain(flag);
    },
  );
});

describe("README.md's command table", () => {
  it("is the one the registry makes (npm run readme writes it)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const start = "<!-- The table is made from src/commands/registry.ts by `npm run readme`: edit the registry. -->\n";
    const end = "<!-- End of the table made from the registry. -->\n";
    expect(readme).toContain(start);
    const table = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end));
    expect(table).toBe(commandTable());
  });
});

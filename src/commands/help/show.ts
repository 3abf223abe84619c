// What `help [words]` shows, for the root's `help` command (./help.ts) and for each group's
// (`endpoint help policy get`, made by src/commands/root.ts): the help of the command the
// words name under `base`, at any depth, exactly as `<words> --help` prints it (commander's
// own text, through the output the root was configured with); at the root, a topic
// (`environment`) too. A word that names nothing is a usage error (exit 2) with the nearest
// name. Without zod: a group's help is in every bundle.
import type { Command } from "commander";
import { nearest } from "../../api-data/did-you-mean.js";
import { UsageError } from "../../errors.js";
import { environmentHelp } from "./environment.js";

/** Topics: help that is no command's, at the root alone. */
export const TOPICS: Readonly<Record<string, { about: string; text: (width: number) => string }>> = {
  environment: { about: "the environment variables edgectl reads", text: environmentHelp },
};

/** Writes the help `words` name under `base` (the root or a group), or throws a UsageError. */
export function showHelp(base: Command, words: readonly string[], write: (text: string) => void): void {
  const basePath = pathOf(base);
  const topic = base.parent === null && Object.hasOwn(TOPICS, words[0] ?? "") ? TOPICS[words[0]!] : undefined;
  if (topic) {
    if (words.length > 1) throw unknownWord(words[1]!, `help ${words[0]}`, `help ${words[0]}`, []);
    write(topic.text(base.configureOutput().getOutHelpWidth?.() ?? 80));
    return;
  }
  let target = base;
  for (const [i, word] of words.entries()) {
    const sub = target.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) {
      const path = [...basePath, ...words.slice(0, i)].join(" ");
      const names = target.commands.map((c) => c.name());
      if (target.parent === null) names.push(...Object.keys(TOPICS));
      throw unknownWord(word, path || "help", path ? `help ${path}` : "help", names);
    }
    target = sub;
  }
  target.outputHelp();
}

/** A command's words below the root: `endpoint policy`. */
function pathOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c = cmd; c.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/**
 * `word` names nothing under `edgectl <where>`; `names` are the words that would, for a
 * suggestion; without one, `edgectl <see>` lists them.
 */
function unknownWord(word: string, where: string, see: string, names: readonly string[]): UsageError {
  const near = nearest(word, names);
  return new UsageError(
    `unknown command '${word}' for 'edgectl ${where}' ${near ? `(Did you mean ${near}?)` : `(see 'edgectl ${see}')`}`,
  );
}

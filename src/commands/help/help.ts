// `edgectl help [command words]`, as `gh help repo create`: the help of the command the words
// name, at any depth, exactly as `<words> --help` prints it (commander's own text, on stdout);
// `help` alone, the root's; `help environment`, a topic (./environment.ts). A word that names
// no command is a usage error (exit 2) with the nearest name, as an unknown command is. It
// replaces commander's implicit `help [command]` at the root, which showed the first word's
// help for `help failover create` and the root's help, exit 0, for `help nosuch`.
import * as z from "zod/mini";
import { nearest } from "../../api-data/did-you-mean.js";
import { UsageError } from "../../errors.js";
import { defineCommand } from "../define.js";
import { UNSURE } from "../input.js";
import { environmentHelp } from "./environment.js";

/** Topics: help that is no command's. */
const TOPICS: Readonly<Record<string, { about: string; text: (width: number) => string }>> = {
  environment: { about: "the environment variables edgectl reads", text: environmentHelp },
};

export const help = defineCommand({
  name: "help",
  description: "Show a command's help (as <command> --help does), or a topic: environment",
  args: {
    words: {
      arg: "[command...]",
      help: "a command's words (endpoint policy get), or a topic",
      schema: () => z.array(z.string()),
      plain: (value: unknown) =>
        Array.isArray(value) && value.every((w) => typeof w === "string") ? (value as string[]) : UNSURE,
    },
  },
  about: `Topics:\n${Object.entries(TOPICS)
    .map(([name, topic]) => `  ${name}  ${topic.about}`)
    .join("\n")}`,
  examples: ["$ edgectl help failover create", "$ edgectl help endpoint policy get", "$ edgectl help environment"],
  run: async ({ words }, deps, command) => {
    let root = command;
    while (root.parent) root = root.parent;
    const topic = Object.hasOwn(TOPICS, words[0] ?? "") ? TOPICS[words[0]!] : undefined;
    if (topic) {
      if (words.length > 1) throw unknownWord(words[1]!, `help ${words[0]}`, `help ${words[0]}`, []);
      const width = command.configureOutput().getOutHelpWidth?.() ?? 80;
      deps.io.stdout.write(topic.text(width));
      return;
    }
    let target = root;
    for (const [i, word] of words.entries()) {
      const sub = target.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (sub === undefined) {
        const names = target.commands.map((c) => c.name());
        const path = words.slice(0, i).join(" ");
        if (target === root) names.push(...Object.keys(TOPICS));
        throw unknownWord(word, path || "help", path ? `help ${path}` : "help", names);
      }
      target = sub;
    }
    // As --help prints it: commander's text, through the output the root was configured with.
    target.outputHelp();
  },
});

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

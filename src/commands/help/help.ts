// `edgectl help [command words]`, as `gh help repo create`: the help of the command the words
// name, at any depth, exactly as `<words> --help` prints it; `help` alone, the root's; `help
// environment`, a topic (./environment.ts); a word that names no command, exit 2 with the
// nearest name (./show.ts). It replaces commander's implicit `help [command]` at the root,
// which showed the first word's help for `help failover create` and the root's help, exit 0,
// for `help nosuch`; src/commands/root.ts gives each group the same (`endpoint help policy get`).
import * as z from "zod/mini";
import { defineCommand } from "../define.js";
import { UNSURE } from "../input.js";
import { showHelp, TOPICS } from "./show.js";

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
    showHelp(root, words, (text) => deps.io.stdout.write(text));
  },
});

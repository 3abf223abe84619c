// Each command is declared once: its arguments and flags (as commander writes them, with help,
// a zod schema and a default) and what it runs. The commander wiring, the labels that error
// messages name (`--limit`, `<id>`) and the typed options (z.output of the schemas) all come
// from that one declaration, as with wrangler's createCommand. `register` takes the function
// to run, so a test can turn argv into options without a process, as with gh's NewCmd(f, runF).
// A command whose every field has a plain check (input.ts, Checked) takes valid input without
// zod; any value those checks are unsure of, or any broken rule, goes to zod, which words the
// error as for every other command.
// commander reads every command line (src/commands/root.ts): only its types are imported here.
import type { Argument, Command, Option } from "commander";
import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { escapeControl } from "../text/escape.js";
import type { Deps } from "./deps.js";
import { parseInput, UNSURE } from "./input.js";

type Schema = z.ZodMiniType;

/**
 * What completes a value in the shells' completion (src/commands/completion): file names, or
 * one of a fixed set of words. Declared with the flag or argument, once; commander's Option or
 * Argument then carries it (`Completes`), and the bash, zsh and fish scripts read it there.
 */
export type Completion = "file" | readonly string[];

/** A commander Option or Argument as register (and the root's options) leave it. */
export interface Completes {
  complete?: Completion;
}

export interface ArgDecl {
  /** As commander writes it: `<id>`, `<id...>` (several). Named in messages without the dots. */
  arg: string;
  help: string;
  /** Made when the command runs, not at start-up: only one command's schemas are ever needed. */
  schema: () => Schema;
  /** The schema's output without zod, or UNSURE: see Checked in input.ts, which makes both. */
  plain?: (value: unknown) => unknown;
  /** What completes it in a shell: file names, or a fixed set of words. */
  complete?: Completion;
}

export interface FlagDecl {
  /**
   * As commander writes it: `--limit <n>`, `-y, --yes`. A flag without a value is a switch:
   * absent reads as false. Named in messages by its long form.
   */
  flag: string;
  help: string;
  /**
   * Checks what was typed (a string; a list for a repeatable flag; undefined when absent).
   * Made when the command runs, not at start-up: only one command's schemas are ever needed.
   */
  schema: () => Schema;
  /** The schema's output without zod, or UNSURE: see Checked in input.ts, which makes both. */
  plain?: (value: unknown) => unknown;
  /** Used when the flag is absent, and shown in help (commander's "(default: …)"). */
  default?: string;
  /** Repeatable: how one more occurrence adds to the values so far. */
  repeat?: (value: string, previous: string[] | undefined) => string[];
  /** What completes its value in a shell: file names, or a fixed set of words. */
  complete?: Completion;
}

type Shape<T> = { [K in keyof T]: T[K] extends { schema: () => infer S extends Schema } ? S : never };
/** The typed options: what z.object of every declared schema outputs (optional ones optional). */
export type OptionsOf<A, F> = z.output<z.ZodMiniObject<Shape<A> & Shape<F>>>;

/** A rule across fields (checked once each field is valid); the message names the flags. */
export interface Rule<O> {
  ok(options: O): boolean;
  message: string | ((options: O) => string);
}

/**
 * What commander's action calls (a test's spy too): `command` is the one commander read (a run
 * that needs it takes it: completion the tree, the emulator the root's --api-key as given).
 */
export type RunFn<O> = (options: O, f: Deps, command: Command) => Promise<void>;

export type CommandDecl<A, F> = {
  name: string;
  description: string;
  /** Help text shown before the examples. */
  about?: string;
  /** Example lines, `$ edgectl …` or `# a comment`. */
  examples: string[];
  args?: A;
  flags?: F;
  // NoInfer: the options are worked out from args and flags, never guessed from run.
  rules?: Rule<NoInfer<OptionsOf<A, F>>>[];
  run: RunFn<NoInfer<OptionsOf<A, F>>>;
};

export interface CommandDef<O> {
  readonly name: string;
  /** Checks values as commander gives them (absent switches false): typed options, or a UsageError naming the flag. */
  parse(input: Record<string, unknown>): O;
  /** Adds the command under `parent`; `run` replaces the declared one (tests pass a spy). */
  register(parent: Command, f: Deps, run?: RunFn<O>): Command;
}

/** Any command's definition, as the tree holds it. */
export type AnyCommandDef = Pick<CommandDef<unknown>, "name" | "register">;

/** No arguments or no flags declared. */
type NoDecls = Record<never, never>;

export function defineCommand<
  A extends Record<string, ArgDecl> = NoDecls,
  F extends Record<string, FlagDecl> = NoDecls,
>(decl: CommandDecl<A, F>): CommandDef<OptionsOf<A, F>> {
  type O = OptionsOf<A, F>;
  const args = Object.entries(decl.args ?? {}) as [string, ArgDecl][];
  const flags = Object.entries(decl.flags ?? {}) as [string, FlagDecl][];
  let schema: Schema | undefined;
  const labels: Record<string, string> = {};
  for (const [key, a] of args) labels[key] = a.arg.replace("...", "");
  for (const [key, fl] of flags) labels[key] = /--[\w-]+/.exec(fl.flag)![0];
  const build = (): Schema => {
    const shape: Record<string, Schema> = {};
    for (const [key, entry] of [...args, ...flags]) shape[key] = entry.schema();
    const object = z.object(shape);
    const rules = (decl.rules ?? []).map((rule) =>
      z.refine(
        (options: unknown) => rule.ok(options as O),
        typeof rule.message === "string"
          ? rule.message
          : { error: (issue) => (rule.message as (o: O) => string)(issue.input as O) },
      ),
    );
    return rules.length > 0 ? object.check(...(rules as z.core.$ZodCheck<unknown>[])) : object;
  };

  // Without zod when every field has a plain check and is sure of its value, and every rule holds.
  const plain = (input: Record<string, unknown>): O | undefined => {
    const options: Record<string, unknown> = {};
    for (const [key, entry] of [...args, ...flags]) {
      const value = entry.plain ? entry.plain(input[key]) : UNSURE;
      if (value === UNSURE) return undefined;
      options[key] = value;
    }
    return (decl.rules ?? []).every((rule) => rule.ok(options as O)) ? (options as O) : undefined;
  };
  const parse = (input: Record<string, unknown>) =>
    plain(input) ?? (parseInput((schema ??= build()), input, labels) as O);

  return {
    name: decl.name,
    parse,
    register(parent, f, run = decl.run) {
      const cmd = parent.command(decl.name).description(decl.description);
      for (const [, a] of args) {
        const argument: Argument & Completes = cmd.createArgument(a.arg, a.help);
        if (a.complete) argument.complete = a.complete;
        cmd.addArgument(argument);
      }
      const options = flags.map(([key, fl]) => {
        const option: Option & Completes = cmd.createOption(fl.flag, fl.help);
        if (fl.repeat) option.argParser(fl.repeat);
        if (fl.default !== undefined) option.default(fl.default);
        if (fl.complete) option.complete = fl.complete;
        cmd.addOption(option);
        return [key, option] as const;
      });
      const examples = decl.examples.map((line) => `  ${line}`).join("\n");
      cmd.addHelpText("after", `\n${decl.about ? `${decl.about}\n\n` : ""}Examples:\n${examples}`);
      cmd.action(async () => {
        refuseOptionsAsValues(cmd);
        const input: Record<string, unknown> = {};
        args.forEach(([key], i) => (input[key] = cmd.processedArgs[i]));
        const given = cmd.opts();
        for (const [key, option] of options) {
          const value = given[option.attributeName()];
          input[key] = value === undefined && option.isBoolean() ? false : value;
        }
        await run(parse(input), f, cmd);
      });
      return cmd;
    },
  };
}

/**
 * An option that takes a value never takes another option as it: `--secret --dry-run` would
 * send a real request with "--dry-run" as the secret (commander takes the next word whatever it
 * is). Every value-taking option of the command and of its parents (the global ones) is checked
 * in the words as typed; a value that starts with `-` on purpose is written `--secret=--x`. A
 * negative number (`--limit -1`) is a value, never an option (no option is a digit), and the
 * option's own check then refuses it with its rule.
 */
export function refuseOptionsAsValues(cmd: Command): void {
  const options: Option[] = [];
  let root = cmd;
  for (let c: Command | null = cmd; c; c = c.parent) {
    options.push(...c.options);
    root = c;
  }
  // The user's words, as src/commands/root.ts's Program keeps them (a bare Command: none).
  const words = (root as Command & { typedWords?: readonly string[] }).typedWords ?? [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") return;
    const long = /^--[^=]+$/.test(word);
    const short = /^-[^-]$/.test(word);
    if (!long && !short) continue;
    const option = options.find((o) => (long ? o.long === word : o.short === word));
    if (!option?.required) continue;
    const next = words[i + 1];
    if (next !== undefined && next.length > 1 && next.startsWith("-") && !/^-\d/.test(next)) {
      const name = option.long ?? word;
      throw new UsageError(
        `${word}: takes a value, but the next word is the option ${escapeControl(next)} (nothing was sent); to give a value that starts with "-", write ${name}=${escapeControl(next)}`,
      );
    }
    i++;
  }
}

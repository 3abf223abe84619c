// Reads a command line without commander, for the lines commander reads one way only: the
// command's words, then its operands and options in any order, the root's options anywhere,
// each value after its option (`--limit 5`, `--limit=5`, `-ojson`). Anything else (help,
// `--`, an option it does not know, grouped switches, a value that starts with "-", too few or
// too many operands) it declines, and commander reads the line as before: its help, its
// errors and its suggestions stay the only ones. commander, in dist/commander.cjs, is then
// evaluated only for those lines (BENCHMARKS.md, "Start-up, ninth round"), as zod is only for
// a value the plain checks are unsure of. test/commands/argv.property.test.ts holds that a
// line read here gives what commander gives.
import type { AnyCommandDef, ArgDecl, FlagDecl, NounDecl, PlainRun, RootCommand } from "./define.js";

/** An option as commander declares it (`--limit <n>`, `-y, --yes`, `--no-color`), read for the words it takes. */
export interface OptionWords {
  long: string;
  short?: string;
  takesValue: boolean;
  /** `--no-color`: sets `color` to false; `color` is true until then. */
  negate: boolean;
  /** Where commander keeps its value: the long name in camelCase, without `no-`. */
  attribute: string;
}

/**
 * The words of a declared option, or undefined for a form this reader leaves to commander: an
 * optional value (`[v]`), several values (`<v...>`).
 */
export function optionWords(flag: string): OptionWords | undefined {
  const long = /--[\w-]+/.exec(flag)?.[0];
  if (long === undefined || flag.includes("[") || flag.includes("...")) return undefined;
  const short = /^-\w(?=[, ])/.exec(flag)?.[0];
  const negate = long.startsWith("--no-");
  const attribute = long.slice(negate ? 5 : 2).replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  return { long, ...(short ? { short } : {}), takesValue: flag.includes("<"), negate, attribute };
}

/** The root's options, as the reader needs them: each flag as declared (src/commands/globals.ts). */
export type RootFlags = readonly string[];

/**
 * The first two operands (the command's words, `failover get`), as commander finds them: the
 * root's options (anywhere) skipped with their values. Reading stops at `--`, at an option the
 * root does not know (commander then hands the rest to the subcommand or fails) and at --help,
 * where what follows cannot be told.
 */
export function commandWords(args: readonly string[], globals: RootFlags): string[] {
  const options = globals.map(optionWords).filter((o) => o !== undefined);
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    if (arg.length < 2 || !arg.startsWith("-")) {
      words.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const option = options.find((o) => (long ? o.long === arg.split("=")[0] : o.short === arg.slice(0, 2)));
    if (!option) break;
    const attached = long ? arg.includes("=") : arg.length > 2;
    // A short switch with more letters after it (`-vo`): commander splits those; not worth it here.
    if (attached && !long && !option.takesValue) break;
    if (!attached && option.takesValue) i++;
  }
  return words;
}

/** The last of -o/--json wins, for results and errors alike (src/app.ts). */
export interface Format {
  json?: boolean;
  output?: string;
}

/** The format once `--json`, or `-o <value>`, is read (as commander's `option:json`/`option:output` events: src/commands/root.ts). */
export function formatAfter(option: "json" | "output", value?: string): Format {
  return option === "json" ? { json: true, output: undefined } : { json: false, output: value };
}

export interface ReadLine {
  /** The root's options as commander's `program.opts()` holds them. */
  globals: Record<string, unknown>;
  format: Format;
  /** What the command's action hands its `parse`: each argument and flag by its key, as define.ts reads them from commander. */
  input: Record<string, unknown>;
}

/** A command's declared arguments and flags, by key. */
export interface CommandWords {
  args: readonly (readonly [string, ArgDecl])[];
  flags: readonly (readonly [string, FlagDecl])[];
}

/**
 * Reads `args` (the user's words) for the command named by its first `depth` operands, or
 * undefined when commander should read it.
 */
export function readLine(
  args: readonly string[],
  globals: RootFlags,
  depth: number,
  command: CommandWords,
): ReadLine | undefined {
  type Known = OptionWords & { key: string; global: boolean; decl?: FlagDecl };
  const known: Known[] = [];
  for (const flag of globals) {
    const words = optionWords(flag);
    if (!words) return undefined;
    known.push({ ...words, key: words.attribute, global: true });
  }
  for (const [key, decl] of command.flags) {
    const words = optionWords(decl.flag);
    if (!words || words.negate) return undefined;
    known.push({ ...words, key, global: false, decl });
  }
  const globalValues: Record<string, unknown> = {};
  for (const o of known) if (o.global && o.negate) globalValues[o.key] = true;
  const flagValues: Record<string, unknown> = {};
  for (const [key, decl] of command.flags) if (decl.default !== undefined) flagValues[key] = decl.default;
  let format: Format = {};
  const operands: string[] = [];

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.length < 2 || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const eq = long ? arg.indexOf("=") : -1;
    const name = long ? (eq < 0 ? arg : arg.slice(0, eq)) : arg.slice(0, 2);
    // The root's options come first in `known`: commander's root reads them wherever they are.
    const option = known.find((o) => (long ? o.long === name : o.short === name));
    // (A command's option before the command's words ended commandWords: the line is not read here.)
    if (!option) return undefined;
    let value: string | undefined;
    if (option.takesValue) {
      if (long && eq >= 0) value = arg.slice(eq + 1);
      else if (!long && arg.length > 2) value = arg.slice(2);
      else {
        value = args[++i];
        // None, or an option in its place: commander's own message (define.ts refuses the second).
        if (value === undefined || (value.length > 1 && value.startsWith("-"))) return undefined;
      }
    } else if (arg !== name) return undefined; // `--json=x`, `-yo`: commander's reading, or its error
    if (option.global) {
      globalValues[option.key] = option.negate ? false : (value ?? true);
      if (option.key === "json" || option.key === "output") format = formatAfter(option.key, value);
    } else if (value === undefined) flagValues[option.key] = true;
    else if (option.decl?.repeat) flagValues[option.key] = option.decl.repeat(value, flagValues[option.key] as never);
    else flagValues[option.key] = value;
  }

  const given = operands.slice(depth);
  const input: Record<string, unknown> = {};
  let next = 0;
  for (const [key, decl] of command.args) {
    const variadic = decl.arg.endsWith("...>") || decl.arg.endsWith("...]");
    const required = decl.arg.startsWith("<");
    if (variadic) {
      input[key] = given.slice(next);
      next = given.length;
    } else input[key] = given[next++];
    if (required && (variadic ? (input[key] as string[]).length === 0 : input[key] === undefined)) return undefined;
  }
  if (next < given.length) return undefined;
  for (const o of known) if (!o.global) input[o.key] = flagValues[o.key] ?? (o.takesValue ? undefined : false);
  return { globals: globalValues, format, input };
}

/**
 * The command a line names and the line read for it, or undefined when commander should read
 * it: a word it does not know, a command that needs commander's tree, a line `readLine` declines.
 * Loads the named command's module alone, as src/commands/root.ts does.
 */
export async function readCommandLine(
  args: readonly string[],
  globals: RootFlags,
  commands: readonly (NounDecl | RootCommand)[],
): Promise<{ run: PlainRun; line: ReadLine } | undefined> {
  const [name, verb] = commandWords(args, globals);
  const named = commands.find((c) => c.name === name);
  let def: AnyCommandDef | undefined;
  if (named === undefined) return undefined;
  if ("load" in named) def = await named.load();
  else if (verb !== undefined && Object.hasOwn(named.verbs, verb)) def = await named.verbs[verb]!();
  if (def?.plain === undefined) return undefined;
  const line = readLine(args, globals, "load" in named ? 1 : 2, def.plain.words);
  return line && { run: def.plain.run, line };
}

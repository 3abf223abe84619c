// The root command and the command tree under it, made from the registry (src/commands/registry.ts,
// read through tree.ts): groups at any depth (`endpoint policy`) are made like any command, and
// each command's module is loaded only when the command line names it: `failover get` evaluates
// its own modules (and their zod schemas), not the whole tree's. The whole tree is loaded when
// something needs it: the root's help, completion, a word that names no command (for "did you
// mean"); a group's whole subtree for its help and its suggestions.
import { Command, Option, type ParseOptions } from "commander";
import { VERSION } from "../version.js";
import { GLOBAL_OPTIONS, VERSION_FLAG } from "./globals.js";
import type { AnyCommandDef } from "./define.js";
import type { Deps } from "./deps.js";
import type { GroupEntry } from "./registry.js";
import { showHelp } from "./help/show.js";
// In help order; in a bundle made for one word (dist/main-<word>.cjs), that word's entries alone.
import { loadModule, TREE, type TreeEntry } from "./tree.js";

// For src/app.ts, which reads every command line with commander.
export { CommanderError } from "commander";

export function buildProgram(f: Deps): Program {
  const program = new Program(f)
    .description(
      "Manage ngrok Failover backends, webhook verification, and the Cloud Endpoints and Traffic Policies that replace Edges",
    )
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Examples:
  # a local stand-in for the API
  $ edgectl emulator --port 0
  $ edgectl failover create --backends bkdhr_abc,bkdtg_def --description "eu pair"
  $ edgectl failover get bkdfo_123 -o json | jq -r '.backends[0]'
  $ echo "$SECRET" | edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-stdin
  # leaving Edges: back up, review the plan, then create the Cloud Endpoints
  $ edgectl export > edges-backup.json
  $ edgectl migrate edge --all
  $ edgectl migrate edge --all --apply
  # Cloud Endpoints: check a policy, create, rotate a webhook secret
  $ edgectl policy check policy.yml
  $ edgectl endpoint create --url https://shop.example.com --traffic-policy-file policy.yml
  $ echo "$SECRET" | edgectl endpoint webhook-verification replace ep_1 --provider github --secret-stdin

Settings: flag > environment (EDGECTL_*) > profile in the config file > default.
Exit codes: 0 ok, 1 API error, 2 usage, 3 no usable answer, 4 auth, 130 interrupted.`,
    );
  return addRootOptions(program);
}

/** The root's options: its version and those of src/commands/globals.ts. */
export function addRootOptions<C extends Command>(program: C): C {
  program.version(VERSION, VERSION_FLAG, "print the version");
  for (const { flag, help, complete } of GLOBAL_OPTIONS)
    program.addOption(Object.assign(new Option(flag, help), { complete }));
  return program;
}

/** The last of -o/--json wins, for results and errors alike (src/app.ts). */
export interface Format {
  json?: boolean;
  output?: string;
}

/** The format once `--json`, or `-o <value>`, is read. */
export function formatAfter(option: "json" | "output", value?: string): Format {
  return option === "json" ? { json: true, output: undefined } : { json: false, output: value };
}

/** Calls `set` with the output format each -o/--json gives, in the order typed (the last wins). */
export function followFormat(program: Command, set: (format: Format) => void): void {
  program.on("option:json", () => set(formatAfter("json")));
  program.on("option:output", (value: string) => set(formatAfter("output", value)));
}

/**
 * The root command. Its commands are added by `load`, which `parseAsync` calls with the
 * command line first (so use parseAsync, not parse). Commands added after src/cli.ts has
 * configured the root inherit its settings (exit override, output) as commander copies them
 * to every command made with `.command()`.
 */
export class Program extends Command {
  private loaded = false;
  /** The user's words (argv without node and the script), for checks commander does not make (define.ts). */
  typedWords: readonly string[] = [];

  constructor(private readonly deps: Deps) {
    super("edgectl");
  }

  override async parseAsync(argv?: readonly string[], options?: ParseOptions): Promise<this> {
    // As commander reads argv: from "node" (the default) skips the runtime and the script.
    const from = options?.from ?? "node";
    const words = argv === undefined ? undefined : from === "user" ? argv : from === "node" ? argv.slice(2) : undefined;
    this.typedWords = words ?? [];
    await this.load(words);
    return super.parseAsync(argv, options);
  }

  /** Adds the commands that `args` (the user's words) names, or every command; once. */
  async load(args?: readonly string[]): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const entries = args === undefined ? TREE : entriesFor(commandPath(args), TREE);
    const defs = await Promise.all(entries.map(async (e) => (isGroup(e) ? undefined : loadDef(e))));
    addTree(this, entries, defs, this.deps);
  }
}

const isGroup = (entry: TreeEntry): entry is GroupEntry => !("module" in entry);

/** A command's definition, from the module its entry names. */
export async function loadDef(entry: Exclude<TreeEntry, { description: string }>): Promise<AnyCommandDef> {
  const def = (await loadModule(entry.module))[entry.export];
  if (def === undefined) throw new Error(`${entry.command}: src/commands/${entry.module} exports no ${entry.export}`);
  return def;
}

/**
 * Adds `entries` (in registry order, each after its group) under `program`: a group as a command
 * with its help and examples, a command by its definition (`defs`, at the same index).
 */
export function addTree(
  program: Command,
  entries: readonly TreeEntry[],
  defs: readonly (AnyCommandDef | undefined)[],
  f: Deps,
): void {
  const made = new Map<string, Command>([["", program]]);
  entries.forEach((entry, i) => {
    const words = entry.command.split(" ");
    const parent = made.get(words.slice(0, -1).join(" "));
    if (parent === undefined) throw new Error(`${entry.command}: its group is not in the registry before it`);
    const cmd = isGroup(entry)
      ? parent
          .command(words.at(-1)!)
          .description(entry.description)
          .addHelpText("after", `\nExamples:\n${entry.examples.map((line) => `  ${line}`).join("\n")}`)
      : defs[i]!.register(parent, f);
    made.set(entry.command, cmd);
  });
  // Last in each group's list, where commander put its own.
  for (const entry of entries) if (isGroup(entry)) addGroupHelp(made.get(entry.command)!, f);
}

/**
 * A group's `help [command...]` (`endpoint help policy get`), read as the root's `help` reads
 * its words (src/commands/help/show.ts), in place of commander's, which read one word and
 * showed the group's help, exit 0, for a word it did not know.
 */
function addGroupHelp(group: Command, f: Deps): void {
  group
    .command("help")
    .argument("[command...]")
    .description("display help for command")
    .action((words: string[]) => showHelp(group, words, (text) => f.io.stdout.write(text)));
}

/**
 * The entries a command line needs: the command its words name (with its groups), or all of a
 * group's commands when the words stop at a group (its help, "did you mean"), or the whole tree
 * when the first word names nothing (or names a command that reads the whole tree: completion).
 */
export function entriesFor(words: readonly string[], tree: readonly TreeEntry[]): readonly TreeEntry[] {
  let path = "";
  for (const word of words) {
    const next = path === "" ? word : `${path} ${word}`;
    if (!tree.some((e) => e.command === next)) break;
    path = next;
  }
  const named = tree.find((e) => e.command === path);
  if (named === undefined || ("wholeTree" in named && named.wholeTree)) return tree;
  return tree.filter((e) => path === e.command || path.startsWith(`${e.command} `) || e.command.startsWith(`${path} `));
}

/** The root's options as the scan below reads them: each spelling, and whether a value follows. */
const ROOT_OPTIONS = [VERSION_FLAG, ...GLOBAL_OPTIONS.map((o) => o.flag)].map((flag) => ({
  long: /--[\w-]+/.exec(flag)![0],
  short: /^-\w(?=[, ])/.exec(flag)?.[0],
  takesValue: flag.includes("<"),
}));

/**
 * The words that may name a command (`failover get bkdfo_1`), as commander finds them: the
 * root's options (anywhere) skipped with their values. It only picks the modules to load, and
 * errs towards more: it stops at `--`, at an option the root does not know (commander then
 * hands the rest to a subcommand or fails) and at one it cannot read for sure (`-vo`).
 */
export function commandPath(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    if (arg.length < 2 || !arg.startsWith("-")) {
      words.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const option = ROOT_OPTIONS.find((o) => (long ? o.long === arg.split("=")[0] : o.short === arg.slice(0, 2)));
    if (!option) break;
    const attached = long ? arg.includes("=") : arg.length > 2;
    if (attached && !long && !option.takesValue) break;
    if (!attached && option.takesValue) i++;
  }
  return words;
}

// The command tree. Each noun declares its verbs (src/commands/<noun>/index.ts); each verb, and
// each command at the root, is a module of its own, loaded only when the command line names
// it: `failover get` evaluates its own modules (and their zod schemas), not the whole tree's.
// The whole tree is loaded when something needs it: the root's help, completion, a word that
// names no command (for "did you mean"), or a command line this cannot read for sure.
import { Command, Option, type ParseOptions } from "commander";
import { VERSION } from "../version.js";
import { commandWords, formatAfter, type Format } from "./argv.js";
import { GLOBAL_FLAGS, GLOBAL_OPTIONS, VERSION_FLAG } from "./globals.js";
import { registerNoun, type NounDecl, type RootCommand } from "./define.js";
import type { Deps } from "./deps.js";
// In help order; in a bundle made for one word (dist/main-<word>.cjs), that word's alone.
import { COMMANDS } from "./tree.js";

export { COMMANDS };
// For src/app.ts, which loads commander only through this module.
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

/**
 * The root's options: its version and those of src/commands/globals.ts, which argv.ts reads
 * the same way (test/commands/argv.property.test.ts builds its root with this).
 */
export function addRootOptions<C extends Command>(program: C): C {
  program.version(VERSION, VERSION_FLAG, "print the version");
  for (const { flag, help } of GLOBAL_OPTIONS) program.addOption(new Option(flag, help));
  return program;
}

/** Calls `set` with the output format each -o/--json gives, in the order typed (the last wins), as argv.ts does. */
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

  /** Adds the command that `args` (the user's words) names, or every command; once. */
  async load(args?: readonly string[]): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const [name, verb] = args === undefined ? [] : commandWords(args, [VERSION_FLAG, ...GLOBAL_FLAGS]);
    const named = COMMANDS.find((c) => c.name === name);
    const only = named && !("wholeTree" in named && named.wholeTree) ? named : undefined;
    const loaded = await Promise.all((only ? [only] : COMMANDS).map((c) => loadCommand(c, verb)));
    for (const add of loaded) add(this, this.deps);
  }
}

type AddFn = (program: Command, f: Deps) => void;

/** Loads a command's modules: a noun's one verb when `verb` names one of them, else all its verbs. */
async function loadCommand(command: NounDecl | RootCommand, verb: string | undefined): Promise<AddFn> {
  if ("load" in command) {
    const def = await command.load();
    return (program, f) => void def.register(program, f);
  }
  const names = verb !== undefined && Object.hasOwn(command.verbs, verb) ? [verb] : Object.keys(command.verbs);
  const verbs = await Promise.all(names.map((name) => command.verbs[name]!()));
  return (program, f) => void registerNoun(program, command, verbs, f);
}

// The command tree. Each noun declares its verbs (src/commands/<noun>/index.ts); each verb, and
// each command at the root, is a module of its own, loaded only when the command line names
// it: `failover get` evaluates its own modules (and their zod schemas), not the whole tree's.
// The whole tree is loaded when something needs it: the root's help, completion, a word that
// names no command (for "did you mean"), or a command line this cannot read for sure.
import { Command, Option, type ParseOptions } from "commander";
import { VERSION } from "../version.js";
import { registerNoun, type NounDecl, type RootCommand } from "./define.js";
import type { Deps } from "./deps.js";
// In help order; in a bundle made for one word (dist/main-<word>.cjs), that word's alone.
import { COMMANDS } from "./tree.js";

export { COMMANDS };

export function buildProgram(f: Deps): Program {
  const program = new Program(f)
    .description(
      "Manage ngrok Failover backends, webhook verification, and the Cloud Endpoints and Traffic Policies that replace Edges",
    )
    .version(VERSION, "-v, --version", "print the version")
    .addOption(
      new Option("--api-key <key>", "API key (visible in process lists: prefer EDGECTL_API_KEY or `auth login`)"),
    )
    .addOption(new Option("--base-url <url>", "API base URL (default https://api.ngrok.com)"))
    .addOption(new Option("--profile <name>", 'config profile (default "default")'))
    .addOption(new Option("-o, --output <format>", "output format: table or json"))
    .addOption(new Option("--json", "same as --output json"))
    .addOption(new Option("--timeout <seconds>", "time limit for the whole request, retries included (default 30)"))
    .addOption(new Option("--retries <n>", "retries for failed idempotent requests (default 3)"))
    .addOption(new Option("--debug", "log each request and response to stderr (secrets redacted)"))
    .addOption(new Option("--no-color", "never use color"))
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
  return program;
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
    const [name, verb] = args === undefined ? [] : this.commandWords(args);
    const named = COMMANDS.find((c) => c.name === name);
    const only = named && !("wholeTree" in named && named.wholeTree) ? named : undefined;
    const loaded = await Promise.all((only ? [only] : COMMANDS).map((c) => loadCommand(c, verb)));
    for (const add of loaded) add(this, this.deps);
  }

  /**
   * The first two operands, as commander finds them: the root's options (anywhere) skipped with
   * their values. Reading stops at `--`, at an option the root does not know (commander then
   * hands the rest to the subcommand or fails) and at --help, where what follows cannot be told.
   */
  private commandWords(args: readonly string[]): string[] {
    const words: string[] = [];
    for (let i = 0; i < args.length && words.length < 2; i++) {
      const arg = args[i]!;
      if (arg === "--") break;
      if (arg.length < 2 || !arg.startsWith("-")) {
        words.push(arg);
        continue;
      }
      const long = arg.startsWith("--");
      const option = this.options.find((o) => (long ? o.long === arg.split("=")[0] : o.short === arg.slice(0, 2)));
      if (!option) break;
      const attached = long ? arg.includes("=") : arg.length > 2;
      // A short switch with more letters after it (`-vo`): commander splits those; not worth it here.
      if (attached && !long && !option.required && !option.optional) break;
      if (!attached && (option.required || (option.optional && i + 1 < args.length && !args[i + 1]!.startsWith("-"))))
        i++;
    }
    return words;
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

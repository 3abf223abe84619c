// The whole CLI as a function: argv and the streams, env and stdin handed in, the exit code
// handed back. src/cli.ts runs it with the real process; tests run it in-process with
// captures. Nothing here touches process.exit, process.argv, signals or the real streams.
import type { Command } from "commander";
import type { InterruptReport } from "./commands/deps.js";
import { buildProgram, CommanderError, followFormat, type Format } from "./commands/root.js";
import { EXIT_CODES, EdgectlError, UsageError } from "./errors.js";
import { createFactory } from "./factory.js";
import type { InStream, OutStream } from "./io/iostreams.js";
import { formatError } from "./output/error.js";
import { escapeControl } from "./text/escape.js";
import { helpWidth, type HelpStream } from "./output/help-width.js";
import { withoutBlanks, type Env } from "./settings/config-file.js";
import { isTruthy, type GlobalFlags } from "./settings/resolve.js";

export interface AppOptions {
  env: Env;
  stdout: OutStream & HelpStream;
  stderr: OutStream;
  /** Read only when a command reads it or asks a question (a getter may make it then). */
  readonly stdin: InStream;
  /** The folder relative file names are read from; the process's own when absent. */
  cwd?: string;
  /** Where Ctrl-C goes instead of exiting at once (the emulator's clean stop). */
  onInterrupt?(handler: () => Promise<void>): void;
  /** What Ctrl-C should report besides "interrupted" (a batch's done and not-done ids). */
  reportOnInterrupt?(report: () => InterruptReport | undefined): void;
}

export interface App {
  /** Runs `edgectl <args>` (argv without node and the script); resolves to the exit code. */
  run(args: string[]): Promise<number>;
  /** Errors print as results do: JSON with -o json (for the signal handler's message). */
  errorsAsJson(): boolean;
}

export function createApp(options: AppOptions): App {
  const { stdout, stderr } = options;
  const env = withoutBlanks(options.env);
  // The root's options, as commander holds them.
  let globals = (): GlobalFlags => ({});
  // The last -o/--json given wins, for results and errors alike.
  let format: Format = {};
  const f = createFactory({
    env,
    stdout,
    stderr,
    get stdin() {
      return options.stdin;
    },
    cwd: options.cwd,
    flags: () => ({ ...globals(), ...format }),
    onInterrupt: (handler) => options.onInterrupt?.(handler),
    reportOnInterrupt: (report) => options.reportOnInterrupt?.(report),
  });

  let captured = "";
  /** commander reads the line (src/commands/root.ts loads the modules it names), and gives help. */
  const runCommander = async (args: string[]) => {
    const program = buildProgram(f);
    globals = () => program.opts();
    const configure = (cmd: Command) => {
      cmd.exitOverride().configureOutput({
        getOutHelpWidth: () => helpWidth(stdout),
        writeOut: (s) => stdout.write(s),
        writeErr: (s) => {
          captured += s;
        },
        outputError: (s) => {
          captured += s;
        },
      });
      for (const sub of cmd.commands) configure(sub);
    };
    configure(program);
    followFormat(program, (given) => (format = given));
    await program.parseAsync(args, { from: "user" });
  };

  return {
    async run(args) {
      let code = 0;
      try {
        await runCommander(args);
      } catch (err) {
        const debug = globals().debug === true || isTruthy(env.EDGECTL_DEBUG);
        code = handleError(err, captured, {
          stdout,
          stderr,
          json: f.errorsAsJson(),
          debug,
          warnings: f.takeWarnings(),
        });
      }
      f.flushWarnings();
      return code;
    },
    errorsAsJson: () => f.errorsAsJson(),
  };
}

/** Runs `edgectl <args>` once; resolves to the exit code. */
export function runApp(args: string[], options: AppOptions): Promise<number> {
  return createApp(options).run(args);
}

interface ErrorContext {
  stdout: OutStream;
  stderr: OutStream;
  json: boolean;
  debug: boolean;
  warnings: string[];
}

function handleError(err: unknown, captured: string, opts: ErrorContext): number {
  const { stdout, stderr } = opts;
  if (err instanceof CommanderError) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return 0;
    // A noun without a verb: show its help on stdout, like `gh repo`.
    if (err.code === "commander.help" || err.code === "commander.executeSubCommandAsync") {
      stdout.write(captured);
      return 0;
    }
    const message = (captured.replace(/^error:\s*/i, "").trim() || err.message).replace(/\s*\n\s*/g, " ");
    stderr.write(formatError(new UsageError(message), opts));
    if (!opts.json) stderr.write("Run 'edgectl --help' (or '<command> --help') for usage.\n");
    writeWarnings(opts);
    return EXIT_CODES.usage;
  }
  stderr.write(formatError(err, opts));
  writeWarnings(opts);
  // The message in a stack may hold what the server sent: escaped, line by line.
  if (opts.debug && err instanceof Error && err.stack)
    stderr.write(`${err.stack.split("\n").map(escapeControl).join("\n")}\n`);
  return err instanceof EdgectlError ? EXIT_CODES[err.kind] : EXIT_CODES.internal;
}

/** After the error line; with -o json they are inside the error object already. */
function writeWarnings(opts: ErrorContext): void {
  if (!opts.json) for (const w of opts.warnings) opts.stderr.write(`warning: ${escapeControl(w)}\n`);
}

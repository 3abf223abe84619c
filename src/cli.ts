// The entry point: the only place that touches process.argv, process.exit and the real
// streams, and the only place that turns errors into exit codes.
import { CommanderError, type Command } from "commander";
import { buildProgram } from "./commands/root.js";
import { EXIT_CODES, EdgectlError, InternalError, UsageError } from "./errors.js";
import { createFactory } from "./factory.js";
import { formatError } from "./output/error.js";
import { escapeControl } from "./output/escape.js";
import { helpWidth } from "./output/help-width.js";
import { isTruthy, type GlobalFlags } from "./settings/resolve.js";

export async function main(argv: string[] = process.argv): Promise<void> {
  let interruptHandler: (() => Promise<void>) | undefined;
  // The last -o/--json given wins, for results and errors alike.
  let format: { json?: boolean; output?: string } = {};
  const f = createFactory({
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin is made only by a command that reads it or asks a question.
    get stdin() {
      return process.stdin;
    },
    flags: () => ({ ...(program.opts() as GlobalFlags), ...format }),
    onInterrupt: (handler) => void (interruptHandler = handler),
  });
  let signalled = false;

  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal while the result drains to a reader that stopped reading: go now.
    if (signalled) process.exit(EXIT_CODES.interrupted);
    signalled = true;
    if (interruptHandler) {
      const handler = interruptHandler;
      interruptHandler = undefined;
      handler().then(
        () => process.exit(0),
        () => process.exit(1),
      );
      return;
    }
    // Exit at once: in-flight sockets die with the process. A result is written in one piece
    // at the end; if part of it is still queued for a slow reader, it is let through first, so
    // stdout never holds half a document (a second signal does not wait).
    const message = `interrupted (${signal})`;
    // On a terminal, start a fresh line after the echoed ^C; otherwise stderr starts with `error:`.
    const lead = process.stderr.isTTY ? "\n" : "";
    process.stderr.write(f.errorsAsJson() ? `${JSON.stringify({ error: { kind: "interrupted", message } })}\n` : `${lead}error: ${message}\n`);
    if (process.stdout.writableLength === 0) process.exit(EXIT_CODES.interrupted);
    void flushed(process.stdout).then(() => process.exit(EXIT_CODES.interrupted));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // A reader that stops early (`| head`, `| grep -q`) closes the pipe: what it took is what it
  // wanted. Further output is dropped quietly, and the exit code stays the command's own. Any
  // other failure to write stdout (a full disk, a closed descriptor) means the result was lost:
  // it is reported once the command ends, and the exit is not 0. stderr has nowhere to report to.
  let outputFailure: NodeJS.ErrnoException | undefined;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") outputFailure ??= err;
  });
  process.stderr.on("error", () => {});

  const program = buildProgram(f);
  let captured = "";
  const configure = (cmd: Command) => {
    cmd.exitOverride().configureOutput({
      getOutHelpWidth: helpWidth,
      writeOut: (s) => process.stdout.write(s),
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
  program.on("option:json", () => (format = { json: true, output: undefined }));
  program.on("option:output", (value: string) => (format = { json: false, output: value }));

  let code = 0;
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const debug = (program.opts() as GlobalFlags).debug === true || isTruthy(process.env.EDGECTL_DEBUG);
    code = handleError(err, captured, { json: f.errorsAsJson(), debug, warnings: f.takeWarnings() });
  }
  f.flushWarnings();
  if (interruptHandler) return; // the emulator keeps serving until a signal arrives
  process.exitCode = code;
  // Exit promptly (nothing else is pending, and keep-alive sockets must not hold us), but only
  // once stdout and stderr have taken everything: a pipe takes 64 KiB at a time, and exiting
  // earlier cuts a big result short.
  await flushed(process.stdout);
  if (outputFailure) {
    process.stderr.write(formatError(new InternalError(`cannot write output: ${outputFailure.message}`), { json: f.errorsAsJson() }));
    if (code === 0) code = EXIT_CODES.internal;
  }
  await flushed(process.stderr);
  process.exit(code);
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

function handleError(err: unknown, captured: string, opts: { json: boolean; debug: boolean; warnings: string[] }): number {
  if (err instanceof CommanderError) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return 0;
    // A noun without a verb: show its help on stdout, like `gh repo`.
    if (err.code === "commander.help" || err.code === "commander.executeSubCommandAsync") {
      process.stdout.write(captured);
      return 0;
    }
    const message = (captured.replace(/^error:\s*/i, "").trim() || err.message).replace(/\s*\n\s*/g, " ");
    process.stderr.write(formatError(new UsageError(message), opts));
    if (!opts.json) process.stderr.write("Run 'edgectl --help' (or '<command> --help') for usage.\n");
    writeWarnings(opts);
    return EXIT_CODES.usage;
  }
  process.stderr.write(formatError(err, opts));
  writeWarnings(opts);
  // The message in a stack may hold what the server sent: escaped, line by line.
  if (opts.debug && err instanceof Error && err.stack) process.stderr.write(`${err.stack.split("\n").map(escapeControl).join("\n")}\n`);
  return err instanceof EdgectlError ? EXIT_CODES[err.kind] : EXIT_CODES.internal;
}

/** After the error line; with -o json they are inside the error object already. */
function writeWarnings(opts: { json: boolean; warnings: string[] }): void {
  if (!opts.json) for (const w of opts.warnings) process.stderr.write(`warning: ${escapeControl(w)}\n`);
}

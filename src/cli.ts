// The entry point: the only place that touches process.argv, process.exit, signals and the
// real streams. The CLI itself is src/app.ts, which tests run in-process.
import { fstatSync } from "node:fs";
import { Readable } from "node:stream";
import { createApp } from "./app.js";
import type { InterruptReport } from "./commands/deps.js";
import { EXIT_CODES, InternalError, InterruptedError } from "./errors.js";
import { readSyncBounded } from "./files/read-bounded.js";
import type { InStream } from "./io/iostreams.js";
import { formatError } from "./output/error.js";

export async function main(argv: string[] = process.argv): Promise<void> {
  let stdin: InStream | undefined;
  let interruptHandler: (() => Promise<void>) | undefined;
  let interruptReport: (() => InterruptReport | undefined) | undefined;
  const app = createApp({
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin is made only by a command that reads it or asks a question.
    get stdin() {
      return (stdin ??= fileStdin() ?? process.stdin);
    },
    onInterrupt: (handler) => void (interruptHandler = handler),
    reportOnInterrupt: (report) => void (interruptReport = report),
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
    // A batch says which ids were done and which were not.
    const report = interruptReport?.();
    const message = `interrupted (${signal})${report ? `: ${report.message}` : ""}`;
    // On a terminal, start a fresh line after the echoed ^C; otherwise stderr starts with `error:`.
    const lead = process.stderr.isTTY ? "\n" : "";
    const json = app.errorsAsJson();
    process.stderr.write(
      json
        ? formatError(new InterruptedError(message, report?.details), { json })
        : `${lead}error: ${message}\n${report ? report.lines.map((l) => `${l}\n`).join("") : ""}`,
    );
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

  let code = await app.run(argv.slice(2));
  if (interruptHandler) return; // the emulator keeps serving until a signal arrives
  process.exitCode = code;
  // Exit promptly (nothing else is pending, and keep-alive sockets must not hold us), but only
  // once stdout and stderr have taken everything: a pipe takes 64 KiB at a time, and exiting
  // earlier cuts a big result short.
  await flushed(process.stdout);
  if (outputFailure) {
    process.stderr.write(
      formatError(new InternalError(`cannot write output: ${outputFailure.message}`), { json: app.errorsAsJson() }),
    );
    if (code === 0) code = EXIT_CODES.internal;
  }
  await flushed(process.stderr);
  process.exit(code);
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * A file on stdin (`< ids.txt`), read at once: reading a file cannot block, and process.stdin
 * would make an fs stream for it, which costs more than the read. A pipe or a terminal stays
 * process.stdin, read as it comes, so Ctrl-C is heard while a writer is still writing.
 * At most 16 MiB and a byte are read: readStdin refuses more (src/files/read-bounded.ts).
 */
function fileStdin(): InStream | undefined {
  try {
    if (!fstatSync(0).isFile()) return undefined;
    return Object.assign(Readable.from([readSyncBounded(0)]), { isTTY: false });
  } catch {
    return undefined; // no fd 0, or unreadable: process.stdin says so as it always did
  }
}

// The terminal facts in one place, as gh's iostreams: the three streams, whether a person is
// there to answer a question, and whether color may be used on a stream (the batch progress
// line, in commands/batch.ts, draws only when stderr is a terminal).
// src/cli.ts hands in the real streams; tests hand in captures.

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width (Node sets it on a TTY stream). */
  columns?: number;
}

export type InStream = NodeJS.ReadableStream & { isTTY?: boolean };

export interface Streams {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  /** False with --no-color, NO_COLOR, FORCE_COLOR=0 or TERM=dumb; color still needs a terminal. */
  colorAllowed: boolean;
}

export class IOStreams {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  private readonly streams: Streams;
  private readonly colorAllowed: boolean;

  constructor(streams: Streams) {
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.streams = streams;
    this.colorAllowed = streams.colorAllowed;
  }

  /** Taken from `streams` when first used: process.stdin costs a command that reads nothing. */
  get stdin(): InStream {
    return this.streams.stdin;
  }

  /**
   * Why no question can be asked, or undefined when one can: the answer is read from stdin
   * and the question goes to stderr, so both must be terminals.
   */
  promptBlocker(): string | undefined {
    const stdin = Boolean(this.stdin.isTTY);
    const stderr = Boolean(this.stderr.isTTY);
    if (stdin && stderr) return undefined;
    return !stdin && !stderr
      ? "stdin and stderr are not terminals"
      : !stdin
        ? "stdin is not a terminal"
        : "stderr is not a terminal";
  }

  canPrompt(): boolean {
    return this.promptBlocker() === undefined;
  }

  /** The width to fit output to on this stream: a terminal's columns; undefined when piped (nothing is cut). */
  columns(stream: OutStream): number | undefined {
    const { columns } = stream;
    return stream.isTTY && typeof columns === "number" && Number.isInteger(columns) && columns > 0
      ? columns
      : undefined;
  }

  /** Color on this stream: allowed, and the stream is a terminal. */
  colorOn(stream: OutStream): boolean {
    return this.colorAllowed && Boolean(stream.isTTY);
  }
}

/** Whether the environment and the flag allow color at all (https://no-color.org). */
export function colorAllowed(env: Record<string, string | undefined>, noColorFlag: boolean): boolean {
  if (noColorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== "")) return false;
  return env.FORCE_COLOR !== "0" && env.TERM !== "dumb";
}

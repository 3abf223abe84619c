// In-memory Deps for unit tests: captured stdout/stderr/warnings, a scripted stdin, and a
// client() that fails the test if a command reaches for the network.
import { Readable } from "node:stream";
import type { Deps } from "../../src/commands/deps.js";
import { IOStreams } from "../../src/io/iostreams.js";
import type { Settings } from "../../src/settings/resolve.js";

export interface Capture {
  text: string;
  isTTY?: boolean;
  write(chunk: string): boolean;
}

export function capture(isTTY = false): Capture {
  return {
    text: "",
    isTTY,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

export interface FakeDeps extends Deps {
  out: Capture;
  err: Capture;
  warnings: string[];
  stdinReads: number;
  clientCalls: number;
}

export const DEFAULT_SETTINGS: Settings = {
  profile: "default",
  baseUrl: "https://api.example.test",
  output: "table",
  timeoutMs: 30_000,
  retries: 3,
  debug: false,
};

export function fakeDeps(
  opts: {
    settings?: Partial<Settings>;
    env?: Record<string, string | undefined>;
    stdin?: string;
    stdinIsTTY?: boolean;
    stdoutIsTTY?: boolean;
    color?: boolean;
    confirm?: boolean;
    prompt?: string;
  } = {},
): FakeDeps {
  const out = capture(opts.stdoutIsTTY ?? false);
  const err = capture(false);
  const stdin = Object.assign(Readable.from([]), { isTTY: opts.stdinIsTTY ?? false });
  const deps: FakeDeps = {
    out,
    err,
    warnings: [],
    stdinReads: 0,
    clientCalls: 0,
    io: new IOStreams({ stdout: out, stderr: err, stdin, colorAllowed: opts.color ?? false }),
    env: opts.env ?? {},
    settings: { ...DEFAULT_SETTINGS, ...opts.settings },
    profile: opts.settings?.profile ?? DEFAULT_SETTINGS.profile,
    client() {
      deps.clientCalls++;
      throw new Error("unit tests must not build an API client");
    },
    confirm: () => Promise.resolve(opts.confirm ?? false),
    promptHidden: () => Promise.resolve(opts.prompt ?? ""),
    readStdin() {
      deps.stdinReads++;
      return Promise.resolve(opts.stdin ?? "");
    },
    warn(message: string) {
      deps.warnings.push(message);
    },
    onInterrupt() {},
  };
  return deps;
}

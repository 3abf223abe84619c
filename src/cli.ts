// The entry point: the only place that touches process.argv, process.exit and the real
// streams, and the only place that turns errors into exit codes.
import { CommanderError, type Command } from "commander";
import { ApiClient } from "./api/client.js";
import { AuthError, EXIT_CODES, EdgectlError, InternalError, UsageError } from "./errors.js";
import type { AppContext, Deps, IO } from "./commands/deps.js";
import { buildProgram } from "./commands/root.js";
import { ask } from "./io/prompt.js";
import { formatError } from "./output/error.js";
import { escapeControl } from "./output/escape.js";
import { helpWidth } from "./output/help-width.js";
import { configPath, profileOf, readConfig, type ConfigData, type Env } from "./settings/config-file.js";
import { isTruthy, resolveProfileName, resolveSettings, type GlobalFlags, type Settings } from "./settings/resolve.js";

export async function main(argv: string[] = process.argv): Promise<void> {
  const env: Env = process.env;
  const interrupt: { handler?: () => Promise<void> } = {};
  const io: IO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    color: colorAllowed(env, argv),
  };
  // Warnings wait until the outcome is known, so that on failure stderr still starts with
  // `error:` (or, with -o json, is one JSON object that carries them).
  const warnings: string[] = [];
  const warn = (message: string) => void warnings.push(message);
  const flushWarnings = () => {
    for (const w of warnings.splice(0)) process.stderr.write(`warning: ${escapeControl(w)}\n`);
  };
  // The config file is read once, whoever asks first; an unreadable one fails every time it
  // is asked for.
  let config: { data: ConfigData } | { error: unknown } | undefined;
  const loadConfig = (): ConfigData => {
    if (!config) {
      try {
        config = { data: readConfig(env, warn) };
      } catch (error) {
        config = { error };
      }
    }
    if ("error" in config) throw config.error;
    return config.data;
  };
  // Errors print as JSON with -o json; the profile's output setting counts once it is read.
  const state = { json: wantsJson(argv, env, loadConfig) };
  const debug = argv.includes("--debug") || isTruthy(env.EDGECTL_DEBUG);
  let signalled = false;

  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal while the result drains to a reader that stopped reading: go now.
    if (signalled) process.exit(EXIT_CODES.interrupted);
    signalled = true;
    if (interrupt.handler) {
      const handler = interrupt.handler;
      interrupt.handler = undefined;
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
    process.stderr.write(state.json ? `${JSON.stringify({ error: { kind: "interrupted", message } })}\n` : `${lead}error: ${message}\n`);
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

  const app: AppContext = { deps: (cmd) => Promise.resolve(buildDeps(cmd, env, io, interrupt, state, loadConfig, warn, flushWarnings)) };
  const program = buildProgram(app);
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

  let code = 0;
  try {
    await program.parseAsync(argv);
  } catch (err) {
    code = handleError(err, captured, { json: state.json, debug, warnings: warnings.splice(0) });
  }
  flushWarnings();
  if (interrupt.handler) return; // the emulator keeps serving until a signal arrives
  process.exitCode = code;
  // Exit promptly (nothing else is pending, and keep-alive sockets must not hold us), but only
  // once stdout and stderr have taken everything: a pipe takes 64 KiB at a time, and exiting
  // earlier cuts a big result short.
  await flushed(process.stdout);
  if (outputFailure) {
    process.stderr.write(formatError(new InternalError(`cannot write output: ${outputFailure.message}`), { json: state.json }));
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

function buildDeps(
  cmd: Command,
  env: Env,
  io: IO,
  interrupt: { handler?: () => Promise<void> },
  state: { json: boolean },
  loadConfig: () => ConfigData,
  warn: (message: string) => void,
  flushWarnings: () => void,
): Deps {
  const flags = cmd.optsWithGlobals() as GlobalFlags;
  // Worked out when first used, so that a command that needs no settings (`config path`,
  // `completion`) runs whatever the config file or the environment holds, and `config set`
  // can repair one bad value while another is still bad.
  let profile: string | undefined;
  let settings: Settings | undefined;
  const terminal = { input: process.stdin, output: process.stderr };
  const deps: Deps = {
    io,
    env,
    get profile() {
      return (profile ??= resolveProfileName(flags, env));
    },
    get settings() {
      if (!settings) {
        settings = resolveSettings(flags, env, profileOf(loadConfig(), deps.profile, configPath(env)), deps.profile, configPath(env));
        state.json = settings.output === "json";
      }
      return settings;
    },
    warn,
    client(request = {}) {
      const settings = deps.settings;
      const debugLine = settings.debug ? (line: string) => process.stderr.write(`debug: ${line}\n`) : undefined;
      if (!settings.apiKey) {
        throw new AuthError(
          `no API key for profile "${settings.profile}": run \`edgectl auth login\`, set EDGECTL_API_KEY, or pass --api-key`,
        );
      }
      return new ApiClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        timeoutMs: settings.timeoutMs,
        retries: settings.retries,
        debug: debugLine,
        secrets: request.secrets,
        maxSockets: request.maxSockets,
        env,
      });
    },
    // Warnings are shown before a question, and before a server that runs until stopped.
    confirm: (question) => (flushWarnings(), ask(question, false, terminal)).then((a) => /^y(es)?$/i.test(a.trim())),
    promptHidden: (question) => (flushWarnings(), ask(question, true, terminal)),
    readStdin,
    onInterrupt(handler) {
      flushWarnings();
      interrupt.handler = handler;
    },
  };
  return deps;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether errors print as JSON, decided before commander parses anything (usage errors
 * come from it): the flag, else EDGECTL_OUTPUT, else the active profile's `output`.
 */
function wantsJson(argv: string[], env: Env, loadConfig: () => ConfigData): boolean {
  let profile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (a === "--json" || a === "-ojson" || a === "--output=json") return true;
    if (a === "-otable" || a === "--output=table") return false;
    if (a === "-o" || a === "--output") return next === "json";
    if (a === "--profile") profile = next;
    else if (a.startsWith("--profile=")) profile = a.slice("--profile=".length);
  }
  if (env.EDGECTL_OUTPUT) return env.EDGECTL_OUTPUT === "json";
  try {
    const name = profile ?? (env.EDGECTL_PROFILE || "default");
    return loadConfig().profiles?.[name]?.output === "json";
  } catch {
    return false; // an unreadable config is reported once the command reads it
  }
}

function colorAllowed(env: Env, argv: string[]): boolean {
  if (argv.includes("--no-color") || env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR === "0" || env.TERM === "dumb") return false;
  return true;
}

// Builds, once per run, what commands are given (as gh's cmdutil.Factory): the settings, the
// io streams, API clients and prompts. Everything is worked out when first used, so a command
// that needs no settings (`config path`, `completion`) runs whatever the config file or the
// environment holds, and `config set` can repair one bad value while another is still bad.
import { ApiClient, keySource } from "./api/client.js";
import type { Deps, InterruptReport } from "./commands/deps.js";
import { AuthError, UsageError } from "./errors.js";
import { InputTooLargeError, readStreamBounded, tooLargeMessage } from "./files/read-bounded.js";
import { colorAllowed, IOStreams, type InStream, type OutStream } from "./io/iostreams.js";
import { ask } from "./io/prompt.js";
import { escapeControl } from "./text/escape.js";
import {
  configPath,
  profileOf,
  readConfig,
  requireProfile,
  type ConfigData,
  type Env,
} from "./settings/config-file.js";
import {
  profileNamedBy,
  resolveProfileName,
  resolveSettings,
  type GlobalFlags,
  type Settings,
} from "./settings/resolve.js";

export interface FactoryOptions {
  env: Env;
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  /** The folder relative file names are read from (Deps.cwd); the process's own when absent. */
  cwd?: string;
  /** The root's options as commander parsed them (asked for only once parsing is done). */
  flags(): GlobalFlags;
  /** Where Ctrl-C goes instead of exiting at once (the emulator's clean stop). */
  onInterrupt(handler: () => Promise<void>): void;
  /** What Ctrl-C should report besides "interrupted" (a batch's done and not-done ids). */
  reportOnInterrupt?(report: () => InterruptReport | undefined): void;
}

export interface Factory extends Deps {
  /** Errors print as results do: JSON with -o json, from the flags, env or profile. */
  errorsAsJson(): boolean;
  /** The warnings not yet shown, taken (for an error that carries them). */
  takeWarnings(): string[];
  /** Shows the pending warnings on stderr. */
  flushWarnings(): void;
}

export function createFactory(options: FactoryOptions): Factory {
  // options.stdin is read only when used: making process.stdin costs a command that reads nothing.
  const { env, stderr } = options;
  // Warnings wait until the outcome is known, so that on failure stderr still starts with
  // `error:` (or, with -o json, is one JSON object that carries them).
  const warnings: string[] = [];
  const flushWarnings = () => {
    for (const w of warnings.splice(0)) stderr.write(`warning: ${escapeControl(w)}\n`);
  };
  // The config file is read once, whoever asks first; an unreadable one fails every time it
  // is asked for.
  let config: { data: ConfigData } | { error: unknown } | undefined;
  const loadConfig = (): ConfigData => {
    if (!config) {
      try {
        config = { data: readConfig(env, (message) => void warnings.push(message)) };
      } catch (error) {
        config = { error };
      }
    }
    if ("error" in config) throw config.error;
    return config.data;
  };
  let profile: string | undefined;
  let settings: Settings | undefined;
  let io: IOStreams | undefined;
  const terminal = {
    get input() {
      return options.stdin;
    },
    output: stderr as NodeJS.WritableStream,
  };

  const resolveWith = (flags: GlobalFlags) =>
    resolveSettings(flags, env, profileOf(loadConfig(), f.profile, configPath(env)), f.profile, configPath(env));

  const f: Factory = {
    env,
    cwd: options.cwd,
    get io() {
      return (io ??= new IOStreams({
        stdout: options.stdout,
        stderr,
        get stdin() {
          return options.stdin;
        },
        colorAllowed: colorAllowed(env, options.flags().color === false),
      }));
    },
    get profile() {
      return (profile ??= resolveProfileName(options.flags(), env));
    },
    get profileNamedBy() {
      return profileNamedBy(options.flags(), env);
    },
    get settings() {
      if (!settings) requireProfile(loadConfig(), f.profile, f.profileNamedBy, configPath(env));
      return (settings ??= resolveWith(options.flags()));
    },
    warn: (message) => void warnings.push(message),
    client(request = {}) {
      // A key to check before it is stored (auth login) is used with the profile's other
      // settings, which that profile need not hold yet.
      const s = request.apiKey === undefined ? f.settings : resolveWith({ ...options.flags(), apiKey: request.apiKey });
      if (!s.apiKey) {
        throw new AuthError(
          `no API key for profile "${s.profile}": run \`edgectl auth login\`, set EDGECTL_API_KEY, or pass --api-key`,
        );
      }
      return new ApiClient({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        keySource: keySource(s.apiKeySource, s.profile, configPath(env)),
        timeoutMs: s.timeoutMs,
        retries: s.retries,
        debug: s.debug ? (line: string) => stderr.write(`debug: ${line}\n`) : undefined,
        secrets: request.secrets,
        // Only --debug logs bodies: the masking code is evaluated then, not at every start.
        maskPolicy: async (text: string) => (await import("./output/mask.js")).maskPolicyText(text),
        // A DELETE counted as done after a lost answer is said on stderr (with the warnings).
        note: (message: string) => void warnings.push(message),
        maxSockets: request.maxSockets,
        env,
      });
    },
    // Warnings are shown before a question, and before a server that runs until stopped.
    confirm: (question) => (flushWarnings(), ask(question, false, terminal)).then((a) => /^y(es)?$/i.test(a.trim())),
    promptHidden: (question) => (flushWarnings(), ask(question, true, terminal)),
    async readStdin(label) {
      try {
        return (await readStreamBounded(options.stdin)).toString("utf8");
      } catch (err) {
        if (err instanceof InputTooLargeError) throw new UsageError(tooLargeMessage(label, "stdin"));
        throw err;
      }
    },
    onInterrupt(handler) {
      flushWarnings();
      options.onInterrupt(handler);
    },
    reportOnInterrupt: (report) => options.reportOnInterrupt?.(report),
    errorsAsJson() {
      if (settings) return settings.output === "json";
      // Not resolved (a usage error from commander, or a bad value): the same precedence, as
      // far as it can be read, and table when it cannot.
      const flags = options.flags();
      if (flags.json) return true;
      if (flags.output !== undefined) return flags.output === "json";
      if (env.EDGECTL_OUTPUT?.trim()) return env.EDGECTL_OUTPUT.trim() === "json";
      try {
        return loadConfig().profiles?.[flags.profile ?? (env.EDGECTL_PROFILE || "default")]?.output === "json";
      } catch {
        return false; // an unreadable config is reported once the command reads it
      }
    },
    takeWarnings: () => warnings.splice(0),
    flushWarnings,
  };
  return f;
}

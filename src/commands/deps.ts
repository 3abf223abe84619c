// What the outside world gives a command: src/factory.ts builds the real one, once per run;
// tests pass plain objects.
import type { ApiClient } from "../api/client.js";
import type { IOStreams } from "../io/iostreams.js";
import type { Env } from "../settings/config-file.js";
import type { Settings } from "../settings/resolve.js";

export interface ClientRequest {
  /** Webhook secrets to redact from logs and messages. */
  secrets?: string[];
  /** Keep-alive sockets (a batch's concurrency). */
  maxSockets?: number;
  /**
   * A key to use instead of the settings' one (`auth login` checks the key it was given), with
   * the profile's other settings; the profile need not be in the config file yet.
   */
  apiKey?: string;
}

export interface Deps {
  io: IOStreams;
  env: Env;
  /**
   * The folder that relative file names (a policy file, --secret-file, --input) are read from:
   * the process's own when absent. The in-process runner of the tests hands one in, since a
   * worker thread cannot change the process's folder.
   */
  cwd?: string;
  /** The active profile's name (flag, EDGECTL_PROFILE or "default"). */
  profile: string;
  /**
   * `--profile` or `EDGECTL_PROFILE` when the profile was named explicitly: such a profile must
   * be in the config file (requireProfile), except for the commands that create it.
   */
  profileNamedBy?: string;
  /** Resolved when first read: a bad value anywhere throws then, naming its source. */
  settings: Settings;
  /** An API client for the settings; throws AuthError when no key is configured. */
  client(request?: ClientRequest): ApiClient;
  /**
   * Asks a yes/no question on stderr, reading the answer from a terminal stdin. Ctrl-C rejects
   * with InterruptedError, end of input with UsageError (as promptHidden does).
   */
  confirm(question: string): Promise<boolean>;
  /** Reads a line without echo (for keys typed at a terminal). */
  promptHidden(question: string): Promise<string>;
  /**
   * Reads all of stdin, at most 16 MiB (src/files/read-bounded.ts): more is a UsageError that
   * names stdin, after `label` (the flag or argument that asked for it).
   */
  readStdin(label?: string): Promise<string>;
  warn(message: string): void;
  /** The clock, in milliseconds (`webhook sign --timestamp`, `webhook verify --now` default to it); absent: Date.now. */
  now?(): number;
  /** Registers cleanup to run on Ctrl-C/SIGTERM instead of exiting at once (the emulator). */
  onInterrupt(handler: () => Promise<void>): void;
  /**
   * Registers what Ctrl-C/SIGTERM should report besides "interrupted" (a batch: which ids were
   * done); the process still exits at once. Absent in tests that do not need it.
   */
  reportOnInterrupt?(report: () => InterruptReport | undefined): void;
}

/** Said on stderr when a command is interrupted: more words, and `details` for -o json. */
export interface InterruptReport {
  message: string;
  /** Lines after the error line (people); -o json has `details` instead. */
  lines: string[];
  details: Record<string, unknown>;
}

// Settings precedence: command-line flag > environment variable > active profile > default.
import { UsageError } from "../errors.js";
import type { Env, Profile } from "./config-file.js";

export const DEFAULT_BASE_URL = "https://api.ngrok.com";

export interface GlobalFlags {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  output?: string;
  json?: boolean;
  timeout?: string;
  retries?: string;
  debug?: boolean;
  color?: boolean;
}

/** The output formats, declared once: --output's check reads them, and so does its completion. */
export const OUTPUT_FORMATS = ["table", "json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface Settings {
  profile: string;
  apiKey?: string;
  /** Where the key came from, for `auth status`: "--api-key", "EDGECTL_API_KEY", "NGROK_API_KEY", 'profile "x"'. */
  apiKeySource?: string;
  baseUrl: string;
  output: OutputFormat;
  timeoutMs: number;
  retries: number;
  debug: boolean;
}

export function resolveProfileName(flags: GlobalFlags, env: Env): string {
  if (flags.profile !== undefined && flags.profile.trim() === "") throw new UsageError("--profile: must not be empty");
  const name = flags.profile ?? (env.EDGECTL_PROFILE || undefined) ?? "default";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
    throw new UsageError(`--profile: "${name}" is not a valid profile name (letters, digits, _ . -)`);
  }
  // Names every JavaScript object already has: a profile so named could not be stored.
  if (name === "__proto__" || name === "constructor" || name === "prototype") {
    throw new UsageError(`--profile: "${name}" is reserved; choose another profile name`);
  }
  return name;
}

/** Picks the first value set and remembers which source gave it; blank counts as unset (`FOO=" "`). */
function pick(...candidates: [string | undefined, string][]): [string, string] | undefined {
  for (const [value, source] of candidates) if (value !== undefined && value.trim() !== "") return [value, source];
  return undefined;
}

/**
 * `file` is the config file's path, named in the message when a profile's value is refused.
 */
export function resolveSettings(
  flags: GlobalFlags,
  env: Env,
  profile: Profile,
  profileName: string,
  file = "the config file",
): Settings {
  // An empty flag value is a mistake (an unset variable in a script), not "use the default".
  for (const [name, value] of [
    ["--api-key", flags.apiKey],
    ["--base-url", flags.baseUrl],
    ["--output", flags.output],
    ["--timeout", flags.timeout],
    ["--retries", flags.retries],
  ] as const) {
    if (value !== undefined && value.trim() === "") throw new UsageError(`${name}: must not be empty`);
  }
  const key = pick(
    [flags.apiKey, "--api-key"],
    [env.EDGECTL_API_KEY, "EDGECTL_API_KEY"],
    [env.NGROK_API_KEY, "NGROK_API_KEY"],
    [profile.api_key, `profile "${profileName}"`],
  );
  // A refused profile value names its key and the file it is in.
  const stored = (name: string) => `${name} in profile "${profileName}" of ${file}`;
  const output: [string, string] | undefined = flags.json
    ? ["json", "--json"]
    : pick([flags.output, "--output"], [env.EDGECTL_OUTPUT, "EDGECTL_OUTPUT"], [profile.output, stored("output")]);
  const timeout = pick(
    [flags.timeout, "--timeout"],
    [env.EDGECTL_TIMEOUT, "EDGECTL_TIMEOUT"],
    [profile.timeout, stored("timeout")],
  );
  const retries = pick(
    [flags.retries, "--retries"],
    [env.EDGECTL_RETRIES, "EDGECTL_RETRIES"],
    [profile.retries, stored("retries")],
  );
  const baseUrl = pick(
    [flags.baseUrl, "--base-url"],
    [env.EDGECTL_BASE_URL, "EDGECTL_BASE_URL"],
    [profile.base_url, stored("base_url")],
  );
  const apiKey = key
    ? parseApiKey(key[0], key[1] === `profile "${profileName}"` ? stored("api_key") : key[1])
    : undefined;
  return {
    profile: profileName,
    apiKey,
    apiKeySource: key?.[1],
    baseUrl: baseUrl ? parseBaseUrl(baseUrl[0], baseUrl[1]) : DEFAULT_BASE_URL,
    output: output ? parseOutput(output[0], output[1]) : "table",
    timeoutMs: timeout ? parseTimeout(timeout[0], timeout[1]) : 30_000,
    retries: retries ? parseRetries(retries[0], retries[1]) : 3,
    debug: Boolean(flags.debug) || isTruthy(env.EDGECTL_DEBUG),
  };
}

export function isTruthy(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}

/**
 * An API key is printable ASCII without spaces: anything else (a line break, NUL, a character
 * a copy and paste brought along) could not travel in a header, so it is refused where it
 * enters, naming its source. Blanks around it are dropped.
 */
export function parseApiKey(value: string, source: string): string {
  const key = value.trim();
  const bad = /[^\x21-\x7e]/.exec(key)?.[0];
  if (bad !== undefined) {
    const what = /\s/.test(bad)
      ? "spaces or line breaks"
      : /[\x00-\x1f\x7f]/.test(bad)
        ? "control characters"
        : "characters outside printable ASCII";
    throw new UsageError(`${source}: the API key must be printable ASCII without spaces (this one has ${what})`);
  }
  return key;
}

export function parseOutput(value: string, source = "--output"): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`${source}: "${value}" is not a supported output format (use table or json)`);
}

export function parseTimeout(value: string, source = "--timeout"): number {
  const seconds = Number(value);
  const ms = Math.round(seconds * 1000);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(seconds) || ms < 1 || seconds > 3600) {
    throw new UsageError(`${source}: "${value}" must be a number of seconds greater than 0 and at most 3600`);
  }
  return ms;
}

export function parseRetries(value: string, source = "--retries"): number {
  if (!/^\d{1,2}$/.test(value.trim()) || Number(value) > 10) {
    throw new UsageError(`${source}: "${value}" must be a whole number from 0 to 10`);
  }
  return Number(value);
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * The key travels only over https, or plain http to a loopback host. Any path prefix is
 * kept; a trailing slash is dropped so paths can be appended.
 */
export function parseBaseUrl(value: string, source = "--base-url"): string {
  // A refused URL is quoted back without any user:password@ it may hold.
  const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1****@");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${shown}" is not a valid URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`${source}: "${shown}" must be an https:// URL`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${source}: refusing plain http to ${url.hostname}: the API key would travel unencrypted; use https:// (plain http is allowed only to 127.0.0.1, ::1 or localhost)`,
    );
  }
  if (url.username || url.password) throw new UsageError(`${source}: must not contain credentials`);
  if (url.search || url.hash) throw new UsageError(`${source}: must not contain a query or fragment`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

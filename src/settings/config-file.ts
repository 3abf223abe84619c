// The config file: {"profiles": {"<name>": {"api_key": …, "base_url": …, …}}}. This module
// alone locates, reads and writes it. Reading happens on every command, so it is a plain JSON
// read that changes nothing; writing (login, logout, config set/unset) holds a lock across
// processes around read-modify-write and replaces the file atomically, with libraries loaded
// only by the commands that write.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InternalError, UsageError } from "../errors.js";
import { escapeControl } from "../text/escape.js";

export type Env = Record<string, string | undefined>;

/**
 * The environment as edgectl reads it: a variable set to blanks counts as unset, every one of
 * them (`EDGECTL_WEBHOOK_SECRET='   '` is no secret, `NO_COLOR=' '` no request). src/app.ts
 * applies it once, so every reader sees the same.
 */
export function withoutBlanks(env: Env): Env {
  // A view, not a copy: edgectl reads variables by name, and copying every variable of a large
  // environment at each start cost failover get a garbage collection (BENCHMARKS.md).
  const shown = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
  return new Proxy(env, {
    get: (target, name) => shown(Reflect.get(target, name)),
    has: (target, name) => shown(Reflect.get(target, name)) !== undefined,
    ownKeys: (target) => Reflect.ownKeys(target).filter((name) => shown(Reflect.get(target, name)) !== undefined),
    getOwnPropertyDescriptor: (target, name) =>
      shown(Reflect.get(target, name)) === undefined ? undefined : Reflect.getOwnPropertyDescriptor(target, name),
  });
}

export const CONFIG_KEYS = ["api_key", "base_url", "output", "timeout", "retries"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
/** A profile's keys as strings (numbers given for timeout/retries are read as their text). */
export type Profile = Partial<Record<ConfigKey, string>>;
/** The file as stored: profiles hold whatever JSON values the file has, checked when used. */
export interface ConfigData {
  profiles?: Record<string, Record<string, unknown>>;
}

/** The folder env-paths (what `conf` uses) picks for "edgectl", or EDGECTL_CONFIG_DIR. */
export function configDir(env: Env): string {
  if (env.EDGECTL_CONFIG_DIR) return env.EDGECTL_CONFIG_DIR;
  const home = env.HOME ?? process.getBuiltinModule("node:os").homedir(); // os loaded only without HOME
  if (process.platform === "darwin") return join(home, "Library", "Preferences", "edgectl");
  if (process.platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "edgectl", "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "edgectl");
}

export function configPath(env: Env): string {
  return join(configDir(env), "config.json");
}

/**
 * Reads the config file; a missing file is an empty config. Nothing is changed: a file
 * readable by others (it may hold the API key) is only warned about.
 */
export function readConfig(env: Env, warn: (message: string) => void): ConfigData {
  const path = configPath(env);
  const text = readText(path);
  if (text === undefined) return {};
  if (process.platform !== "win32") {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && mode & 0o077) {
      warn(
        `${path} is readable by others (mode ${(mode & 0o777).toString(8)}) and may hold an API key; run: chmod 600 '${path}'`,
      );
    }
  }
  return parseConfig(text, path);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
}

function parseConfig(text: string, path: string): ConfigData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`config file ${path} is not valid JSON; fix or remove it`);
  }
  if (!isObject(data))
    throw new UsageError(`config file ${path} is not valid JSON (expected an object); fix or remove it`);
  const profiles = data.profiles;
  if (profiles === undefined) return data;
  if (!isObject(profiles) || !Object.values(profiles).every(isObject)) {
    throw new UsageError(`config file ${path}: "profiles" must be an object of objects; fix or remove it`);
  }
  return data as ConfigData;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The keys of one profile as text. A number is fine for a numeric key, null counts as unset;
 * anything else is refused naming the key, the profile and the file.
 */
export function profileOf(config: ConfigData, profile: string, path = "the config file"): Profile {
  const stored = Object.hasOwn(config.profiles ?? {}, profile) ? config.profiles![profile]! : {};
  const out: Profile = {};
  for (const key of CONFIG_KEYS) {
    const value = stored[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") out[key] = value;
    else if (typeof value === "number" && (key === "timeout" || key === "retries")) out[key] = String(value);
    else {
      throw new UsageError(
        `${key} in profile "${profile}" of ${path}: ${JSON.stringify(value)} is not ${key === "timeout" || key === "retries" ? "a number" : "a string"}; fix it with \`edgectl config set ${key} <value>\` or \`edgectl config unset ${key}\``,
      );
    }
  }
  return out;
}

/**
 * A profile named explicitly (`namedBy`: `--profile` or `EDGECTL_PROFILE`) that the config file
 * does not hold is a mistake, not an empty profile: exit 2, listing the profiles there are.
 * "default" always exists (it works with no config file at all), named or not. Commands that
 * create a profile (`auth login`, `config set`) do not ask.
 */
export function requireProfile(
  config: ConfigData,
  profile: string,
  namedBy: string | undefined,
  path = "the config file",
): void {
  if (namedBy === undefined || profile === "default" || Object.hasOwn(config.profiles ?? {}, profile)) return;
  const names = Object.keys(config.profiles ?? {}).sort();
  const there =
    names.length === 0
      ? `${path} holds no profiles`
      : `the profiles in ${path}: ${names.map((n) => escapeControl(n)).join(", ")}`;
  throw new UsageError(
    `${namedBy}: no profile "${profile}" (${there}); \`edgectl auth login --profile ${profile}\` or \`edgectl config set <key> <value> --profile ${profile}\` creates it`,
  );
}

/** A writer waits some seconds for others to finish before giving up (each holds the lock for milliseconds). */
const LOCK_RETRIES = { retries: 30, factor: 1.2, minTimeout: 10, maxTimeout: 250, randomize: true };

/**
 * Sets (or with `undefined`, removes) one key of one profile, holding the lock around
 * read-modify-write so that concurrent writers never lose each other's changes. The file is
 * replaced atomically with mode 0600. The folder is created 0700 if missing; a folder that
 * already exists is not ours to change, so one open to others is only warned about.
 */
export async function writeProfileKey(
  env: Env,
  profile: string,
  key: ConfigKey,
  value: string | undefined,
  warn: (message: string) => void = () => {},
): Promise<string> {
  const dir = configDir(env);
  const path = configPath(env);
  let created: boolean;
  try {
    created = mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
  } catch (err) {
    throw cannotWrite(dir, err, "the config folder");
  }
  if (!created && process.platform !== "win32") {
    const mode = statSync(dir).mode;
    if (mode & 0o077)
      warn(
        `the config folder ${dir} is open to others (mode ${(mode & 0o7777).toString(8)}); edgectl leaves its mode as it is, and keeps config.json 0600`,
      );
  }
  const { lock, writeDurableSync } = await import("./config-write.js");
  let release: () => Promise<void>;
  try {
    // realpath: false, so the file need not exist yet; the lock is the folder `config.json.lock`.
    release = await lock(path, { realpath: false, retries: LOCK_RETRIES, stale: 10_000 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new InternalError(
        `config file ${path} is locked by another edgectl that is writing it; nothing was changed, try again (a lock left by a crash, ${path}.lock, expires after 10 s)`,
      );
    }
    throw cannotWrite(`${path}.lock`, err, "the config file's lock");
  }
  try {
    const text = readText(path);
    const data = text === undefined ? {} : parseConfig(text, path);
    const profiles = { ...data.profiles };
    const current = { ...(Object.hasOwn(profiles, profile) ? profiles[profile] : {}) };
    if (value === undefined) delete current[key];
    else current[key] = value;
    if (Object.keys(current).length === 0) delete profiles[profile];
    else profiles[profile] = current;
    try {
      // Atomic and fsynced, 0600 whatever the umask, through a symbolic link, the owner kept
      // (as write-file-atomic did); the lock above serializes writers across processes.
      writeDurableSync(path, `${JSON.stringify({ ...data, profiles }, null, 2)}\n`, {
        mode: 0o600,
        keep: true,
        syncData: true,
      });
    } catch (err) {
      throw cannotWrite(path, err, "the config file");
    }
  } finally {
    await release().catch(() => {});
  }
  return path;
}

/**
 * A config folder or file that cannot be written is the environment's doing, not a bug: exit 2,
 * naming the path and why (a file in the way, no permission, a read-only or full disk).
 */
function cannotWrite(path: string, err: unknown, what: string): UsageError {
  const e = err as NodeJS.ErrnoException;
  const where = typeof e.path === "string" && e.path !== path ? ` (at ${e.path})` : "";
  const why: Record<string, string> = {
    EEXIST: "a file is in the way where a folder should be",
    ENOTDIR: "a file is in the way where a folder should be",
    EISDIR: "a folder is in the way where the file should be",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EROFS: "the file system is read-only",
    ENOSPC: "no space left on the device",
    EDQUOT: "the disk quota is used up",
  };
  const reason = (e.code && why[e.code] ? `${why[e.code]} (${e.code})` : e.message) || String(err);
  return new UsageError(
    `cannot write ${what} ${escapeControl(path)}${escapeControl(where)}: ${reason}; nothing was changed (set EDGECTL_CONFIG_DIR to use another folder)`,
  );
}

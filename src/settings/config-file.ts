// The config file: {"profiles": {"<name>": {"api_key": …, "base_url": …, …}}}.
// Reading happens on every command, so it is a plain JSON read; writing goes through
// `conf` (atomic writes, file mode), which is loaded only by the commands that write.
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../errors.js";

export type Env = Record<string, string | undefined>;

export const CONFIG_KEYS = ["api_key", "base_url", "output", "timeout", "retries"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;
export interface ConfigData {
  profiles?: Record<string, Profile>;
}

/** The folder `conf` would pick for projectName "edgectl" (env-paths), or EDGECTL_CONFIG_DIR. */
export function configDir(env: Env): string {
  if (env.EDGECTL_CONFIG_DIR) return env.EDGECTL_CONFIG_DIR;
  const home = env.HOME ?? homedir();
  if (process.platform === "darwin") return join(home, "Library", "Preferences", "edgectl");
  if (process.platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "edgectl", "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "edgectl");
}

export function configPath(env: Env): string {
  return join(configDir(env), "config.json");
}

/**
 * Reads the config file; a missing file is an empty config. A file or folder readable by
 * others is tightened (0600 / 0700) with a warning, since it may hold the API key.
 */
export function readConfig(env: Env, warn: (message: string) => void): ConfigData {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new UsageError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  if (process.platform !== "win32") tighten(path, configDir(env), warn);
  try {
    const data = JSON.parse(text) as unknown;
    if (data && typeof data === "object" && !Array.isArray(data)) return data as ConfigData;
  } catch {
    // fall through
  }
  throw new UsageError(`config file ${path} is not valid JSON; fix or remove it`);
}

function tighten(file: string, dir: string, warn: (message: string) => void): void {
  for (const [path, mode] of [[dir, 0o700], [file, 0o600]] as const) {
    try {
      const current = statSync(path).mode & 0o777;
      if (current & 0o077) {
        chmodSync(path, mode);
        warn(`${path} was readable by others (mode ${current.toString(8)}); changed to ${mode.toString(8)}`);
      }
    } catch {
      // not ours to fix (e.g. owned by another user); reading still works
    }
  }
}

export function profileOf(config: ConfigData, profile: string): Profile {
  return config.profiles?.[profile] ?? {};
}

/** Sets (or with `undefined`, removes) one key of one profile. */
export async function writeProfileKey(env: Env, profile: string, key: ConfigKey, value: string | undefined): Promise<string> {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== "win32") chmodSync(dir, 0o700);
  const { Conf } = await import("./conf-store.js");
  const store = new Conf<ConfigData>({
    cwd: dir,
    configName: "config",
    projectName: "edgectl",
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  const profiles = { ...(store.get("profiles") ?? {}) };
  const current = { ...(profiles[profile] ?? {}) };
  if (value === undefined) delete current[key];
  else current[key] = value;
  if (Object.keys(current).length === 0) delete profiles[profile];
  else profiles[profile] = current;
  store.set("profiles", profiles);
  if (process.platform !== "win32") chmodSync(store.path, 0o600);
  return store.path;
}

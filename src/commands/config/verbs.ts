import * as z from "zod/mini";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import {
  configPath,
  profileOf,
  readConfig,
  requireProfile,
  writeProfileKey,
  type ConfigKey,
} from "../../settings/config-file.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { checkValue, keySchema, shownValue } from "./keys.js";

// The five config verbs (src/commands/registry.ts) are one-liners over the config file, so
// they share this file.

const keyArg = { arg: "<key>", help: "api_key, base_url, output, timeout or retries", schema: keySchema };

export const getVerb = defineCommand({
  name: "get",
  description: "Print the value of a key in the active profile (api_key is masked)",
  args: { key: keyArg },
  examples: ["$ edgectl config get base_url", "$ edgectl config get output --profile ci"],
  run: ({ key }, deps) => get(key, deps),
});

export const setVerb = defineCommand({
  name: "set",
  description: "Set a key in the active profile",
  args: { key: keyArg, value: { arg: "<value>", help: "the value", schema: () => z.string() } },
  examples: ["$ edgectl config set base_url http://127.0.0.1:8040", "$ edgectl config set timeout 10 --profile ci"],
  // Checked as a flag or an environment value would be, named `<value> for <key>`.
  run: ({ key, value }, deps) => set(key, checkValue(key, value), deps),
});

export const unsetVerb = defineCommand({
  name: "unset",
  description: "Remove a key from the active profile",
  args: { key: keyArg },
  examples: ["$ edgectl config unset base_url", "$ edgectl config unset retries --profile ci"],
  run: ({ key }, deps) => unset(key, deps),
});

export const listVerb = defineCommand({
  name: "list",
  description: "List the keys set in the active profile",
  examples: ["$ edgectl config list", "$ edgectl config list -o json | jq -r .base_url"],
  run: (_options, deps) => list(deps),
});

export const pathVerb = defineCommand({
  name: "path",
  description: "Print the path of the config file",
  examples: ["$ edgectl config path", `$ cat "$(edgectl config path)" | jq .profiles`],
  run: async (_options, deps) => void deps.io.stdout.write(`${configPath(deps.env)}\n`),
});

/**
 * The active profile's stored values (each refused value names its key and the file); a
 * profile named explicitly that the file does not hold is exit 2 (requireProfile).
 */
function stored(deps: Deps) {
  const config = readConfig(deps.env, deps.warn);
  requireProfile(config, deps.profile, deps.profileNamedBy, configPath(deps.env));
  return profileOf(config, deps.profile, configPath(deps.env));
}

export async function get(key: ConfigKey, deps: Deps): Promise<void> {
  const value = stored(deps)[key];
  if (value === undefined) {
    deps.io.stderr.write(`${key} is not set in profile "${deps.profile}"\n`);
    return;
  }
  deps.io.stdout.write(`${shownValue(key, value)}\n`);
}

/** Creates the profile when the config file does not hold it (as `gh config set -h <host>` does), and says so. */
export async function set(key: ConfigKey, value: string, deps: Deps): Promise<void> {
  if (key === "api_key")
    deps.warn("a key typed on the command line stays in shell history; `edgectl auth login` reads it from stdin");
  const held = Object.hasOwn(readConfig(deps.env, () => {}).profiles ?? {}, deps.profile);
  const path = await writeProfileKey(deps.env, deps.profile, key, value, deps.warn);
  if (!held && deps.profileNamedBy !== undefined && deps.profile !== "default")
    deps.io.stderr.write(`created profile "${deps.profile}" in ${path}\n`);
}

export async function unset(key: ConfigKey, deps: Deps): Promise<void> {
  // Nothing to remove from a profile named explicitly that the file does not hold: exit 2.
  stored(deps);
  await writeProfileKey(deps.env, deps.profile, key, undefined, deps.warn);
}

export async function list(deps: Deps): Promise<void> {
  const profile = stored(deps);
  const entries = Object.entries(profile).map(([k, v]) => [k, shownValue(k as ConfigKey, v)] as [string, string]);
  printResult(deps, Object.fromEntries(entries), (color) => renderRows(["KEY", "VALUE"], entries, color));
}

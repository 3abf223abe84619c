import type { Command } from "commander";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { configPath, profileOf, readConfig, writeProfileKey, type ConfigKey } from "../../settings/config-file.js";
import type { AppContext, Deps } from "../deps.js";
import { checkValue, parseKey, shownValue } from "./keys.js";

// The five config verbs are one-liners over the config file, so they share this file.

export function registerConfig(program: Command, app: AppContext): void {
  const noun = program
    .command("config")
    .description("Read and change settings of the active profile (api_key, base_url, output, timeout, retries)")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl config set base_url http://127.0.0.1:4040
  $ edgectl config set output json --profile ci
  $ edgectl config list
  $ cat "$(edgectl config path)"`,
    );
  noun
    .command("get")
    .description("Print the value of a key in the active profile (api_key is masked)")
    .argument("<key>", "api_key, base_url, output, timeout or retries")
    .addHelpText("after", "\nExamples:\n  $ edgectl config get base_url\n  $ edgectl config get output --profile ci")
    .action(async (key: string, _o: unknown, cmd: Command) => get(parseKey(key), await app.deps(cmd)));
  noun
    .command("set")
    .description("Set a key in the active profile")
    .argument("<key>", "api_key, base_url, output, timeout or retries")
    .argument("<value>", "the value")
    .addHelpText("after", "\nExamples:\n  $ edgectl config set base_url http://127.0.0.1:8040\n  $ edgectl config set timeout 10 --profile ci")
    .action(async (key: string, value: string, _o: unknown, cmd: Command) => {
      const k = parseKey(key);
      await set(k, checkValue(k, value), await app.deps(cmd));
    });
  noun
    .command("unset")
    .description("Remove a key from the active profile")
    .argument("<key>", "api_key, base_url, output, timeout or retries")
    .addHelpText("after", "\nExamples:\n  $ edgectl config unset base_url\n  $ edgectl config unset retries --profile ci")
    .action(async (key: string, _o: unknown, cmd: Command) => unset(parseKey(key), await app.deps(cmd)));
  noun
    .command("list")
    .description("List the keys set in the active profile")
    .addHelpText("after", "\nExamples:\n  $ edgectl config list\n  $ edgectl config list -o json | jq -r .base_url")
    .action(async (_o: unknown, cmd: Command) => list(await app.deps(cmd)));
  noun
    .command("path")
    .description("Print the path of the config file")
    .addHelpText("after", `\nExamples:\n  $ edgectl config path\n  $ cat "$(edgectl config path)" | jq .profiles`)
    .action(async (_o: unknown, cmd: Command) => {
      const deps = await app.deps(cmd);
      deps.io.stdout.write(`${configPath(deps.env)}\n`);
    });
}

/** The active profile's stored values (each refused value names its key and the file). */
function stored(deps: Deps) {
  return profileOf(readConfig(deps.env, deps.warn), deps.profile, configPath(deps.env));
}

export async function get(key: ConfigKey, deps: Deps): Promise<void> {
  const value = stored(deps)[key];
  if (value === undefined) {
    deps.io.stderr.write(`${key} is not set in profile "${deps.profile}"\n`);
    return;
  }
  deps.io.stdout.write(`${shownValue(key, value)}\n`);
}

export async function set(key: ConfigKey, value: string, deps: Deps): Promise<void> {
  if (key === "api_key") deps.warn("a key typed on the command line stays in shell history; `edgectl auth login` reads it from stdin");
  await writeProfileKey(deps.env, deps.profile, key, value, deps.warn);
}

export async function unset(key: ConfigKey, deps: Deps): Promise<void> {
  await writeProfileKey(deps.env, deps.profile, key, undefined, deps.warn);
}

export async function list(deps: Deps): Promise<void> {
  const profile = stored(deps);
  const entries = Object.entries(profile).map(([k, v]) => [k, shownValue(k as ConfigKey, v ?? "")] as [string, string]);
  printResult(deps, Object.fromEntries(entries), (color) => renderRows(["KEY", "VALUE"], entries, color));
}

import { configPath, readConfig, requireProfile, writeProfileKey } from "../../settings/config-file.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";

export const logout = defineCommand({
  name: "logout",
  description: "Remove the stored API key from the active profile",
  examples: ["$ edgectl auth logout", "$ edgectl auth logout --profile staging"],
  run: (_options, deps) => run(deps),
});

export async function run(deps: Deps): Promise<void> {
  const profile = deps.profile;
  const config = readConfig(deps.env, deps.warn);
  // A profile named explicitly that the config file does not hold is exit 2, listing those it does.
  requireProfile(config, profile, deps.profileNamedBy, configPath(deps.env));
  if (config.profiles?.[profile]?.api_key === undefined) {
    deps.io.stderr.write(`No key stored in profile "${profile}"\n`);
    return;
  }
  await writeProfileKey(deps.env, profile, "api_key", undefined, deps.warn);
  deps.io.stderr.write(`Logged out: key removed from profile "${profile}"\n`);
  if (deps.env.EDGECTL_API_KEY || deps.env.NGROK_API_KEY) {
    deps.warn("an API key is still set in the environment (EDGECTL_API_KEY or NGROK_API_KEY)");
  }
}

import type { Command } from "commander";
import { readConfig, writeProfileKey } from "../../settings/config-file.js";
import type { AppContext, Deps } from "../deps.js";

export function register(parent: Command, app: AppContext): void {
  parent
    .command("logout")
    .description("Remove the stored API key from the active profile")
    .addHelpText("after", `\nExamples:\n  $ edgectl auth logout\n  $ edgectl auth logout --profile staging`)
    .action(async (_opts: unknown, cmd: Command) => run(await app.deps(cmd)));
}

export async function run(deps: Deps): Promise<void> {
  const profile = deps.profile;
  if (readConfig(deps.env, deps.warn).profiles?.[profile]?.api_key === undefined) {
    deps.io.stderr.write(`No key stored in profile "${profile}"\n`);
    return;
  }
  await writeProfileKey(deps.env, profile, "api_key", undefined, deps.warn);
  deps.io.stderr.write(`Logged out: key removed from profile "${profile}"\n`);
  if (deps.env.EDGECTL_API_KEY || deps.env.NGROK_API_KEY) {
    deps.warn("an API key is still set in the environment (EDGECTL_API_KEY or NGROK_API_KEY)");
  }
}

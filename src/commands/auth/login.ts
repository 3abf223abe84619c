import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import { configPath, writeProfileKey } from "../../settings/config-file.js";
import type { AppContext, Deps } from "../deps.js";

export interface LoginOptions {
  withToken: boolean;
}

export function register(parent: Command, app: AppContext): void {
  parent
    .command("login")
    .description("Store an API key in the active profile (read from stdin, or asked for on a terminal)")
    .option("--with-token", "read the key from stdin (the default when stdin is not a terminal)")
    .addHelpText(
      "after",
      `
Examples:
  # asks for the key, without echo
  $ edgectl auth login
  $ printenv NGROK_API_KEY | edgectl auth login --with-token
  $ edgectl auth login --profile staging < key.txt`,
    )
    .action(async (opts: { withToken?: boolean }, cmd: Command) => {
      await run({ withToken: Boolean(opts.withToken) }, await app.deps(cmd));
    });
}

export async function run(options: LoginOptions, deps: Deps): Promise<void> {
  let key: string;
  if (options.withToken || !deps.io.stdin.isTTY) {
    if (deps.io.stdin.isTTY) throw new UsageError("--with-token: stdin is a terminal; pipe the key in");
    key = (await deps.readStdin()).trim();
  } else {
    key = (await deps.promptHidden("Paste your API key: ")).trim();
  }
  if (!key) throw new UsageError("no API key given");
  if (/\s/.test(key)) throw new UsageError("the API key must not contain spaces or line breaks");
  await writeProfileKey(deps.env, deps.settings.profile, "api_key", key);
  deps.io.stderr.write(`Logged in: key stored in profile "${deps.settings.profile}" (${configPath(deps.env)})\n`);
}

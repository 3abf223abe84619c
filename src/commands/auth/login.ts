import { UsageError } from "../../errors.js";
import { configPath, writeProfileKey } from "../../settings/config-file.js";
import { parseApiKey } from "../../settings/resolve.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { switchValue } from "../input.js";

const flags = {
  withToken: {
    flag: "--with-token",
    help: "read the key from stdin (the default when stdin is not a terminal)",
    ...switchValue(),
  },
};
export type LoginOptions = OptionsOf<object, typeof flags>;

export const login = defineCommand({
  name: "login",
  description: "Store an API key in the active profile (read from stdin, or asked for on a terminal)",
  flags,
  examples: [
    "# asks for the key, without echo",
    "$ edgectl auth login",
    "$ printenv NGROK_API_KEY | edgectl auth login --with-token",
    "$ edgectl auth login --profile staging < key.txt",
  ],
  run,
});

export async function run(options: LoginOptions, deps: Deps): Promise<void> {
  let raw: string;
  let source: string;
  if (options.withToken || !deps.io.stdin.isTTY) {
    if (deps.io.stdin.isTTY) throw new UsageError("--with-token: stdin is a terminal; pipe the key in");
    raw = await deps.readStdin();
    source = "stdin";
  } else {
    raw = await deps.promptHidden("Paste your API key: ");
    source = "the key typed";
  }
  if (!raw.trim()) throw new UsageError("no API key given");
  const key = parseApiKey(raw, source);
  await writeProfileKey(deps.env, deps.profile, "api_key", key, deps.warn);
  deps.io.stderr.write(`Logged in: key stored in profile "${deps.profile}" (${configPath(deps.env)})\n`);
}

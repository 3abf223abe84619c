import { listEndpoints } from "../../api/endpoints.js";
import { ApiError, AuthError, NetworkError, UsageError } from "../../errors.js";
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
  // commander reads `--no-verify` as `verify`, true unless the flag is given.
  verify: {
    flag: "--no-verify",
    help: "store the key without checking it with the API (one GET /endpoints?limit=1)",
    ...switchValue(),
  },
};
export type LoginOptions = OptionsOf<object, typeof flags>;

export const login = defineCommand({
  name: "login",
  description:
    "Store an API key in the active profile (read from stdin, or asked for on a terminal), once one read shows the API takes it",
  flags,
  examples: [
    "# asks for the key, without echo",
    "$ edgectl auth login",
    "$ printenv NGROK_API_KEY | edgectl auth login --with-token",
    "$ edgectl auth login --profile staging < key.txt",
    "# offline: store it without asking the API",
    "$ edgectl auth login --no-verify < key.txt",
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
  if (options.verify) await check(key, deps);
  await writeProfileKey(deps.env, deps.profile, "api_key", key, deps.warn);
  deps.io.stderr.write(`Logged in: key stored in profile "${deps.profile}" (${configPath(deps.env)})\n`);
}

/**
 * One read (`GET /endpoints?limit=1`) with the key, against the profile's base URL: a refused
 * key is exit 4, no answer exit 3, any other error as it is; nothing is stored in any of them.
 */
async function check(key: string, deps: Deps): Promise<void> {
  const client = deps.client({ apiKey: key });
  const anyway = "nothing stored (to store it without the check: `edgectl auth login --no-verify`)";
  try {
    await listEndpoints(client, { limit: 1, all: false });
  } catch (err) {
    if (err instanceof AuthError) throw new AuthError(`the API refused this key: ${err.message}; nothing stored`, err);
    if (err instanceof ApiError) throw new ApiError(`could not check the key: ${err.message}; ${anyway}`, err);
    if (err instanceof NetworkError)
      throw new NetworkError(`could not check the key: ${err.message}; ${anyway}`, {
        statusCode: err.statusCode,
        cause: err,
      });
    throw err;
  } finally {
    client.close();
  }
  deps.io.stderr.write(`key works for ${client.baseUrl}\n`);
}

// The safety tests' server, sandbox and helpers (the CLI in-process in app/safety.test.ts).
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { runCli, useServerAndSandbox, type Sandbox } from "./support.js";

export function useSafetySuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_safety_SUPERSECRET_987654";
  const SECRET = "whsec_DO_NOT_PRINT_4242";

  const shared = useServerAndSandbox(makeSandbox);
  const env = (extra: Record<string, string> = {}) => ({
    EDGECTL_API_KEY: KEY,
    EDGECTL_BASE_URL: shared.server.url,
    ...extra,
  });
  const run = (args: string[], opts: RunOptions = {}) =>
    runCli(shared.cli, args, { ...opts, env: { ...env(), ...opts.env } });

  return {
    get server() {
      return shared.server;
    },
    KEY,
    SECRET,
    env,
    run,
  };
}

// What both halves of the safety tests share (the CLI spawned in e2e/safety.test.ts, in-process in
// app/safety.test.ts).
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { runCli, type Sandbox } from "./support.js";

export function useSafetySuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_safety_SUPERSECRET_987654";
  const SECRET = "whsec_DO_NOT_PRINT_4242";

  let server: FaultServer;
  let cli: Sandbox;
  let defaultFallback: FaultServer["fallback"];
  const env = (extra: Record<string, string> = {}) => ({ EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: server.url, ...extra });
  const run = (args: string[], opts: RunOptions = {}) => runCli(cli, args, { ...opts, env: { ...env(), ...opts.env } });

  beforeAll(async () => {
    server = await startFaultServer();
    defaultFallback = server.fallback;
    cli = makeSandbox();
  });
  afterAll(async () => {
    await server.close();
    cli.cleanup();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterEach(() => {
    server.fallback = defaultFallback;
  });
  return {
    get server() {
      return server;
    },
    KEY, SECRET, env, run,
  };
}

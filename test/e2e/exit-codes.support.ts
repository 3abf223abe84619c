// What both halves of the exit-codes tests share (the CLI spawned in e2e/exit-codes.test.ts, in-process in
// app/exit-codes.test.ts).
import net from "node:net";
import { beforeAll } from "vitest";
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { runCli, useServerAndSandbox, type Sandbox } from "./support.js";

export function useExitCodesSuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_exit_codes_1234567890";

  const shared = useServerAndSandbox(makeSandbox);
  let closedPort: number;
  const run = (args: string[], opts?: RunOptions) => runCli(shared.cli, args, opts);
  const env = (extra: Record<string, string> = {}) => ({
    EDGECTL_API_KEY: KEY,
    EDGECTL_BASE_URL: shared.server.url,
    ...extra,
  });

  /** A loopback port that was open a moment ago and is now closed: connecting is refused. */
  async function freshClosedPort(): Promise<number> {
    const s = net.createServer();
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    return port;
  }

  beforeAll(async () => {
    closedPort = await freshClosedPort();
  });
  return {
    get closedPort() {
      return closedPort;
    },
    get server() {
      return shared.server;
    },
    get cli() {
      return shared.cli;
    },
    KEY,
    run,
    env,
  };
}

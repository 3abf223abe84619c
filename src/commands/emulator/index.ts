// `edgectl emulator`: serves the API locally for tests, demos and CI. The server module is
// imported only when this command runs, so no other command pays for loading it.
import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { AppContext } from "../deps.js";

export const DEFAULT_PORT = 8040;

export interface EmulatorCommandOptions {
  host: string;
  port: number;
  stateFile?: string;
  rateLimit?: { requests: number; windowSeconds: number };
  edges?: "read-only" | "retired";
}

export function registerEmulator(program: Command, app: AppContext): void {
  program
    .command("emulator")
    .description("Serve a local stand-in for the API (edges, routes, backends, Cloud Endpoints)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <n>", `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})`)
    .option("--state <file>", "keep state in this file across restarts (default: in memory)")
    .option("--rate-limit <n>/<seconds>", "answer 429 past <n> requests in any <seconds>-long window")
    .option("--edges <retired|read-only>", "answer as an account after the Edges sunset: no access (ERR_NGROK_7008) or reads only (ERR_NGROK_7196)")
    .addHelpText(
      "after",
      `
The first line on stdout, once it accepts connections, is its base URL. Without the global
--api-key it accepts any Bearer key; with it, only that key. An edge and its routes exist
once created through the API (POST /edges/https, then POST /edges/https/<edge-id>/routes).
With --edges, everything under /edges and /backends answers as for an account after the
Edges sunset; /endpoints works as always. Stop it with Ctrl-C (or SIGTERM).

Examples:
  $ edgectl emulator --port 0
  $ edgectl emulator --port 8040 --state ./emulator-state.json --api-key test-key
  $ edgectl emulator --port 0 --edges read-only
  # in CI: start it, point edgectl at it, stop it
  $ edgectl emulator --port 0 > emu.url &
  $ until [ -s emu.url ]; do sleep 0.1; done
  $ EDGECTL_BASE_URL=$(head -n1 emu.url) EDGECTL_API_KEY=any edgectl failover list
  $ kill %1`,
    )
    .action(async (opts: Record<string, unknown>, cmd: Command) => {
      const options = parseEmulatorOptions(opts);
      // The emulator's key comes only from the flag: an EDGECTL_API_KEY meant for the real
      // API must not silently lock the emulator.
      const apiKey = (cmd.optsWithGlobals() as { apiKey?: string }).apiKey;
      const deps = await app.deps(cmd);
      const { startEmulator } = await import("../../emulator/server.js");
      const emu = await startEmulator({ ...options, apiKey });
      const stopped = new Promise<void>((resolve) => {
        deps.onInterrupt(async () => {
          await emu.close();
          resolve();
        });
      });
      deps.io.stdout.write(`${emu.url}\n`);
      const where = `${options.stateFile ? `state in ${options.stateFile}` : "state in memory"}${options.edges ? `, edges ${options.edges}` : ""}`;
      deps.io.stderr.write(`emulator: listening on ${emu.url} (${where}${apiKey === undefined ? ", any API key" : ""}); Ctrl-C to stop\n`);
      if (!isLoopback(options.host)) deps.warn(`listening on ${options.host}: plain http, reachable beyond this machine`);
      await stopped;
    });
}

export function parseEmulatorOptions(opts: Record<string, unknown>): EmulatorCommandOptions {
  const host = typeof opts.host === "string" ? opts.host.trim() : "127.0.0.1";
  if (host === "") throw new UsageError("--host: must not be empty");
  let port = DEFAULT_PORT;
  if (opts.port !== undefined) {
    const text = String(opts.port).trim();
    if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--port: "${String(opts.port)}" must be a whole number from 0 to 65535`);
    port = Number(text);
  }
  const result: EmulatorCommandOptions = { host, port };
  if (opts.state !== undefined) {
    const file = String(opts.state);
    if (file.trim() === "") throw new UsageError("--state: must name a file");
    result.stateFile = file;
  }
  if (opts.rateLimit !== undefined) {
    const text = String(opts.rateLimit).trim();
    const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text);
    const requests = match ? Number(match[1]) : NaN;
    const windowSeconds = match ? Number(match[2]) : NaN;
    if (!match || requests < 1 || requests > 1_000_000 || !(windowSeconds > 0)) {
      throw new UsageError(`--rate-limit: "${text}" must be <n>/<seconds>, e.g. 100/60 (n from 1 to 1000000, seconds above 0)`);
    }
    result.rateLimit = { requests, windowSeconds };
  }
  if (opts.edges !== undefined) {
    const mode = String(opts.edges).trim().toLowerCase();
    if (mode !== "retired" && mode !== "read-only") throw new UsageError(`--edges: "${String(opts.edges)}" must be retired or read-only`);
    result.edges = mode;
  }
  return result;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

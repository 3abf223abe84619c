// Emulator helpers for tests: `spawnEmulator` runs the REAL CLI (`node bin/edgectl.js
// emulator`) as end-to-end tests need it; `call` makes one raw API request with the
// headers every request needs unless told otherwise.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import { createInterface } from "node:readline";
import { execa, type ResultPromise } from "execa";
import { BIN, baseEnv } from "./cli.js";
import { reloadState } from "./emulator-states.js";

export interface SpawnedEmulator {
  url: string;
  /** Every stdout line so far (the first is the URL). */
  stdoutLines: string[];
  /** The child process (its stderr is buffered: `(await process).stderr`). */
  process: ResultPromise;
  /** SIGTERM (or the given signal), then waits for the exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | undefined>;
}

/** Starts `edgectl emulator --port 0 …args` and resolves once it prints its URL. */
export async function spawnEmulator(
  args: string[] = [],
  opts: { timeoutMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<SpawnedEmulator> {
  const configDir = mkdtempSync(join(tmpdir(), "edgectl-emu-"));
  const child = execa("node", [BIN, "emulator", "--port", "0", ...args], {
    env: { ...baseEnv(configDir), ...opts.env },
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    buffer: { stdout: false, stderr: true },
  });
  const cleanup = () => rmSync(configDir, { recursive: true, force: true });
  let exited = false;
  void child.then(() => {
    exited = true;
    cleanup();
  });

  const stdoutLines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error("the emulator printed no URL in time")), opts.timeoutMs ?? 15_000);
    const lines = createInterface({ input: child.stdout! });
    const fail = (err: Error) => {
      if (stdoutLines.length > 0) return; // already running: a later exit is not a start-up failure
      clearTimeout(timer);
      lines.close();
      child.kill("SIGKILL");
      reject(err);
    };
    // Every line is kept, which also drains stdout so the child never blocks on a full pipe.
    lines.on("line", (line) => {
      stdoutLines.push(line);
      if (stdoutLines.length === 1) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void child.then((r) =>
      fail(new Error(`the emulator exited (code ${r.exitCode}) before printing its URL: ${String(r.stderr)}`)),
    );
  });

  return {
    url,
    stdoutLines,
    process: child,
    async stop(signal = "SIGTERM") {
      if (!exited) child.kill(signal);
      const result = await child;
      // Whatever it wrote, the emulator can start from again (issue 25, item 15).
      const state = args.indexOf("--state");
      if (state >= 0 && args[state + 1] !== undefined) await reloadState(args[state + 1]!);
      return result.exitCode;
    },
  };
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  rawBody?: string;
  /** Replace (or, with undefined, drop) the default headers. */
  headers?: Record<string, string | undefined>;
  /** Gives up after this long (default 10 s), so a lost answer fails the test, not hangs it. */
  timeoutMs?: number;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the emulator answered, read by each test
  json: any;
}

export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const wanted: Record<string, string | undefined> = {
    Authorization: "Bearer test-key",
    "Ngrok-Version": "2",
    ...(opts.body !== undefined || opts.rawBody !== undefined ? { "Content-Type": "application/json" } : {}),
    ...opts.headers,
  };
  for (const [k, v] of Object.entries(wanted)) if (v !== undefined) headers[k] = v;
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const res = await fetch(path.startsWith("http") ? path : `${base}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A raw request with node:http, for what fetch will not do (huge declared bodies). */
export function rawRequest(
  url: string,
  opts: {
    method: string;
    path: string;
    headers?: Record<string, string | number>;
    body?: Buffer | string;
    chunked?: boolean;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${opts.path}`,
      { method: opts.method, headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    // The server may close while the body is still going out; the answer is what counts.
    req.on("error", (err) => setTimeout(() => reject(err), 500));
    if (opts.body !== undefined) {
      if (opts.chunked) {
        const body = Buffer.from(opts.body);
        for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
        req.end();
      } else req.end(opts.body);
    } else req.end();
  });
}

export interface MadeRoute {
  edgeId: string;
  routeId: string;
  /** /edges/https/{edge}/routes/{route} */
  path: string;
  /** The route's webhook verification module: `${path}/webhook_verification`. */
  webhook: string;
}

/**
 * Creates an HTTPS edge and one route on it through the API (the emulator, like the real
 * API, answers 404 for modules of a route that does not exist).
 */
export async function makeRoute(
  base: string,
  opts: { edge?: Record<string, unknown>; route?: Record<string, unknown> } = {},
): Promise<MadeRoute> {
  const edge = await call(base, "POST", "/edges/https", { body: { description: "test edge", ...opts.edge } });
  if (edge.status !== 201) throw new Error(`POST /edges/https answered ${edge.status}: ${edge.text}`);
  const edgeId = edge.json.id as string;
  const route = await call(base, "POST", `/edges/https/${edgeId}/routes`, {
    body: { match_type: "path_prefix", match: "/", ...opts.route },
  });
  if (route.status !== 201)
    throw new Error(`POST /edges/https/${edgeId}/routes answered ${route.status}: ${route.text}`);
  const routeId = route.json.id as string;
  const path = `/edges/https/${edgeId}/routes/${routeId}`;
  return { edgeId, routeId, path, webhook: `${path}/webhook_verification` };
}

/**
 * The emulator in this process (src/emulator/server.ts's startEmulator) for tests of what the
 * CLI says to it, not of the emulator as a process: `args` are `edgectl emulator`'s words
 * (`--state`, `--edges`, `--rate-limit`, the root's `--api-key`), read by its own declaration.
 */
export async function startInProcessEmulator(args: string[] = []): Promise<{ url: string; stop(): Promise<void> }> {
  const { parse } = await import("../commands/parse.js");
  const { emulator } = await import("../../src/commands/emulator/emulator.js");
  const { startEmulator } = await import("../../src/emulator/server.js");
  const keyAt = args.indexOf("--api-key");
  const apiKey = keyAt === -1 ? undefined : args[keyAt + 1];
  const words = keyAt === -1 ? args : [...args.slice(0, keyAt), ...args.slice(keyAt + 2)];
  const { options } = await parse(emulator, ["--port", "0", ...words]);
  const emu = await startEmulator({ ...options, apiKey });
  return { url: emu.url, stop: () => emu.close() };
}

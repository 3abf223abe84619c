// Small shared pieces of the end-to-end suites (not a test file itself).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { sandbox, type RunOptions } from "../helpers/cli.js";
import { apiError, startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";

export const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * A temp folder for the files a suite hands the CLI (removed after the suite), and
 * `file(name, text)`, which writes one there and gives its path.
 */
export function useScratch(prefix: string): { dir: string; file(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    file(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

/**
 * A temp folder for each test of the suite (a config folder, say): made empty before the test and
 * removed after it, at one path the suite can name where it is declared.
 */
export function useFreshFolder(prefix: string): string {
  const dir = join(tmpdir(), `${prefix}${randomBytes(6).toString("hex")}`);
  beforeEach(() => {
    mkdirSync(dir, { mode: 0o700 });
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A Failover backend the fault server answers with. */
export const FB = {
  id: "bkdfo_abc",
  uri: "x",
  created_at: "2026-01-01T00:00:00Z",
  description: "d",
  metadata: "",
  backends: ["bkdhr_a"],
};

/** A Failover backend as the API returns it. */
export interface Failover {
  id: string;
  uri: string;
  created_at: string;
  description: string;
  metadata: string;
  backends: string[];
}

/** Failover backend `id` as the API at `base` returns it (its uri there, a long description). */
export const failoverAt = (base: string, id: string): Failover => ({
  id,
  uri: `${base}/backends/failover/${id}`,
  created_at: "2026-01-01T00:00:00Z",
  description: "d".repeat(100),
  metadata: "",
  backends: ["bkdhr_a"],
});

export interface TextResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** What runs the CLI: a spawned bin (helpers/cli.ts) or the app in-process (helpers/app.ts). */
export interface Runner {
  run(args: string[], opts?: RunOptions): Promise<{ exitCode?: number; stdout?: unknown; stderr?: unknown }>;
}

/** Runs the CLI in the sandbox and returns its streams as plain strings. */
export async function runCli(cli: Runner, args: string[], opts?: RunOptions): Promise<TextResult> {
  const r = await cli.run(args, opts);
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") };
}

/** stderr with `-o json`: exactly one JSON object on one line. */
export function parseJsonError(stderr: string): { error: Record<string, unknown> } {
  const lines = stderr.split("\n").filter((l) => l !== "");
  if (lines.length !== 1) throw new Error(`expected one line of JSON on stderr, got:\n${stderr}`);
  return JSON.parse(lines[0]!) as { error: Record<string, unknown> };
}

/** A runner with its own config folder: `sandbox` (spawned) or `appSandbox` (in-process). */
export interface Sandbox extends Runner {
  configDir: string;
  cleanup(): void;
}

export interface FaultSuite {
  readonly server: FaultServer;
  readonly cli: Sandbox;
  /** Runs the CLI pointed at the server with the suite's key (opts.env may override either). */
  run(args: string[], opts?: RunOptions): Promise<TextResult>;
}

/**
 * One fault server and one CLI sandbox for a test file: started before, closed after; before
 * each test the recorded requests are cleared and unscripted requests answer 404.
 */
export function useFaultServer(key: string, makeSandbox: () => Sandbox = sandbox): FaultSuite {
  const shared = useServerAndSandbox(makeSandbox);
  beforeEach(() => {
    shared.server.fallback = () => apiError(404, "Resource not found");
  });
  return {
    get server() {
      return shared.server;
    },
    get cli() {
      return shared.cli;
    },
    run: (args, opts = {}) =>
      runCli(shared.cli, args, {
        ...opts,
        env: { EDGECTL_API_KEY: key, EDGECTL_BASE_URL: shared.server.url, ...opts.env },
      }),
  };
}

export interface FreshSandboxSuite {
  readonly server: FaultServer;
  /** A new CLI sandbox (its own config folder) for each test. */
  readonly cli: Sandbox;
  /** Runs the CLI pointed at the server (no key unless opts.env gives one). */
  run(args: string[], opts?: RunOptions): Promise<TextResult>;
}

/** One fault server for a test file answering `fallback`, and a fresh CLI sandbox per test. */
export function useFreshSandboxes(fallback: () => Reply, makeSandbox: () => Sandbox = sandbox): FreshSandboxSuite {
  let server: FaultServer | undefined;
  let cli: Sandbox | undefined;
  beforeAll(async () => {
    server = await startFaultServer();
    server.fallback = fallback;
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    cli = makeSandbox();
    server!.requests.length = 0;
  });
  afterEach(() => {
    cli?.cleanup();
  });
  return {
    get server() {
      return server!;
    },
    get cli() {
      return cli!;
    },
    run: (args, opts = {}) => runCli(cli!, args, { ...opts, env: { EDGECTL_BASE_URL: server!.url, ...opts.env } }),
  };
}

/**
 * One fault server and one sandbox for a test file, started before and closed after; before
 * each test the recorded requests are cleared, after it the server's own fallback is back.
 */
export function useServerAndSandbox(makeSandbox: () => Sandbox = sandbox): {
  readonly server: FaultServer;
  readonly cli: Sandbox;
} {
  let server: FaultServer | undefined;
  let cli: Sandbox | undefined;
  let defaultFallback: FaultServer["fallback"];
  beforeAll(async () => {
    server = await startFaultServer();
    defaultFallback = server.fallback;
    cli = makeSandbox();
  });
  afterAll(async () => {
    await server?.close();
    cli?.cleanup();
  });
  beforeEach(() => {
    server!.requests.length = 0;
  });
  afterEach(() => {
    server!.fallback = defaultFallback;
  });
  return {
    get server() {
      return server!;
    },
    get cli() {
      return cli!;
    },
  };
}

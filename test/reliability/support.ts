// Shared pieces of the reliability suite: a sandboxed CLI per file, a fault server per
// test, the assertions every failure must meet, and a small limiter so a table of cases
// never runs more CLI processes at once than the two shared cores can carry.
import { expect } from "vitest";
import type { ResultPromise } from "execa";
import { sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { startFaultServer, type FaultServer } from "../helpers/fault-server.js";

export const KEY = "key_reliability_Zq81xw7Pm2";

export { FB } from "../helpers/answers.js";

export const MODULE = { enabled: true, provider: "github", secret: null };

/** The environment that points the CLI at `server` with a key. */
export function envFor(
  server: FaultServer,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: server.url, ...extra };
}

/** Starts a fault server and closes it when `fn` is done, passed or failed. */
export async function withServer<T>(fn: (server: FaultServer) => Promise<T>): Promise<T> {
  const server = await startFaultServer();
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** A Node stack frame, as it would appear in an uncaught error. */
const STACK_LINE = /^\s+at .+(\(|\s)\S+:\d+:\d+\)?$/m;

export function expectNoStack(stderr: string): void {
  expect(stderr).not.toMatch(STACK_LINE);
  expect(stderr).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError|RangeError|UnhandledPromiseRejection)\b/);
}

/** stderr of a failure: starts `error:`, no stack trace, no raw ESC/BEL. */
export function expectCleanError(stderr: string): void {
  expect(stderr.startsWith("error: "), `stderr should start with "error: " but was ${JSON.stringify(stderr)}`).toBe(
    true,
  );
  expectNoStack(stderr);
  expectNoRawControl(stderr);
}

/** No C0 control (except newline) and no C1 control: nothing that can drive a terminal. */
export function expectNoRawControl(text: string): void {
  const bad = text.match(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(bad, `raw control character ${JSON.stringify(bad?.[0])} in ${JSON.stringify(text.slice(0, 300))}`).toBeNull();
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A counting semaphore for `it.concurrent` cases. */
export function limiter(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (fn) => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Starts the CLI without waiting for it, for tests that signal it while it runs. */
export function spawn(cli: CliSandbox, args: string[], opts: RunOptions = {}): ResultPromise {
  return cli.run(args, opts) as unknown as ResultPromise;
}

export const out = (value: unknown): string => (typeof value === "string" ? value : String(value ?? ""));

export { sandbox };
export type { CliSandbox };

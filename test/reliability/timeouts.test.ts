// --timeout bounds the whole request: each attempt (connect, headers and body together) and
// the waits between attempts. A server that hangs gives exit 3 within the bound, and the
// message names the host and the limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FB, envFor, expectCleanError, out, sandbox, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const hostOf = (url: string) => new URL(url).host;

describe.concurrent("a hanging server with --timeout 1", () => {
  it("GET: exit 3 well within the bound, naming host and timeout, one request with --retries 0", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const started = Date.now();
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "1", "--retries", "0"], { env: envFor(server) });
      const elapsed = Date.now() - started;
      expect(r.exitCode).toBe(3);
      expect(elapsed).toBeLessThan(10_000);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(out(r.stdout)).toBe("");
      expectCleanError(out(r.stderr));
      expect(out(r.stderr)).toContain(hostOf(server.url));
      expect(out(r.stderr)).toMatch(/1 s \(--timeout\)/);
      expect(server.requests).toHaveLength(1);
    });
  });

  it("GET with retries left: the hang used up the bound, so it is not repeated (--retries 3 → 1 request)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const started = Date.now();
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "1", "--retries", "3"], { env: envFor(server), timeoutMs: 25_000 });
      expect(r.exitCode).toBe(3);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.requests).toHaveLength(1);
      expect(out(r.stderr)).toMatch(/1 s \(--timeout\)/);
      expect(out(r.stderr)).not.toMatch(/attempts/);
      expectCleanError(out(r.stderr));
    });
  });

  it("a 503 then a hang: the retry gets only what is left of the bound", async () => {
    await withServer(async (server) => {
      server.script({ status: 503, headers: { "Retry-After": "0" }, body: { status_code: 503, msg: "busy" } });
      server.fallback = () => ({ hang: true });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "2", "--debug"], { env: envFor(server), timeoutMs: 25_000 });
      expect(r.exitCode).toBe(3);
      expect(server.requests).toHaveLength(2);
      expect(out(r.stderr)).toMatch(/2 attempts/);
      expect(out(r.stderr)).toMatch(/^error: GET .*2 s \(--timeout\)/m);
    });
  });

  it("a Retry-After longer than what is left of --timeout is not waited for: the 429 is reported (exit 1)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 429, headers: { "Retry-After": "30" }, body: { error_code: "ERR_NGROK_226", status_code: 429, msg: "rate limited" } });
      const started = Date.now();
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "2", "--debug"], { env: envFor(server), timeoutMs: 25_000 });
      expect(r.exitCode).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(server.requests).toHaveLength(1);
      expect(out(r.stderr)).toMatch(/^error: rate limited \(HTTP 429, ERR_NGROK_226/m);
      expect(out(r.stderr)).toMatch(/not retrying: waiting 30\.00 s would pass --timeout/);
    });
  });

  it("POST: exit 3 within the bound, not repeated, and the message says how to check", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const started = Date.now();
      const r = await cli.run(["failover", "create", "--backends", "bkdhr_a", "--timeout", "1"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.requests).toHaveLength(1);
      const stderr = out(r.stderr);
      expectCleanError(stderr);
      expect(stderr).toContain(hostOf(server.url));
      expect(stderr).toMatch(/1 s \(--timeout\)/);
      expect(stderr).toMatch(/may or may not have been/);
      expect(stderr).toContain("failover list");
    });
  });

  it("a body that starts and then stalls counts against the same bound", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ stall: '{"id":"bkdfo_abc","uri":' });
      const started = Date.now();
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "1", "--retries", "0"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(out(r.stdout)).toBe("");
      expect(out(r.stderr)).toMatch(/--timeout/);
      expectCleanError(out(r.stderr));
    });
  });

  it("a fractional --timeout and EDGECTL_TIMEOUT are honoured too", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      let started = Date.now();
      let r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "0.5", "--retries", "0"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(out(r.stderr)).toMatch(/0\.5 s/);
      started = Date.now();
      r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server, { EDGECTL_TIMEOUT: "1", EDGECTL_RETRIES: "0" }) });
      expect(r.exitCode).toBe(3);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(out(r.stderr)).toMatch(/1 s \(--timeout\)/);
    });
  });

  it("a slow but complete answer inside the bound succeeds", async () => {
    await withServer(async (server) => {
      server.script({ status: 200, body: FB, delayMs: 300 });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "2", "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(out(r.stdout))).toEqual(FB);
    });
  });
});

// Ctrl-C (SIGINT) and SIGTERM abort an in-flight request: exit 130 at once, one line on
// stderr, nothing on stdout, no stack trace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envFor, expectNoStack, out, sandbox, spawn, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const COMMANDS: { name: string; args: string[] }[] = [
  { name: "get (GET)", args: ["failover", "get", "bkdfo_abc"] },
  { name: "create (POST)", args: ["failover", "create", "--backends", "bkdhr_a"] },
  { name: "list --all (GET)", args: ["failover", "list", "--all"] },
  {
    name: "webhook replace (PUT)",
    args: ["webhook-verification", "replace", "edghts_a", "edghtsrt_b", "--provider", "stripe", "--secret", "whsec_sig_12345"],
  },
];

describe.concurrent("a signal while a request hangs", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const { name, args } of COMMANDS) {
      it(`${signal} during ${name}: exit 130 promptly, one line on stderr, empty stdout`, async () => {
        await withServer(async (server) => {
          server.fallback = () => ({ hang: true });
          const child = spawn(cli, args, { env: envFor(server) });
          await server.waitForRequests(1);
          const sent = Date.now();
          child.kill(signal);
          const r = await child;
          expect(Date.now() - sent).toBeLessThan(3_000);
          expect(r.exitCode).toBe(130);
          expect(out(r.stdout)).toBe("");
          const stderr = out(r.stderr);
          expect(stderr.trim().split("\n")).toHaveLength(1);
          expect(stderr.trimStart()).toMatch(/^error: interrupted/);
          expect(stderr).toContain(signal);
          expectNoStack(stderr);
          expect(server.requests).toHaveLength(1);
        });
      });
    }
  }

  it("SIGINT while waiting to retry: exit 130 at once, no further attempt", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 503, headers: { "Retry-After": "30" }, body: { status_code: 503, msg: "later" } });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 200));
      const sent = Date.now();
      child.kill("SIGINT");
      const r = await child;
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
      expect(server.requests).toHaveLength(1);
    });
  });

  it("with -o json the one stderr line is a JSON error of kind interrupted", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      await server.waitForRequests(1);
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
      const lines = out(r.stderr).trim().split("\n");
      expect(lines).toHaveLength(1);
      const parsed = JSON.parse(lines[0]!) as { error: { kind: string; message: string } };
      expect(parsed.error.kind).toBe("interrupted");
    });
  });

  it("stderr starts with `error:` when it is not a terminal (no leading blank line)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      await server.waitForRequests(1);
      child.kill("SIGINT");
      const r = await child;
      expect(out(r.stderr)).toMatch(/^error: interrupted \(SIGINT\)\n?$/);
    });
  });

  it("a stalled body (headers sent) is aborted just the same", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ stall: '{"id":"bkdfo_abc",' });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 100));
      child.kill("SIGTERM");
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
    });
  });
});

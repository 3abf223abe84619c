// --timeout through the whole CLI, in-process (test/helpers/app.ts; the exit code of a real process
// is test/e2e/exit-codes.test.ts's): a server that hangs gives exit 3, and the message names the host and
// the limit; the setting comes from the flag or EDGECTL_TIMEOUT. How the bound is shared by
// attempts and waits is tested in-process (test/api/client.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { envFor, expectCleanError, out, withServer } from "./support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => cli.cleanup());

const hostOf = (url: string) => new URL(url).host;

describe.concurrent("a hanging server", () => {
  it("GET: exit 3 well within the bound, naming host and timeout, one request with --retries 0", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "1", "--retries", "0"], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      expectCleanError(out(r.stderr));
      expect(out(r.stderr)).toContain(hostOf(server.url));
      expect(out(r.stderr)).toMatch(/1 s \(--timeout\)/);
      expect(server.requests).toHaveLength(1);
    });
  });

  it("a Retry-After longer than what is left of --timeout is not waited for: the 429 is reported (exit 1)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 429,
        headers: { "Retry-After": "30" },
        body: { error_code: "ERR_NGROK_226", status_code: 429, msg: "rate limited" },
      });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "2", "--debug"], {
        env: envFor(server),
        timeoutMs: 25_000,
      });
      expect(r.exitCode).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(out(r.stderr)).toMatch(/^error: rate limited \(HTTP 429, ERR_NGROK_226/m);
      expect(out(r.stderr)).toMatch(/not retrying: waiting 30\.00 s would pass --timeout/);
    });
  });

  it("a fractional --timeout and EDGECTL_TIMEOUT are honoured too", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      let r = await cli.run(["failover", "get", "bkdfo_abc", "--timeout", "0.5", "--retries", "0"], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/0\.5 s/);
      r = await cli.run(["failover", "get", "bkdfo_abc"], {
        env: envFor(server, { EDGECTL_TIMEOUT: "1", EDGECTL_RETRIES: "0" }),
      });
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/1 s \(--timeout\)/);
    });
  });
});

// Retries: idempotent requests (GET, PUT, DELETE) are repeated on 429/502/503/504 and on
// connection errors, up to --retries, honouring Retry-After; a POST is repeated only when it
// provably never reached the server. Requests are counted at the fault server.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type Reply } from "../helpers/fault-server.js";
import { FB, MODULE, envFor, expectCleanError, expectNoStack, out, sandbox, spawn, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const errorBody = (status: number, msg: string, code?: string) => ({
  ...(code ? { error_code: code } : {}),
  status_code: status,
  msg,
  details: { operation_id: `op_${status}` },
});

/** A retryable answer that asks for no wait, so the tests stay fast. */
const FAULTS: { name: string; reply: () => Reply; exit: number }[] = [
  { name: "429", reply: () => ({ status: 429, headers: { "Retry-After": "0" }, body: errorBody(429, "rate limited", "ERR_NGROK_226") }), exit: 1 },
  { name: "502", reply: () => ({ status: 502, headers: { "Retry-After": "0" }, body: errorBody(502, "bad gateway") }), exit: 1 },
  { name: "503", reply: () => ({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") }), exit: 1 },
  { name: "504", reply: () => ({ status: 504, headers: { "Retry-After": "0" }, body: errorBody(504, "gateway timeout") }), exit: 1 },
  { name: "connection reset", reply: () => ({ reset: true }), exit: 3 },
];

const METHODS: { method: string; args: string[]; ok: Reply }[] = [
  { method: "GET", args: ["failover", "get", "bkdfo_abc"], ok: { status: 200, body: FB } },
  {
    method: "PUT",
    args: ["webhook-verification", "replace", "edghts_a", "edghtsrt_b", "--provider", "github", "--secret", "whsec_retry_1234"],
    ok: { status: 200, body: MODULE },
  },
  { method: "DELETE", args: ["failover", "delete", "bkdfo_abc", "--yes"], ok: { status: 204 } },
];

describe.concurrent("idempotent requests are retried up to --retries", () => {
  for (const { method, args } of METHODS) {
    for (const fault of FAULTS) {
      it(`${method} on ${fault.name}: --retries 2 → 3 requests, then exit ${fault.exit}`, async () => {
        await withServer(async (server) => {
          server.fallback = fault.reply;
          const r = await cli.run([...args, "--retries", "2"], { env: envFor(server) });
          expect(server.requests.map((q) => q.method)).toEqual([method, method, method]);
          expect(r.exitCode).toBe(fault.exit);
          expect(out(r.stdout)).toBe("");
          expectCleanError(out(r.stderr));
        });
      });
    }
  }

  for (const { method, args, ok } of METHODS) {
    it(`${method} recovers: 503, reset, then success → exit 0 after 3 requests`, async () => {
      await withServer(async (server) => {
        server.script({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") }, { reset: true }, ok);
        const r = await cli.run([...args, "--retries", "2", "-o", "json"], { env: envFor(server) });
        expect(r.exitCode).toBe(0);
        expect(server.requests).toHaveLength(3);
        expect(out(r.stderr)).toBe("");
        expect(out(r.stdout)).not.toBe("");
      });
    });
  }

  it("--retries 0 disables retries: one request for each method", async () => {
    for (const { args } of METHODS) {
      await withServer(async (server) => {
        server.fallback = () => ({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") });
        const r = await cli.run([...args, "--retries", "0"], { env: envFor(server) });
        expect(r.exitCode).toBe(1);
        expect(server.requests).toHaveLength(1);
      });
    }
  });

  it("EDGECTL_RETRIES and the default (3) are honoured", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 502, headers: { "Retry-After": "0" }, body: errorBody(502, "bad gateway") });
      let r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server, { EDGECTL_RETRIES: "1" }) });
      expect(r.exitCode).toBe(1);
      expect(server.requests).toHaveLength(2);
      server.requests.length = 0;
      r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expect(server.requests).toHaveLength(4);
    });
  });

  it("a non-retryable status (500, 404, 400) is not repeated", async () => {
    for (const status of [500, 404, 400]) {
      await withServer(async (server) => {
        server.fallback = () => ({ status, body: errorBody(status, "no") });
        const r = await cli.run(["failover", "get", "bkdfo_abc", "--retries", "3"], { env: envFor(server) });
        expect(r.exitCode).toBe(1);
        expect(server.requests).toHaveLength(1);
      });
    }
  });

  it("list --all retries a failed page and carries on", async () => {
    await withServer(async (server) => {
      const page2 = `/backends/failover?before_id=bkdfo_abc&limit=1`;
      server.script(
        { status: 200, body: { backends: [FB], uri: "/backends/failover", next_page_uri: `${server.url}${page2}` } },
        { status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") },
        { status: 200, body: { backends: [{ ...FB, id: "bkdfo_def" }], uri: page2, next_page_uri: null } },
      );
      const r = await cli.run(["failover", "list", "--all", "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(out(r.stdout)) as { id: string }[]).map((b) => b.id)).toEqual(["bkdfo_abc", "bkdfo_def"]);
      expect(server.requests.map((q) => q.path)).toEqual(["/backends/failover", page2, page2]);
    });
  });
});

describe.concurrent("waits between attempts", () => {
  const gaps = (at: number[]) => at.slice(1).map((t, i) => t - at[i]!);

  it("Retry-After: 0 is honoured (no backoff wait)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--retries", "4", "--debug"], { env: envFor(server) });
      expect(server.requests).toHaveLength(5);
      expect(out(r.stderr).match(/waiting 0\.00 s/g)).toHaveLength(4);
      // Backoff alone would have waited at least 0.25 + 0.5 + 1 + 2 s.
      const at = server.requests.map((q) => q.at);
      expect(at[4]! - at[0]!).toBeLessThan(2000);
    });
  });

  it("Retry-After in seconds is honoured", async () => {
    await withServer(async (server) => {
      server.script({ status: 429, headers: { "Retry-After": "1" }, body: errorBody(429, "slow down", "ERR_NGROK_226") }, { status: 200, body: FB });
      const r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const [gap] = gaps(server.requests.map((q) => q.at));
      expect(gap).toBeGreaterThanOrEqual(900);
      expect(gap).toBeLessThan(3000);
    });
  });

  it("Retry-After as an HTTP date is honoured", async () => {
    await withServer(async (server) => {
      // HTTP dates have whole seconds: two seconds ahead (from when the request arrives) is
      // at least one second away.
      server.fallback = () =>
        server.requests.length === 1
          ? { status: 503, headers: { "Retry-After": new Date(Date.now() + 2000).toUTCString() }, body: errorBody(503, "maintenance") }
          : { status: 200, body: FB };
      const r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const [gap] = gaps(server.requests.map((q) => q.at));
      expect(gap).toBeGreaterThanOrEqual(900);
      expect(gap).toBeLessThan(4000);
    });
  });

  it("an HTTP date in the past means retry now", async () => {
    await withServer(async (server) => {
      const past = { status: 503, headers: { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" }, body: errorBody(503, "x") };
      server.script(past, past, past, { status: 200, body: FB });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--debug"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect(out(r.stderr).match(/waiting 0\.00 s/g)).toHaveLength(3);
      // Backoff alone would have waited at least 0.25 + 0.5 + 1 s.
      const at = server.requests.map((q) => q.at);
      expect(at[3]! - at[0]!).toBeLessThan(1200);
    });
  });

  it("without Retry-After the backoff grows (≥ 250 ms, then ≥ 500 ms)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 502, body: "<html>bad gateway</html>", headers: { "Content-Type": "text/html" } });
      await cli.run(["failover", "get", "bkdfo_abc", "--retries", "2"], { env: envFor(server) });
      const [g1, g2] = gaps(server.requests.map((q) => q.at));
      expect(g1).toBeGreaterThanOrEqual(240);
      expect(g2).toBeGreaterThanOrEqual(490);
      expect(g2!).toBeLessThan(3000);
    });
  });

  it("a huge Retry-After is capped at 60 s (seen in --debug, then interrupted)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 429, headers: { "Retry-After": "3600" }, body: errorBody(429, "slow down", "ERR_NGROK_226") });
      // --timeout bounds the whole request, waits included: room for the 60 s wait.
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "--debug", "--timeout", "120"], { env: envFor(server) });
      let stderr = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no wait line in ${stderr}`)), 10_000);
        child.stderr!.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/waiting \d/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      child.kill("SIGTERM");
      const r = await child;
      expect(stderr).toMatch(/waiting 60(\.0+)? s/);
      expect(r.exitCode).toBe(130);
      expect(server.requests).toHaveLength(1);
    });
  });

  it("--debug shows each attempt and each wait", async () => {
    await withServer(async (server) => {
      server.script(
        { status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") },
        { reset: true },
        { status: 200, body: FB },
      );
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--retries", "2", "--debug"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/→ GET \S+\/backends\/failover\/bkdfo_abc(\n|$| \(attempt 1)/);
      expect(stderr).toMatch(/attempt 2\/3/);
      expect(stderr).toMatch(/attempt 3\/3/);
      expect(stderr.match(/waiting \d+(\.\d+)? s/g)).toHaveLength(2);
      expect(stderr).toMatch(/after status 503: waiting 0(\.0+)? s/);
      expect(stderr).toMatch(/reset/);
      expectNoStack(stderr);
    });
  });
});

describe.concurrent("POST is not repeated unless it never reached the server", () => {
  const create = ["failover", "create", "--backends", "bkdhr_a"];

  for (const status of [500, 502, 503, 504]) {
    it(`after ${status}: one request, exit 1, and the message says it may or may not have been created`, async () => {
      await withServer(async (server) => {
        server.fallback = () => ({ status, headers: { "Retry-After": "0" }, body: errorBody(status, "upstream trouble") });
        const r = await cli.run([...create, "--retries", "3"], { env: envFor(server) });
        expect(server.requests).toHaveLength(1);
        expect(r.exitCode).toBe(1);
        expect(out(r.stdout)).toBe("");
        const stderr = out(r.stderr);
        expectCleanError(stderr);
        expect(stderr).toContain(`HTTP ${status}`);
        expect(stderr).toMatch(/may or may not have been/);
        expect(stderr).toContain("failover list");
      });
    });
  }

  it("after a connection reset: one request, exit 3, and the message says how to check", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ reset: true });
      const r = await cli.run([...create, "--retries", "3"], { env: envFor(server) });
      expect(server.requests).toHaveLength(1);
      expect(r.exitCode).toBe(3);
      const stderr = out(r.stderr);
      expectCleanError(stderr);
      expect(stderr).toMatch(/may or may not have been/);
      expect(stderr).toContain("failover list");
    });
  });

  it("after a truncated answer: one request, exit 3", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ truncate: '{"id":"bkdfo_abc",', status: 201 });
      const r = await cli.run([...create, "--retries", "3"], { env: envFor(server) });
      expect(server.requests).toHaveLength(1);
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/may or may not have been/);
    });
  });

  it("PATCH (update) is not repeated after 503 either", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") });
      const r = await cli.run(["failover", "update", "bkdfo_abc", "--description", "x", "--retries", "3"], { env: envFor(server) });
      expect(server.requests).toHaveLength(1);
      expect(r.exitCode).toBe(1);
    });
  });

  it("a 429 on POST is repeated: the API did not act on it", async () => {
    await withServer(async (server) => {
      server.script({ status: 429, headers: { "Retry-After": "0" }, body: errorBody(429, "rate limited", "ERR_NGROK_226") }, { status: 201, body: FB });
      const r = await cli.run([...create, "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect(server.requests.map((q) => q.method)).toEqual(["POST", "POST"]);
      expect(JSON.parse(out(r.stdout))).toEqual(FB);
    });
  });

  it("a refused connection is retried, even for POST: the server gets exactly one create", async () => {
    const port = await freePort();
    const child = spawn(cli, [...create, "--retries", "6", "--debug", "-o", "json"], {
      env: { ...envFor({ url: `http://127.0.0.1:${port}` } as never) },
    });
    let stderr = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no refusal seen: ${stderr}`)), 10_000);
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("connection refused")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const server = await startFaultServer({ port });
    try {
      server.script({ status: 201, body: FB });
      const r = await child;
      expect(r.exitCode).toBe(0);
      expect(server.requests.map((q) => q.method)).toEqual(["POST"]);
      expect(JSON.parse(out(r.stdout))).toEqual(FB);
      expect(out(r.stderr)).toMatch(/attempt 2\//);
    } finally {
      await server.close();
    }
  });

  it("a POST refused on every attempt: exit 3, with no 'may or may not' doubt", async () => {
    const port = await freePort();
    const r = await cli.run([...create, "--retries", "1"], { env: { EDGECTL_API_KEY: "k_12345678", EDGECTL_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.exitCode).toBe(3);
    const stderr = out(r.stderr);
    expectCleanError(stderr);
    expect(stderr).toMatch(/connection refused/);
    expect(stderr).toMatch(/2 attempts/);
    expect(stderr).not.toMatch(/may or may not/);
  });
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => resolve()));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

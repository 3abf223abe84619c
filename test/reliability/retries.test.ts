// Retries through the whole CLI, in-process (test/helpers/app.ts): one case per exit code and per
// setting (--retries, EDGECTL_RETRIES, --debug), counted at the fault server (the exit codes of a
// real process are test/e2e/exit-codes.test.ts's). The whole rule, every method and
// fault, and the waits are tested in-process (test/api/client.test.ts, test/api/retry.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { freePort, type Reply } from "../helpers/fault-server.js";
import { FB, MODULE, envFor, expectCleanError, expectNoStack, out, withServer } from "./support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
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
  {
    name: "429",
    reply: () => ({
      status: 429,
      headers: { "Retry-After": "0" },
      body: errorBody(429, "rate limited", "ERR_NGROK_226"),
    }),
    exit: 1,
  },
  {
    name: "502",
    reply: () => ({ status: 502, headers: { "Retry-After": "0" }, body: errorBody(502, "bad gateway") }),
    exit: 1,
  },
  {
    name: "503",
    reply: () => ({ status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") }),
    exit: 1,
  },
  {
    name: "504",
    reply: () => ({ status: 504, headers: { "Retry-After": "0" }, body: errorBody(504, "gateway timeout") }),
    exit: 1,
  },
  { name: "connection reset", reply: () => ({ reset: true }), exit: 3 },
];

const METHODS: { method: string; args: string[]; ok: Reply }[] = [
  { method: "GET", args: ["failover", "get", "bkdfo_abc"], ok: { status: 200, body: FB } },
  {
    method: "PUT",
    args: [
      "webhook-verification",
      "replace",
      "edghts_a",
      "edghtsrt_b",
      "--provider",
      "github",
      "--secret",
      "whsec_retry_1234",
    ],
    ok: { status: 200, body: MODULE },
  },
  { method: "DELETE", args: ["failover", "delete", "bkdfo_abc", "--yes"], ok: { status: 204 } },
];

describe.concurrent("idempotent requests are retried up to --retries", () => {
  for (const { method, args } of METHODS.filter((m) => m.method === "GET")) {
    for (const fault of FAULTS.filter((f) => f.name === "429" || f.name === "503")) {
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

  for (const { method, args, ok } of METHODS.filter((m) => m.method === "DELETE")) {
    it(`${method} recovers: 503, reset, then success → exit 0 after 3 requests`, async () => {
      await withServer(async (server) => {
        server.script(
          { status: 503, headers: { "Retry-After": "0" }, body: errorBody(503, "unavailable") },
          { reset: true },
          ok,
        );
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

describe("--debug", () => {
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

  for (const status of [503]) {
    it(`after ${status}: one request, exit 1, and the message says it may or may not have been created`, async () => {
      await withServer(async (server) => {
        server.fallback = () => ({
          status,
          headers: { "Retry-After": "0" },
          body: errorBody(status, "upstream trouble"),
        });
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

  it("a 429 on POST is repeated: the API did not act on it", async () => {
    await withServer(async (server) => {
      server.script(
        { status: 429, headers: { "Retry-After": "0" }, body: errorBody(429, "rate limited", "ERR_NGROK_226") },
        { status: 201, body: FB },
      );
      const r = await cli.run([...create, "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect(server.requests.map((q) => q.method)).toEqual(["POST", "POST"]);
      expect(JSON.parse(out(r.stdout))).toEqual(FB);
    });
  });

  it("a POST refused on every attempt: exit 3, with no 'may or may not' doubt", async () => {
    const port = await freePort();
    const r = await cli.run([...create, "--retries", "1"], {
      env: { EDGECTL_API_KEY: "k_12345678", EDGECTL_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(r.exitCode).toBe(3);
    const stderr = out(r.stderr);
    expectCleanError(stderr);
    expect(stderr).toMatch(/connection refused/);
    expect(stderr).toMatch(/2 attempts/);
    expect(stderr).not.toMatch(/may or may not/);
  });
});

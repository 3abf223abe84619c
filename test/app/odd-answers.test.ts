// Answers and situations at the edges: a next_page_uri that loops, a base URL with a path
// prefix, the API's own field order in -o json, a connection cut mid-body, a very short key
// echoed back, warnings on a failing run, and what the server says inside a --debug trace.
// Run in-process (test/helpers/app.ts); one case runs the real bin in reliability/odd-answers.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonError } from "../e2e/support.js";
import { json } from "../helpers/fault-server.js";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { KEY, envFor, expectCleanError, expectNoRawControl, out, withServer } from "../reliability/support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => cli.cleanup());

describe("-o json prints the resource as the API returned it", () => {
  it("keeps the API's field order and fields edgectl does not know", async () => {
    await withServer(async (server) => {
      const body =
        '{"backends":["bkdhr_a"],"metadata":"m","created_at":"c","extra":{"z":1,"a":2},"id":"bkdfo_abc","uri":"u"}';
      server.script({ status: 200, headers: { "Content-Type": "application/json" }, body });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout)).toBe(JSON.stringify(JSON.parse(body), null, 2));
    });
  });
});

describe("a connection cut in the middle of a 200 body", () => {
  it("exit 3, and the message gives the status and an excerpt of what arrived", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ truncate: '{"id":"bkdfo_abc","uri":"\u001b]0;x\u0007', status: 200 });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--retries", "0"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      const stderr = out(r.stderr);
      expectCleanError(stderr);
      expect(stderr).toMatch(
        /connection lost while reading the response \(HTTP 200, after \d+ bytes\): \{"id":"bkdfo_abc"/,
      );
      expect(stderr).toContain("\\x1b]0;x\\x07");
    });
  });
});

describe("a very short API key or secret echoed back", () => {
  it("a 3-character key in the API's message is masked", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(401, { status_code: 401, msg: "your key abc is bad", error_code: "ERR_NGROK_201" });
      const r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server, { EDGECTL_API_KEY: "abc" }) });
      expect(r.exitCode).toBe(4);
      expect(out(r.stderr)).toMatch(
        /^error: the API refused the API key from EDGECTL_API_KEY \(your key \*{8} is bad\)/,
      );
    });
  });

  it("a 3-character webhook secret in the API's message is masked", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(400, { status_code: 400, msg: "secret xyz is too short", error_code: "ERR_X" });
      const r = await cli.run(
        ["webhook-verification", "replace", "edghts_a", "edghtsrt_b", "--provider", "github", "--secret", "xyz"],
        { env: envFor(server) },
      );
      expect(r.exitCode).toBe(1);
      expect(out(r.stderr)).toMatch(/^error: secret \*{8} is too short/);
    });
  });
});

describe("warnings on a run that fails", () => {
  const SNS = ["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "sns", "--retries", "0"];

  it("stderr still starts with `error:`; the warning follows", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(500, { status_code: 500, msg: "boom" });
      const r = await cli.run(SNS, { env: envFor(server, { EDGECTL_WEBHOOK_SECRET: "whsec_env_1234" }) });
      expect(r.exitCode).toBe(1);
      const lines = out(r.stderr).trim().split("\n");
      expect(lines[0]).toMatch(/^error: boom/);
      expect(lines[1]).toMatch(/^warning: EDGECTL_WEBHOOK_SECRET is ignored/);
      expect(lines).toHaveLength(2);
    });
  });

  it("with -o json stderr is one JSON object that carries the warnings", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(500, { status_code: 500, msg: "boom" });
      const r = await cli.run([...SNS, "-o", "json"], {
        env: envFor(server, { EDGECTL_WEBHOOK_SECRET: "whsec_env_1234" }),
      });
      expect(r.exitCode).toBe(1);
      const { error } = parseJsonError(out(r.stderr));
      expect(error).toMatchObject({ kind: "api", status_code: 500, message: "boom" });
      expect((error.details as { warnings: string[] }).warnings).toEqual([
        expect.stringMatching(/^EDGECTL_WEBHOOK_SECRET is ignored/),
      ]);
    });
  });

  it("on success the warning is printed on stderr, stdout keeps only the result", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(200, { enabled: true, provider: "sns" });
      const r = await cli.run([...SNS, "-o", "json"], {
        env: envFor(server, { EDGECTL_WEBHOOK_SECRET: "whsec_env_1234" }),
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(out(r.stdout))).toEqual({ enabled: true, provider: "sns" });
      expect(out(r.stderr)).toMatch(/^warning: EDGECTL_WEBHOOK_SECRET is ignored/);
      expect(JSON.parse(server.requests[0]!.body)).toEqual({ enabled: true, provider: "sns" });
    });
  });
});

describe("--debug", () => {
  it("the stack trace escapes what the server put in its message", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(400, { status_code: 400, msg: "bad \u001b]0;pwned\u0007 \u001b[2J thing" });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--debug"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/^\s+at /m); // the trace is there
      expectNoRawControl(stderr);
      expect(stderr).toContain("bad \\x1b]0;pwned\\x07 \\x1b[2J thing");
      expect(stderr).not.toContain(KEY);
    });
  });
});

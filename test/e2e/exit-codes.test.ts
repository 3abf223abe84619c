// Every exit code of the contract, with what goes to stdout and stderr, from the real bin: one
// case per code here, the rest of each code's cases in-process in app/exit-codes.test.ts.
import { describe, expect, it } from "vitest";
import { type CliSandbox } from "../helpers/cli.js";
import { apiError, json } from "../helpers/fault-server.js";
import { FB, parseJsonError } from "./support.js";
import { useExitCodesSuite } from "./exit-codes.support.js";

const ctx = useExitCodesSuite();
const { KEY, run, env } = ctx;

describe("exit 0", () => {
  it("success prints the result on stdout and nothing on stderr", async () => {
    ctx.server.script(json(200, FB));
    const r = await run(["failover", "get", "bkdfo_abc", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FB);
    expect(r.stderr).toBe("");
  });
});

describe("exit 1: the API answered with an error", () => {
  it("404: `error:` with status, error_code and operation_id on stderr, nothing on stdout", async () => {
    ctx.server.script(apiError(404, "The failover backend was not found.", "ERR_NGROK_404"));
    const r = await run(["failover", "get", "bkdfo_missing"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain("The failover backend was not found.");
    expect(r.stderr).toContain("404");
    expect(r.stderr).toContain("ERR_NGROK_404");
    expect(r.stderr).toContain("op_test123");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe("exit 2: usage errors send nothing", () => {
  it("delete refuses without --yes even when stdin has data (not a terminal)", async () => {
    const r = await run(["failover", "delete", "-"], { env: env(), input: "bkdfo_a\nbkdfo_b\n" });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("exit 3: no usable answer", () => {
  it("connection refused with --retries 0", async () => {
    const r = await run(["failover", "get", "bkdfo_abc", "--retries", "0"], {
      env: env({ EDGECTL_BASE_URL: `http://127.0.0.1:${ctx.closedPort}` }),
    });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*connection refused/);
  });

  it("no answer within --timeout", async () => {
    ctx.server.script({ hang: true });
    const r = await run(["failover", "get", "bkdfo_abc", "--retries", "0", "--timeout", "0.3"], { env: env() });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
  });
});

describe("exit 4: authentication", () => {
  it("no API key configured anywhere: nothing is sent", async () => {
    const r = await run(["failover", "get", "bkdfo_abc"], { env: { EDGECTL_BASE_URL: ctx.server.url } });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*API key/);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it.each([401, 403])("the API refuses the key with %i", async (status) => {
    ctx.server.script(apiError(status, "The API key is not valid.", "ERR_NGROK_" + status));
    const r = await run(["failover", "get", "bkdfo_abc", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "auth", status_code: status });
    expect(r.stderr).not.toContain(KEY);
  });
});

describe("exit 130: interrupted", () => {
  it("SIGINT while a request is in flight: exit 130, `error: interrupted` on stderr, nothing on stdout", async () => {
    ctx.server.script({ hang: true });
    const child = ctx.cli.run(["failover", "get", "bkdfo_abc"], { env: env() }) as ReturnType<CliSandbox["run"]> & {
      kill(signal: NodeJS.Signals): boolean;
    };
    for (let i = 0; i < 200 && ctx.server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(ctx.server.requests).toHaveLength(1);
    child.kill("SIGINT");
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe("");
    expect(String(r.stderr)).toMatch(/^(\n)?error: interrupted/);
  });

  it("with -o json the interruption is one JSON object of kind interrupted", async () => {
    ctx.server.script({ hang: true });
    const child = ctx.cli.run(["failover", "list", "-o", "json"], { env: env() }) as ReturnType<CliSandbox["run"]> & {
      kill(signal: NodeJS.Signals): boolean;
    };
    for (let i = 0; i < 200 && ctx.server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill("SIGTERM");
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe("");
    expect(parseJsonError(String(r.stderr)).error).toMatchObject({ kind: "interrupted" });
  });
});

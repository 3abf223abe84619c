// Every exit code of the contract, with what goes to stdout and stderr in each case, run
// in-process; one case per code (and the signals) runs the real bin in e2e/exit-codes.test.ts.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { apiError, json } from "../helpers/fault-server.js";
import { FB, parseJsonError } from "../e2e/support.js";
import { useExitCodesSuite } from "../e2e/exit-codes.support.js";

const ctx = useExitCodesSuite(appSandbox);
const { run, env } = ctx;

describe("exit 1: the API answered with an error", () => {
  it("control characters in the API's message are shown escaped on stderr", async () => {
    ctx.server.script(apiError(409, "bad\x1b]0;pwned\x07 name\nsecond line", "ERR_NGROK_409"));
    const r = await run(["failover", "get", "bkdfo_abc"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain("\x1b");
    expect(r.stderr).not.toContain("\x07");
    expect(r.stderr).toContain("bad\\x1b]0;pwned\\x07 name\\nsecond line");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("404 with -o json: stderr is exactly one JSON object of kind api", async () => {
    ctx.server.script(apiError(404, "not found", "ERR_NGROK_404"));
    const r = await run(["failover", "get", "bkdfo_missing", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({
      kind: "api",
      status_code: 404,
      error_code: "ERR_NGROK_404",
      operation_id: "op_test123",
      message: "bkdfo_missing not found",
    });
  });

  it("an error body without error_code still reports status and operation_id", async () => {
    ctx.server.script(apiError(400, "bad things", undefined));
    const r = await run(["failover", "create", "--backends", "bkdhr_a", "--json"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({ kind: "api", status_code: 400, operation_id: "op_test123" });
    expect(error).not.toHaveProperty("error_code");
  });

  it("a 500 on a POST is not retried and exits 1", async () => {
    ctx.server.script(apiError(500, "boom", "ERR_NGROK_500"));
    const r = await run(["failover", "create", "--backends", "bkdhr_a"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(ctx.server.requests).toHaveLength(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: boom/);
  });

  it("a 503 on a GET is retried (Retry-After honoured) and the retry's answer counts", async () => {
    ctx.server.script(json(503, { msg: "busy", status_code: 503 }, { "Retry-After": "0" }), json(200, FB));
    const r = await run(["failover", "get", "bkdfo_abc", "-o", "json", "--retries", "1"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toEqual(FB);
  });
});

describe("exit 2: usage errors send nothing", () => {
  const cases: [string, string[], RegExp][] = [
    ["an invalid failover id", ["failover", "get", "bkdfo-bad"], /<id>.*bkdfo_/],
    ["a failover id with a 65-character tail", ["failover", "get", `bkdfo_${"a".repeat(65)}`], /<id>.*1–64/],
    ["an id with a slash (no path injection)", ["failover", "get", "bkdfo_a/../b"], /<id>/],
    ["an invalid child backend id", ["failover", "create", "--backends", "bkdhr_a,xyz_1"], /--backends.*"xyz_1"/],
    ["no backends", ["failover", "create", "--description", "x"], /--backends.*at least one/],
    [
      "a description over 255 bytes of UTF-8",
      ["failover", "create", "--backends", "bkdhr_a", "--description", "é".repeat(128)],
      /--description.*255 bytes/,
    ],
    [
      "metadata over 4096 bytes",
      ["failover", "create", "--backends", "bkdhr_a", "--metadata", "m".repeat(4097)],
      /--metadata.*4096 bytes/,
    ],
    ["update with nothing to change", ["failover", "update", "bkdfo_abc"], /nothing to update/],
    ["an invalid edge id", ["webhook-verification", "get", "edg_1", "edghtsrt_1"], /<edge-id>/],
    ["an invalid route id", ["webhook-verification", "get", "edghts_1", "edghts_1"], /<route-id>/],
    [
      "a provider typo, with a suggestion",
      ["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "githb", "--secret", "abcd"],
      /--provider.*did you mean "github"/,
    ],
    [
      "two secret sources",
      [
        "webhook-verification",
        "replace",
        "edghts_1",
        "edghtsrt_1",
        "--provider",
        "github",
        "--secret",
        "abcd",
        "--secret-stdin",
      ],
      /only one source/,
    ],
    [
      "a secret for sns",
      ["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "sns", "--secret", "abcd"],
      /sns/,
    ],
    [
      "no secret for github",
      ["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "github"],
      /needs a secret/,
    ],
    ["an unknown flag", ["failover", "get", "bkdfo_abc", "--bogus"], /unknown option '--bogus'/],
    ["an unknown command, with did you mean", ["failover", "lsit"], /unknown command 'lsit'.*[Dd]id you mean list/],
    ["an unknown noun, with did you mean", ["failovr", "list"], /unknown command 'failovr'.*[Dd]id you mean failover/],
    ["failover delete without --yes and no terminal", ["failover", "delete", "bkdfo_abc"], /--yes/],
    [
      "webhook-verification delete without --yes and no terminal",
      ["webhook-verification", "delete", "edghts_1", "edghtsrt_1"],
      /--yes/,
    ],
    ["a bad --output", ["failover", "get", "bkdfo_abc", "-o", "xml"], /--output.*xml/],
    ["a bad --retries", ["failover", "get", "bkdfo_abc", "--retries", "many"], /--retries/],
    ["a bad --limit", ["failover", "list", "--limit", "0"], /--limit/],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const r = await run(args, { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toMatch(message);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("the limits themselves are accepted: a 64-character id tail, 255 bytes of description, 4096 of metadata", async () => {
    const r = await run(
      [
        "failover",
        "update",
        `bkdfo_${"Z9".repeat(32)}`,
        "--description",
        "é".repeat(127) + "x",
        "--metadata",
        "m".repeat(4096),
        "--dry-run",
      ],
      { env: env() },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`PATCH ${ctx.server.url}/backends/failover/bkdfo_${"Z9".repeat(32)}`);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("with -o json a usage error is one JSON object of kind usage", async () => {
    const r = await run(["failover", "get", "nope", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "usage" });
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("one invalid id among several: nothing is sent at all", async () => {
    const r = await run(["failover", "get", "bkdfo_ok", "bad_id", "bkdfo_ok2"], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"bad_id"');
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("exit 3: no usable answer", () => {
  it("connection refused with -o json is one JSON object of kind network", async () => {
    const r = await run(["failover", "list", "--retries", "0", "-o", "json"], {
      env: env({ EDGECTL_BASE_URL: `http://127.0.0.1:${ctx.closedPort}` }),
    });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "network" });
  });

  it("a success answer whose body is not JSON", async () => {
    ctx.server.script({ status: 200, body: "<html>proxy page</html>", headers: { "Content-Type": "text/html" } });
    const r = await run(["failover", "get", "bkdfo_abc"], { env: env() });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
  });

  it("a connection cut in the middle of the body", async () => {
    ctx.server.script({ truncate: '{"id":"bkdfo_abc","ur' });
    const r = await run(["failover", "get", "bkdfo_abc", "--retries", "0"], { env: env() });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
  });
});

describe("exit 4: authentication", () => {
  it("no API key with -o json: kind auth", async () => {
    const r = await run(["failover", "list", "-o", "json"], { env: { EDGECTL_BASE_URL: ctx.server.url } });
    expect(r.exitCode).toBe(4);
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "auth" });
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("many ids: input order, failures on stderr, exit code = worst", () => {
  /** With -o json stderr is one JSON error object whose `failures` name each failed id. */
  const failuresOf = (stderr: string) => {
    const lines = stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    return (JSON.parse(lines[0]!) as { error: { details: { failures: unknown[] } } }).error.details.failures;
  };
  const fb = (id: string) => ({ ...FB, id });

  it("a missing id is reported on stderr while the others are printed in input order (json)", async () => {
    ctx.server.fallback = (req) => {
      const id = req.path.split("/").pop()!;
      return id === "bkdfo_gone" ? apiError(404, "not found", "ERR_NGROK_404") : json(200, fb(id));
    };
    const r = await run(["failover", "get", "bkdfo_one", "bkdfo_gone", "bkdfo_two", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id)).toEqual(["bkdfo_one", "bkdfo_two"]);
    expect(failuresOf(r.stderr)).toEqual([
      expect.objectContaining({ kind: "api", status_code: 404, error_code: "ERR_NGROK_404", id: "bkdfo_gone" }),
    ]);
    expect(ctx.server.requests).toHaveLength(3);
  });

  it("table output: one row per found id, the failure named on stderr", async () => {
    ctx.server.fallback = (req) => {
      const id = req.path.split("/").pop()!;
      return id === "bkdfo_gone" ? apiError(404, "not found", "ERR_NGROK_404") : json(200, fb(id));
    };
    const r = await run(["failover", "get", "-"], { env: env(), input: "bkdfo_gone\nbkdfo_one\n" });
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["bkdfo_one"]);
    expect(r.stderr).toMatch(/^error: bkdfo_gone: not found/m);
  });

  it("the exit code is the worst met: a 404 and a 401 give 4", async () => {
    ctx.server.fallback = (req) => {
      const id = req.path.split("/").pop()!;
      if (id === "bkdfo_gone") return apiError(404, "not found");
      if (id === "bkdfo_denied") return apiError(401, "no");
      return json(200, fb(id));
    };
    const r = await run(["failover", "get", "bkdfo_gone", "bkdfo_denied", "bkdfo_ok"], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("bkdfo_gone");
    expect(r.stderr).toContain("bkdfo_denied");
  });

  it("delete of several ids goes on past a failure; the deleted ones are printed", async () => {
    ctx.server.fallback = (req) => (req.path.endsWith("bkdfo_gone") ? apiError(404, "not found") : { status: 204 });
    const r = await run(["failover", "delete", "bkdfo_a", "bkdfo_gone", "bkdfo_b", "--yes", "-o", "json"], {
      env: env(),
    });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: "bkdfo_a", deleted: true },
      { id: "bkdfo_b", deleted: true },
    ]);
    expect(failuresOf(r.stderr)).toEqual([
      expect.objectContaining({ kind: "api", status_code: 404, id: "bkdfo_gone" }),
    ]);
  });
});

// `edgectl failover delete`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps (--dry-run), and the whole CLI in-process against a recording fault
// server. The batch semantics it shares with get are in test/commands/failover-batch.test.ts,
// test/app/batch-output.test.ts and test/batch/; the prompt at a terminal in e2e/terminal-delete.
import { describe, expect, it } from "vitest";
import { run as deleteRun } from "../../../src/commands/failover/delete.js";
import { fakeDeps } from "../fake-deps.js";
import { del as argvDef } from "../../../src/commands/failover/delete.js";
import { parse as parseArgv } from "../parse.js";
import { appSandbox } from "../../helpers/app.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";

describe("failover delete argv → options", () => {
  it.each([
    [["bkdfo_1", "--dry-run"], { ids: ["bkdfo_1"], yes: false, concurrency: 8, dryRun: true }],
    [["bkdfo_1", "bkdfo_2"], { ids: ["bkdfo_1", "bkdfo_2"], yes: false, concurrency: 8, dryRun: false }],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });
});

describe("failover delete --dry-run", () => {
  it("prints one DELETE per id, in order, without asking or sending", async () => {
    const deps = fakeDeps();
    await deleteRun({ ids: ["bkdfo_1", "bkdfo_2"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toBe(
      "DELETE https://api.example.test/backends/failover/bkdfo_1\nDELETE https://api.example.test/backends/failover/bkdfo_2\n",
    );
  });

  it("with several ids and -o json prints ONE JSON array of the requests, in order", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1", "bkdfo_2"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" } },
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_2" } },
    ]);
  });

  it("with one id from stdin (a list) and -o json prints an array of one", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" } },
    ]);
  });

  it("with a single id argument and -o json keeps printing one object", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1"], many: false, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(JSON.parse(deps.out.text)).toEqual({
      dry_run: true,
      request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" },
    });
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env } = ctx;

  it("delete of ids from stdin sends one DELETE per line, blank lines ignored", async () => {
    ctx.server.fallback = () => ({ status: 204 });
    const r = await run(["failover", "delete", "-", "--yes", "-o", "json"], {
      env: env(),
      input: "bkdfo_x1\n\nbkdfo_x2\r\n  bkdfo_x3  \n",
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: "bkdfo_x1", deleted: true },
      { id: "bkdfo_x2", deleted: true },
      { id: "bkdfo_x3", deleted: true },
    ]);
    expect(ctx.server.requests.map((q) => `${q.method} ${q.path}`).sort()).toEqual([
      "DELETE /backends/failover/bkdfo_x1",
      "DELETE /backends/failover/bkdfo_x2",
      "DELETE /backends/failover/bkdfo_x3",
    ]);
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

  it("delete sends DELETE with no body, keeping the base URL's path prefix", async () => {
    ctx.server.script({ status: 204 });
    const r = await run(["failover", "delete", "bkdfo_abc", "--yes", "-o", "json"], {
      env: { ...env(), EDGECTL_BASE_URL: `${ctx.server.url}/api/v2` },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: "bkdfo_abc", deleted: true });
    const req = ctx.server.requests[0]!;
    expect([req.method, req.path]).toEqual(["DELETE", "/api/v2/backends/failover/bkdfo_abc"]);
    expectContractHeaders(req, false);
  });
});

// `edgectl failover get`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) the whole CLI in-process (test/helpers/app.ts) against a recording fault server: what it
// sends and prints. The batch semantics get shares with delete (stdin ids, order, failures, exit
// code) are in test/commands/failover-batch.test.ts, test/app/batch-output.test.ts and test/batch/.
import { describe, expect, it } from "vitest";
import { del } from "../../../src/commands/failover/delete.js";
import { get } from "../../../src/commands/failover/get.js";
import { parse, refusal } from "../parse.js";
import { appSandbox } from "../../helpers/app.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { json } from "../../helpers/fault-server.js";
import { FB } from "../../e2e/support.js";

describe("failover get and delete argv → options", () => {
  it("keeps the ids as typed (checked once stdin is read) with concurrency 8 by default", async () => {
    expect((await parse(get, ["bkdfo_1", "-"])).options).toEqual({ ids: ["bkdfo_1", "-"], concurrency: 8 });
    expect((await parse(del, ["bkdfo_1", "-y", "--concurrency", "64"])).options).toEqual({
      ids: ["bkdfo_1"],
      yes: true,
      concurrency: 64,
      dryRun: false,
    });
  });

  it.each(["0", "65", "eight", "1.5", "-1", "1000", " 8"])("refuses --concurrency %s", async (value) => {
    expect((await refusal(get, ["bkdfo_1", "--concurrency", value])).message).toBe(
      `--concurrency: "${value}" must be a whole number from 1 to 64`,
    );
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, fb, expectContractHeaders } = ctx;

  it("several ids: one GET each, results printed in input order whatever order the answers come", async () => {
    // The first id answers last, so a result list in completion order would be wrong.
    ctx.server.fallback = (req) => {
      const id = req.path.split("/").pop()!;
      return { status: 200, body: fb(id), delayMs: id === "bkdfo_first" ? 150 : 0 };
    };
    const r = await run(["failover", "get", "bkdfo_first", "bkdfo_second", "bkdfo_third", "-o", "json"], {
      env: env(),
    });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id)).toEqual([
      "bkdfo_first",
      "bkdfo_second",
      "bkdfo_third",
    ]);
    expect(ctx.server.requests.map((q) => `${q.method} ${q.path}`).sort()).toEqual([
      "GET /backends/failover/bkdfo_first",
      "GET /backends/failover/bkdfo_second",
      "GET /backends/failover/bkdfo_third",
    ]);
    for (const q of ctx.server.requests) expectContractHeaders(q, false);
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

  it("GET carries every contract header and no body", async () => {
    ctx.server.script(json(200, FB));
    const r = await run(["failover", "get", "bkdfo_abc", "--json"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(JSON.stringify(FB, null, 2)); // two-space pretty JSON, fields as the API sent them
    expectContractHeaders(ctx.server.requests[0]!, false);
  });
});

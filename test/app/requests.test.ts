// What the server receives: method, path, headers and the exact body of each command.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/requests.test.ts.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { json } from "../helpers/fault-server.js";
import { useRequestsSuite } from "../e2e/requests.support.js";

const ctx = useRequestsSuite(appSandbox);
const { run, env, fb, expectContractHeaders } = ctx;

describe("failover get/list/update/delete requests", () => {
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

  it("list without --all reads one page only", async () => {
    ctx.server.script(
      json(200, {
        backends: [fb("bkdfo_3")],
        uri: "u",
        next_page_uri: `${ctx.server.url}/backends/failover?before_id=bkdfo_3`,
      }),
    );
    const r = await run(["failover", "list", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests.map((q) => q.path)).toEqual(["/backends/failover"]);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

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

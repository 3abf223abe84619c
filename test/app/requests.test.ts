// What the server receives: method, path, headers and the exact body of each command.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/requests.test.ts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { FB } from "../e2e/support.js";
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

describe("webhook verification requests", () => {
  const replace = (...extra: string[]) => ["webhook-verification", "replace", "edghts_e1", "edghtsrt_r1", ...extra];
  const moduleReply = (): Reply => json(200, { enabled: true, provider: "github", secret: "whatever" });

  it("takes the secret from --secret-stdin (one trailing newline dropped)", async () => {
    ctx.server.script(moduleReply());
    const r = await run(replace("--provider", "github", "--secret-stdin"), { env: env(), input: "from stdin  \n" });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"github","secret":"from stdin  "}');
  });

  it("takes the secret from --secret-file (one trailing newline dropped)", async () => {
    const file = join(ctx.scratch, "gh.secret");
    writeFileSync(file, "file-secret\n\n", { mode: 0o600 });
    ctx.server.script(moduleReply());
    const r = await run(replace("--provider", "github", "--secret-file", file), { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"github","secret":"file-secret\\n"}');
  });

  it("takes the secret from EDGECTL_WEBHOOK_SECRET when no flag gives one", async () => {
    ctx.server.script(moduleReply());
    const r = await run(replace("--provider", "stripe"), { env: { ...env(), EDGECTL_WEBHOOK_SECRET: "env-secret" } });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"stripe","secret":"env-secret"}');
  });

  it("a flag wins over EDGECTL_WEBHOOK_SECRET", async () => {
    ctx.server.script(moduleReply());
    const r = await run(replace("--provider", "stripe", "--secret", "flag-secret"), {
      env: { ...env(), EDGECTL_WEBHOOK_SECRET: "env-secret" },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(ctx.server.requests[0]!.body).secret).toBe("flag-secret");
  });

  it("sends the provider in lower case, whatever case was typed", async () => {
    ctx.server.script(moduleReply(), moduleReply());
    const a = await run(replace("--provider", "GitHub", "--secret", "abcd1"), { env: env() });
    const b = await run(replace("--provider", "LAUNCH_DARKLY", "--secret", "abcd2"), { env: env() });
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(ctx.server.requests.map((q) => JSON.parse(q.body).provider)).toEqual(["github", "launch_darkly"]);
  });

  it("sns sends no secret key at all", async () => {
    ctx.server.script(json(200, { enabled: true, provider: "sns" }));
    const r = await run(replace("--provider", "SNS"), { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"sns"}');
  });

  it("--disabled sends enabled false", async () => {
    ctx.server.script(json(200, { enabled: false, provider: "slack", secret: "x" }));
    const r = await run(replace("--provider", "slack", "--secret", "slack-secret", "--disabled"), { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"enabled":false,"provider":"slack","secret":"slack-secret"}');
  });
});

describe("edgectl api", () => {
  it("sends the --input - body as JSON", async () => {
    ctx.server.script(json(200, FB));
    const r = await run(["api", "PATCH", "/backends/failover/bkdfo_abc", "--input", "-"], {
      env: env(),
      input: '{ "description": "eu" }',
    });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toBe('{"description":"eu"}');
    expectContractHeaders(ctx.server.requests[0]!, true);
  });

  it("prints the API's error body on stdout (like gh api) and exits 1", async () => {
    ctx.server.script(apiError(404, "not found", "ERR_NGROK_404"));
    const r = await run(["api", "GET", "/backends/failover/bkdfo_nope"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 404, msg: "not found" });
    expect(r.stderr).toMatch(/^error: /);
  });
});

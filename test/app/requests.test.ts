// What the server receives: method, path, headers and the exact body of each command.
// Run in-process (test/helpers/app.ts).
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { json, type Reply } from "../helpers/fault-server.js";
import { useRequestsSuite } from "../e2e/requests.support.js";
import { FB } from "../e2e/support.js";

describe("the cases that ran the real bin, in-process", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, fb, expectContractHeaders } = ctx;

  describe("failover create request", () => {
    it("posts backends from comma lists and repeated flags in order, with only the fields given", async () => {
      ctx.server.script(json(201, FB));
      const r = await run(
        ["failover", "create", "--backends", "bkdhr_a,bkdtg_b", "--backends", "bkdwd_c", "--description", "eu"],
        { env: env() },
      );
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests).toHaveLength(1);
      const req = ctx.server.requests[0]!;
      expect(req.method).toBe("POST");
      expect(req.path).toBe("/backends/failover");
      expect(req.body).toBe('{"backends":["bkdhr_a","bkdtg_b","bkdwd_c"],"description":"eu"}');
      expect(req.headers.authorization).toBe("Bearer key_e2e_1234567890");
      expect(req.headers["ngrok-version"]).toBe("2");
      expect(req.headers.accept).toBe("application/json");
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers["user-agent"]).toMatch(/^edgectl\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+$/);
    });
  });

  describe("failover get/list/update/delete requests", () => {
    it("GET carries every contract header and no body", async () => {
      ctx.server.script(json(200, FB));
      const r = await run(["failover", "get", "bkdfo_abc", "--json"], { env: env() });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(JSON.stringify(FB, null, 2)); // two-space pretty JSON, fields as the API sent them
      expectContractHeaders(ctx.server.requests[0]!, false);
    });

    it("list sends GET with ?limit= and --all follows next_page_uri to the end", async () => {
      ctx.server.script(
        json(200, {
          backends: [fb("bkdfo_3"), fb("bkdfo_2")],
          uri: "u",
          next_page_uri: `${ctx.server.url}/backends/failover?limit=2&before_id=bkdfo_2`,
        }),
        json(200, { backends: [fb("bkdfo_1")], uri: "u", next_page_uri: null }),
      );
      const r = await run(["failover", "list", "--limit", "2", "--all", "-o", "json"], { env: env() });
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id)).toEqual(["bkdfo_3", "bkdfo_2", "bkdfo_1"]);
      expect(ctx.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
        "GET /backends/failover?limit=2",
        "GET /backends/failover?limit=2&before_id=bkdfo_2",
      ]);
      for (const q of ctx.server.requests) expectContractHeaders(q, false);
    });

    it("update sends PATCH with only the fields given", async () => {
      ctx.server.script(json(200, FB), json(200, FB), json(200, FB));
      const a = await run(["failover", "update", "bkdfo_abc", "--description", "new"], { env: env() });
      const b = await run(
        ["failover", "update", "bkdfo_abc", "--backends", "bkdhr_b,bkdhr_a", "--backends", "bkdtg_c", "--metadata", ""],
        { env: env() },
      );
      const c = await run(["failover", "update", "bkdfo_abc", "--description", ""], { env: env() });
      expect([a.exitCode, b.exitCode, c.exitCode]).toEqual([0, 0, 0]);
      expect(ctx.server.requests.map((q) => [q.method, q.path, q.body])).toEqual([
        ["PATCH", "/backends/failover/bkdfo_abc", '{"description":"new"}'],
        ["PATCH", "/backends/failover/bkdfo_abc", '{"backends":["bkdhr_b","bkdhr_a","bkdtg_c"],"metadata":""}'],
        ["PATCH", "/backends/failover/bkdfo_abc", '{"description":""}'],
      ]);
      for (const q of ctx.server.requests) expectContractHeaders(q, true);
    });

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

  describe("webhook verification requests", () => {
    const path = "/edges/https/edghts_e1/routes/edghtsrt_r1/webhook_verification";
    const replace = (...extra: string[]) => ["webhook-verification", "replace", "edghts_e1", "edghtsrt_r1", ...extra];
    const moduleReply = (): Reply => json(200, { enabled: true, provider: "github", secret: "whatever" });

    it("replace sends PUT {enabled, provider, secret} with the secret from --secret", async () => {
      ctx.server.script(moduleReply());
      const r = await run(replace("--provider", "github", "--secret", "s3cret-flag"), { env: env() });
      expect(r.exitCode).toBe(0);
      const req = ctx.server.requests[0]!;
      expect([req.method, req.path]).toEqual(["PUT", path]);
      expect(req.body).toBe('{"enabled":true,"provider":"github","secret":"s3cret-flag"}');
      expectContractHeaders(req, true);
    });

    it("get sends GET and delete sends DELETE to …/webhook_verification, with a prefix kept", async () => {
      ctx.server.script(moduleReply(), { status: 204 });
      const e = { ...env(), EDGECTL_BASE_URL: `${ctx.server.url}/p` };
      const g = await run(["webhook-verification", "get", "edghts_e1", "edghtsrt_r1"], { env: e });
      const d = await run(["webhook-verification", "delete", "edghts_e1", "edghtsrt_r1", "--yes"], { env: e });
      expect([g.exitCode, d.exitCode]).toEqual([0, 0]);
      expect(ctx.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /p${path}`, `DELETE /p${path}`]);
      for (const q of ctx.server.requests) expectContractHeaders(q, false);
    });
  });

  describe("edgectl api", () => {
    it("sends a raw authenticated request and prints the JSON body", async () => {
      ctx.server.script(json(200, { backends: [], uri: "u", next_page_uri: null }));
      const r = await run(["api", "get", "/backends/failover?limit=5"], { env: env() });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ backends: [], uri: "u", next_page_uri: null });
      expect(ctx.server.requests[0]!.method).toBe("GET");
      expect(ctx.server.requests[0]!.path).toBe("/backends/failover?limit=5");
      expectContractHeaders(ctx.server.requests[0]!, false);
    });
  });

  describe("completion", () => {
    it.each(["bash", "zsh", "fish"])("prints a %s script that mentions the commands", async (shell) => {
      const r = await run(["completion", shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("edgectl");
      expect(r.stdout).toContain("failover");
      expect(r.stdout).toContain("webhook-verification");
      expect(r.stderr).toBe("");
    });
  });
});

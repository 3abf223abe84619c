// `edgectl webhook-verification get`: the whole CLI in-process (test/helpers/app.ts) against
// the emulator: the secret masked in a table and in JSON, shown with --show-secret.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../../helpers/app.js";
import { get as argvDef } from "../../../src/commands/webhook-verification/get.js";
import { parse as parseArgv, refusal } from "../parse.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { json } from "../../helpers/fault-server.js";
import type { Reply } from "../../helpers/fault-server.js";
import { useStandIns } from "../../helpers/stand-ins.js";

describe("webhook-verification get argv → options", () => {
  it.each([
    [["edghts_1", "edghtsrt_1"], { edgeId: "edghts_1", routeId: "edghtsrt_1", showSecret: false }],
    [["edghts_1", "edghtsrt_1", "--show-secret"], { edgeId: "edghts_1", routeId: "edghtsrt_1", showSecret: true }],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([
    [["edghts_1"], "error: missing required argument 'route-id'"],
    [["x", "edghtsrt_1"], '<edge-id>: "x" must be edghts_ followed by 1–64 letters or digits'],
  ] as [string[], string][])("refuses %j", async (argv, message) => {
    expect((await refusal(argvDef, argv)).message).toBe(message);
  });
});

describe("against the emulator (in-process)", () => {
  const { run, ok, route } = useStandIns();

  describe("webhook-verification get against the emulator", () => {
    const replace = (edge: string, rt: string) =>
      run(["webhook-verification", "replace", edge, rt, "--provider", "stripe", "--secret", "whsec_more_1234"]);

    it("get in a table masks the secret; -o json too; --show-secret shows it", async () => {
      const [edge, rt] = await route();
      ok(await replace(edge, rt));
      const t = ok(await run(["webhook-verification", "get", edge, rt]));
      expect(t.stdout).toMatch(/^SECRET\s+\*{8}$/m);
      expect(t.stdout).not.toContain("whsec_more_1234");
      const s = ok(await run(["webhook-verification", "get", edge, rt, "--show-secret", "-o", "json"]));
      expect(JSON.parse(s.stdout).secret).toBe("whsec_more_1234");
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;
  const path = "/edges/https/edghts_e1/routes/edghtsrt_r1/webhook_verification";
  const moduleReply = (): Reply => json(200, { enabled: true, provider: "github", secret: "whatever" });

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

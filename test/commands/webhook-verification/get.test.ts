// `edgectl webhook-verification get`: the whole CLI in-process (test/helpers/app.ts) against
// the emulator: the secret masked in a table and in JSON, shown with --show-secret.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";
import type { RunOptions } from "../../helpers/cli.js";
import { makeRoute, startInProcessEmulator } from "../../helpers/emulator.js";
import { startFaultServer, type FaultServer } from "../../helpers/fault-server.js";
import { runCli, type TextResult } from "../../e2e/support.js";
import { get as argvDef } from "../../../src/commands/webhook-verification/get.js";
import { parse as parseArgv, refusal } from "../parse.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { json } from "../../helpers/fault-server.js";
import type { Reply } from "../../helpers/fault-server.js";

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
  const KEY = "key_more_commands_0123456789";

  let cli: AppSandbox;
  let emu: Awaited<ReturnType<typeof startInProcessEmulator>>;
  let server: FaultServer;
  let defaultFallback: FaultServer["fallback"];
  let scratch: string;
  beforeAll(async () => {
    cli = appSandbox();
    scratch = mkdtempSync(join(tmpdir(), "edgectl-more-"));
    [emu, server] = await Promise.all([startInProcessEmulator(), startFaultServer()]);
    defaultFallback = server.fallback;
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await Promise.all([emu?.stop(), server?.close()]);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    cli?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterEach(() => {
    server.fallback = defaultFallback;
  });

  /** Against the shared emulator. */
  const run = (args: string[], opts: RunOptions = {}) =>
    runCli(cli, args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emu.url, ...opts.env } });

  function ok(r: TextResult): TextResult {
    if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r;
  }

  /** A fresh edge/route pair on the shared emulator, made through the API. */
  const route = async () => {
    const made = await makeRoute(emu.url);
    return [made.edgeId, made.routeId] as const;
  };

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

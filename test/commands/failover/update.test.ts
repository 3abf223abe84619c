// `edgectl failover update`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps (--dry-run), and the whole CLI in-process (test/helpers/app.ts)
// against the emulator: refusals and what changes.
import { describe, expect, it } from "vitest";
import { update, run as updateRun } from "../../../src/commands/failover/update.js";
import { parse, refusal } from "../parse.js";
import { fakeDeps } from "../fake-deps.js";
import { appSandbox } from "../../helpers/app.js";
import { type Failover } from "../../e2e/support.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { json } from "../../helpers/fault-server.js";
import { FB } from "../../e2e/support.js";
import { useStandIns } from "../../helpers/stand-ins.js";

describe("failover update argv → options", () => {
  it("sends only the fields given", async () => {
    const { options } = await parse(update, ["bkdfo_1", "--description", ""]);
    expect(options).toEqual({
      id: "bkdfo_1",
      backends: undefined,
      description: "",
      metadata: undefined,
      dryRun: false,
    });
  });

  it("refuses nothing to change", async () => {
    expect((await refusal(update, ["bkdfo_1", "--dry-run"])).message).toBe(
      "nothing to update: give at least one of --backends, --description, --metadata",
    );
  });

  it("names <id> for a bad id before anything else", async () => {
    expect((await refusal(update, ["bkdhr_1"])).message).toMatch(/^<id>: "bkdhr_1" must be bkdfo_/);
  });
});

describe("failover update --dry-run", () => {
  it("prints the PATCH with only the fields given, an empty description included", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await updateRun({ id: "bkdfo_1", description: "", dryRun: true }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(JSON.parse(deps.out.text).request).toEqual({
      method: "PATCH",
      url: "https://api.example.test/backends/failover/bkdfo_1",
      body: { description: "" },
    });
  });
});

describe("against the emulator (in-process)", () => {
  const { server, run, runF, ok } = useStandIns();

  async function create(...flags: string[]): Promise<Failover> {
    return JSON.parse(ok(await run(["failover", "create", ...flags, "-o", "json"])).stdout) as Failover;
  }

  describe("failover update", () => {
    it("against the emulator: replaces the backends in the order given and leaves the other fields alone", async () => {
      const fb = await create("--backends", "bkdhr_u1,bkdtg_u2", "--description", "keep me", "--metadata", "keep=1");
      const r = ok(
        await run(["failover", "update", fb.id, "--backends", "bkdwd_u3", "--backends", "bkdhr_u1", "-o", "json"]),
      );
      expect(JSON.parse(r.stdout)).toEqual({ ...fb, backends: ["bkdwd_u3", "bkdhr_u1"] });
      const again = ok(await run(["failover", "get", fb.id, "-o", "json"]));
      expect(JSON.parse(again.stdout)).toEqual({ ...fb, backends: ["bkdwd_u3", "bkdhr_u1"] });
    });

    it.each([
      ["a lone comma", ","],
      ["a trailing comma", "bkdhr_a,"],
      ["a blank", " "],
      ["two commas", "bkdhr_a,,bkdhr_b"],
    ])("--backends with %s is refused: exit 2, no empty backend list is ever sent", async (_name, value) => {
      const r = await runF(["failover", "update", "bkdfo_abc", "--backends", value]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: --backends/);
      expect(server.requests).toEqual([]);
    });

    it("with no fields, even --dry-run is refused and names the flags", async () => {
      const r = await runF(["failover", "update", "bkdfo_abc", "--dry-run"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/--backends.*--description.*--metadata/);
      expect(server.requests).toEqual([]);
    });

    it("of an id the emulator does not know: 404, exit 1, nothing on stdout", async () => {
      const r = await run(["failover", "update", "bkdfo_nosuch1", "--description", "x"]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: .*404/);
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

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
});

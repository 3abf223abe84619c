// `edgectl webhook-verification delete`: (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts) against the
// emulator: --yes, refusal away from a terminal (the prompt at a real terminal is in
// e2e/terminal-delete.test.ts; confirmDeletion itself in test/commands/confirm.test.ts).
import { describe, expect, it } from "vitest";
import { del } from "../../../src/commands/webhook-verification/delete.js";
import { parse, refusal } from "../parse.js";
import { useStandIns } from "../../helpers/stand-ins.js";

describe("webhook-verification delete argv → options", () => {
  it("reads -y and --dry-run as switches", async () => {
    expect((await parse(del, ["edghts_1", "edghtsrt_2", "-y"])).options).toEqual({
      edgeId: "edghts_1",
      routeId: "edghtsrt_2",
      yes: true,
      dryRun: false,
    });
  });

  it("names <route-id> for a bad route id", async () => {
    expect((await refusal(del, ["edghts_1", "edghts_2"])).message).toMatch(/^<route-id>: "edghts_2" must be edghtsrt_/);
  });
});

describe("against the emulator (in-process)", () => {
  const { run, ok, route } = useStandIns();

  describe("webhook-verification delete against the emulator", () => {
    const replace = (edge: string, rt: string) =>
      run(["webhook-verification", "replace", edge, rt, "--provider", "stripe", "--secret", "whsec_more_1234"]);

    it("delete without a terminal and without --yes refuses, even with stdin piped in, and the module stays", async () => {
      const [edge, rt] = await route();
      ok(await replace(edge, rt));
      for (const input of [undefined, "y\n"]) {
        const r = await run(["webhook-verification", "delete", edge, rt], input === undefined ? {} : { input });
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/^error: .*--yes/);
      }
      const g = ok(await run(["webhook-verification", "get", edge, rt, "-o", "json"]));
      expect(JSON.parse(g.stdout)).toEqual({ enabled: true, provider: "stripe", secret: "********" });
    });

    it("delete --yes prints {id, deleted}; then get is 404 (exit 1), and deleting again is still 204 (as the API does)", async () => {
      const [edge, rt] = await route();
      ok(await replace(edge, rt));
      const d = ok(await run(["webhook-verification", "delete", edge, rt, "--yes", "-o", "json"]));
      expect(JSON.parse(d.stdout)).toEqual({ id: `${edge}/${rt}`, deleted: true });
      const g = await run(["webhook-verification", "get", edge, rt]);
      expect(g.exitCode).toBe(1);
      expect(g.stdout).toBe("");
      expect(g.stderr).toMatch(/^error: .*404/);
      const again = ok(await run(["webhook-verification", "delete", edge, rt, "--yes"]));
      expect(again.stdout).toMatch(new RegExp(`^${edge}/${rt}\\s+true$`, "m"));
    });
  });
});

import { describe, expect, it } from "vitest";
import { edge } from "../../src/commands/migrate/edge.js";
import { parse, refusal } from "./parse.js";

describe("migrate edge argv → options", () => {
  it("collects repeated --map in order", async () => {
    const { options } = await parse(edge, [
      "edghts_1",
      "--map",
      "bkdwd_1=https://a.internal",
      "--map",
      "bkdsc_2=https://b.internal",
      "--apply",
    ]);
    expect(options).toEqual({
      edgeIds: ["edghts_1"],
      all: false,
      maps: ["bkdwd_1=https://a.internal", "bkdsc_2=https://b.internal"],
      showSecret: false,
      apply: true,
      allowPartial: false,
      dryRun: false,
    });
  });

  it("refuses --allow-partial without --apply or --dry-run", async () => {
    expect((await refusal(edge, ["edghts_1", "--allow-partial"])).message).toBe(
      "--allow-partial is only for --apply (or --dry-run)",
    );
    expect((await parse(edge, ["edghts_1", "--allow-partial", "--dry-run"])).calls).toBe(1);
  });

  it("takes several ids of the three kinds, or --all, never both or neither", async () => {
    expect((await parse(edge, ["edghts_1", "edgtls_2", "edgtcp_3"])).options).toMatchObject({
      edgeIds: ["edghts_1", "edgtls_2", "edgtcp_3"],
      all: false,
    });
    expect((await parse(edge, ["--all"])).options).toMatchObject({ edgeIds: [], all: true });
    expect((await refusal(edge, ["edghts_1", "--all"])).message).toBe("give edge ids or --all, not both");
    expect((await refusal(edge, [])).message).toBe("give edge ids or --all");
    expect((await refusal(edge, ["edghtsrt_1"])).message).toMatch(/edghts_, edgtls_ or edgtcp_/);
  });
});

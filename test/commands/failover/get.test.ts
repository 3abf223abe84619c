// `edgectl failover get`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) the batch semantics get shares with delete (stdin ids, order, failures, exit code) are in
// test/commands/failover-batch.test.ts and test/batch/; the requests in test/app/requests.test.ts.
import { describe, expect, it } from "vitest";
import { del } from "../../../src/commands/failover/delete.js";
import { get } from "../../../src/commands/failover/get.js";
import { parse, refusal } from "../parse.js";

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

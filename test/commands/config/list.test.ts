// `edgectl config list`: the command line → options or refusal (test/commands/parse.ts); its run
// is held with set's, in one round trip, in test/commands/config/set.test.ts.
import { describe, expect, it } from "vitest";
import { listVerb as listDef } from "../../../src/commands/config/verbs.js";
import { parse, refusal } from "../parse.js";

describe("config list argv → options", () => {
  it.each([[[], {}]])("reads %j", async (argv, options) => {
    expect((await parse(listDef, argv)).options).toEqual(options);
  });

  it.each([[["extra"], "error: too many arguments for 'list'. Expected 0 arguments but got 1."]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(listDef, argv)).message).toBe(message);
    },
  );
});

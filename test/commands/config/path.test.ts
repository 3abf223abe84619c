// `edgectl config path`: the command line → options or refusal (test/commands/parse.ts); its run
// is held with set's, in one round trip, in test/commands/config/set.test.ts.
import { describe, expect, it } from "vitest";
import { pathVerb as pathDef } from "../../../src/commands/config/verbs.js";
import { parse, refusal } from "../parse.js";

describe("config path argv → options", () => {
  it.each([[[], {}]])("reads %j", async (argv, options) => {
    expect((await parse(pathDef, argv)).options).toEqual(options);
  });

  it.each([[["x"], "error: too many arguments for 'path'. Expected 0 arguments but got 1."]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(pathDef, argv)).message).toBe(message);
    },
  );
});

// `edgectl config unset`: the command line → options or refusal (test/commands/parse.ts); its run
// is held with set's, in one round trip, in test/commands/config/set.test.ts.
import { describe, expect, it } from "vitest";
import { unsetVerb as unsetDef } from "../../../src/commands/config/verbs.js";
import { parse, refusal } from "../parse.js";

describe("config unset argv → options", () => {
  it.each([[["base_url"], { key: "base_url" }]])("reads %j", async (argv, options) => {
    expect((await parse(unsetDef, argv)).options).toEqual(options);
  });

  it.each([[["x"], '<key>: "x" is not a setting; use one of api_key, base_url, output, timeout, retries']])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(unsetDef, argv)).message).toBe(message);
    },
  );
});

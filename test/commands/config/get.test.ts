// `edgectl config get`: the command line → options or refusal (test/commands/parse.ts); its run
// is held with set's, in one round trip, in test/commands/config/set.test.ts.
import { describe, expect, it } from "vitest";
import { getVerb as getDef } from "../../../src/commands/config/verbs.js";
import { parse, refusal } from "../parse.js";

describe("config get argv → options", () => {
  it.each([[["api_key"], { key: "api_key" }]])("reads %j", async (argv, options) => {
    expect((await parse(getDef, argv)).options).toEqual(options);
  });

  it.each([
    [["nope"], '<key>: "nope" is not a setting; use one of api_key, base_url, output, timeout, retries'],
    [[], "error: missing required argument 'key'"],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(getDef, argv)).message).toBe(message);
  });
});

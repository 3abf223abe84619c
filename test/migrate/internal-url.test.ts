import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { isInternalUrl, parseMaps, tunnelGroupUrl } from "../../src/migrate/internal-url.js";

describe("--map values", () => {
  it("reads repeated id=url pairs", () => {
    expect([...parseMaps(["bkdwd_1=https://api.internal", "bkdsc_2=https://db.eu.internal:8443"])]).toEqual([
      ["bkdwd_1", "https://api.internal"],
      ["bkdsc_2", "https://db.eu.internal:8443"],
    ]);
  });

  it.each([
    ["no =", "bkdwd_1"],
    ["no url", "bkdwd_1="],
    ["not a backend id", "edghts_1=https://a.internal"],
    ["http", "bkdwd_1=http://a.internal"],
    ["not .internal", "bkdwd_1=https://a.example.com"],
    ["internal only as a prefix", "bkdwd_1=https://a.internal.example.com"],
    ["credentials", "bkdwd_1=https://u:p@a.internal"],
    ["not a URL", "bkdwd_1=://"],
  ])("refuses %s (%s) as a usage error", (_name, value) => {
    expect(() => parseMaps([value])).toThrow(UsageError);
  });

  it("refuses one id mapped to two URLs", () => {
    expect(() => parseMaps(["bkdwd_1=https://a.internal", "bkdwd_1=https://b.internal"])).toThrow(/mapped twice/);
  });

  it("accepts the URL a tunnel group is given", () => {
    expect(isInternalUrl(tunnelGroupUrl({ "a b": "C!" })!)).toBe(true);
    expect(tunnelGroupUrl({})).toBeUndefined();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance, nearest } from "../../src/api-data/did-you-mean.js";
import { PROVIDERS, isProvider, providerNeedsSecret, suggestProvider } from "../../src/api-data/providers.js";

describe("isProvider", () => {
  it.each(["github", "stripe", "slack", "sns", "facebook_graph_api", "go1", "zoom", "aftership"])("accepts %s", (p) => {
    expect(isProvider(p)).toBe(true);
  });

  it.each(["GitHub", "GITHUB", "githb", "", " github", "github ", "facebook-graph-api", "aws_sns"])(
    "refuses %j (exact lower-case names only)",
    (p) => {
      expect(isProvider(p)).toBe(false);
    },
  );

  it("knows all 69 providers of the contract", () => {
    expect(PROVIDERS).toHaveLength(69);
    expect(new Set(PROVIDERS).size).toBe(PROVIDERS.length);
    for (const p of PROVIDERS) expect(p).toBe(p.toLowerCase());
  });
});

describe("suggestProvider", () => {
  it("counts two swapped letters as one typo (slakc → slack)", () => {
    expect(suggestProvider("slakc")).toBe("slack");
    expect(editDistance("slakc", "slack")).toBe(1);
  });

  it("suggests github for githb", () => {
    expect(suggestProvider("githb")).toBe("github");
  });

  it("suggests stripe for strip", () => {
    expect(suggestProvider("strip")).toBe("stripe");
  });

  it("suggests slack for a lower-cased Slack typo", () => {
    expect(suggestProvider("Slak".toLowerCase())).toBe("slack");
  });

  it("suggests the exact provider for a different letter case", () => {
    expect(suggestProvider("Slack")).toBe("slack");
  });

  it("suggests across a longer typo", () => {
    expect(suggestProvider("launchdarkly")).toBe("launch_darkly");
    expect(suggestProvider("microsoftteams")).toBe("microsoft_teams");
  });

  it.each(["zzzzzzzzzz", "notaprovider", "qwertyuiop", "", "x"])("suggests nothing for nonsense %j", (input) => {
    expect(suggestProvider(input)).toBeUndefined();
  });
});

describe("suggestProvider on a long input", () => {
  const counting = () => {
    const calls = { count: 0 };
    const distance = (a: string, b: string) => (calls.count++, editDistance(a, b));
    return { calls, distance };
  };

  it("compares no name with an input too long to be a typo of any (500 KB)", () => {
    const { calls, distance } = counting();
    expect(suggestProvider("github".repeat(85_000), distance)).toBeUndefined();
    expect(calls.count).toBe(0);
  });

  it("compares none of any names with an input too long to be a typo of them", () => {
    const { calls, distance } = counting();
    expect(nearest("x".repeat(500_000), ["retired", "read-only", "table", "json"], distance)).toBeUndefined();
    expect(calls.count).toBe(0);
  });

  it("compares only names within reach of the input's length", () => {
    const { calls, distance } = counting();
    expect(suggestProvider("trendmicro_conformityxx", distance)).toBe("trendmicro_conformity");
    expect(calls.count).toBeGreaterThan(0);
    expect(calls.count).toBeLessThan(PROVIDERS.length);
  });

  it("suggests what comparing every name would", () => {
    const everyName = (input: string) => {
      const needle = input.toLowerCase();
      let best: string | undefined;
      let bestDistance = Infinity;
      for (const p of PROVIDERS) {
        const d = editDistance(needle, p);
        if (d < bestDistance) [best, bestDistance] = [p, d];
      }
      return bestDistance <= Math.max(1, Math.floor(needle.length / 3)) ? best : undefined;
    };
    const typo = fc
      .tuple(fc.constantFrom(...PROVIDERS), fc.string({ maxLength: 12 }), fc.nat(30), fc.nat(30))
      .map(
        ([p, extra, at, cut]) => p.slice(0, at % (p.length + 1)) + extra + p.slice((at % (p.length + 1)) + (cut % 4)),
      );
    fc.assert(
      fc.property(fc.oneof(typo, fc.string({ maxLength: 40 })), (input) => {
        expect(suggestProvider(input)).toBe(everyName(input));
      }),
      { numRuns: 100 },
    );
  });
});

describe("providerNeedsSecret", () => {
  it("is false only for sns", () => {
    expect(providerNeedsSecret("sns")).toBe(false);
    for (const p of PROVIDERS.filter((x) => x !== "sns")) expect(providerNeedsSecret(p)).toBe(true);
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("githb", "github")).toBe(1);
  });
});

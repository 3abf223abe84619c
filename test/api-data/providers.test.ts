import { describe, expect, it } from "vitest";
import {
  PROVIDERS,
  editDistance,
  isProvider,
  providerNeedsSecret,
  suggestProvider,
} from "../../src/api-data/providers.js";

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

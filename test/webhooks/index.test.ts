// The table: one scheme per ngrok provider id, each citing its docs page and its official
// library, found by schemeFor whatever the letter case.
import { describe, expect, it } from "vitest";
import { isProvider, PROVIDERS } from "../../src/api-data/providers.js";
import { SCHEMES, schemeFor } from "../../src/webhooks/index.js";

describe("SCHEMES", () => {
  it("holds only ngrok's provider ids, once each, in ngrok's order", () => {
    const ids = SCHEMES.map((s) => s.provider);
    expect(ids.filter((id) => !isProvider(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(PROVIDERS.filter((p) => ids.includes(p)));
  });

  it("cite a docs page or an official library (repo and path) for each scheme", () => {
    for (const s of SCHEMES) {
      // Several providers publish no library (Bitbucket, Xero…); Pusher and Worldline no page on it.
      expect(
        s.sources.some((src) => src.startsWith("https://") || /^[\w.-]+\/[\w.-]+ \S/.test(src)),
        s.provider,
      ).toBe(true);
      for (const h of s.secretHeaders ?? []) expect(s.headers).toContain(h);
    }
  });

  it("are found by schemeFor in any case; a provider without one is undefined", () => {
    expect(schemeFor("GitHub")?.name).toBe("GitHub");
    expect(schemeFor("sns")?.key).toBe("public-key");
    expect(schemeFor("mailchimp")).toBeUndefined();
  });
});

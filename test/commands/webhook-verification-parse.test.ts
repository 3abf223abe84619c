import { describe, expect, it } from "vitest";
import { del } from "../../src/commands/webhook-verification/delete.js";
import { replace } from "../../src/commands/webhook-verification/replace.js";
import { parse, refusal } from "./parse.js";

describe("webhook-verification replace argv → options", () => {
  it("lower-cases the provider and keeps the secret sources as typed (read only when it runs)", async () => {
    const { options } = await parse(replace, [
      "edghts_1",
      "edghtsrt_2",
      "--provider",
      "GitHub",
      "--secret-file",
      "./s",
      "--disabled",
    ]);
    expect(options).toEqual({
      edgeId: "edghts_1",
      routeId: "edghtsrt_2",
      provider: "github",
      secretStdin: false,
      secretFile: "./s",
      secret: undefined,
      disabled: true,
      showSecret: false,
      dryRun: false,
    });
  });

  it("names <edge-id> before a bad provider, and --provider when it is missing", async () => {
    expect((await refusal(replace, ["edghts_../x", "edghtsrt_2", "--provider", "nope"])).message).toMatch(
      /^<edge-id>: "edghts_\.\.\/x" must be edghts_/,
    );
    expect((await refusal(replace, ["edghts_1", "edghtsrt_2"])).message).toBe(
      "--provider: required (e.g. github, stripe, slack, sns)",
    );
    expect((await refusal(replace, ["edghts_1", "edghtsrt_2", "--provider", ""])).message).toBe(
      "--provider: required (e.g. github, stripe, slack, sns)",
    );
  });
});

describe("webhook-verification delete argv → options", () => {
  it("reads -y and --dry-run as switches", async () => {
    expect((await parse(del, ["edghts_1", "edghtsrt_2", "-y"])).options).toEqual({
      edgeId: "edghts_1",
      routeId: "edghtsrt_2",
      yes: true,
      dryRun: false,
    });
  });

  it("names <route-id> for a bad route id", async () => {
    expect((await refusal(del, ["edghts_1", "edghts_2"])).message).toMatch(/^<route-id>: "edghts_2" must be edghtsrt_/);
  });
});

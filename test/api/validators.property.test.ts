// Property-based tests of the --provider check: any supported provider in any letter case
// is accepted and sent in lower case; anything else is refused, naming --provider, with a
// "did you mean" for a near miss and no raw control character in the message.
import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/api-data/did-you-mean.js";
import { PROVIDERS, isProvider, suggestProvider } from "../../src/api-data/providers.js";
import { replace } from "../../src/commands/webhook-verification/replace.js";
import { refusal } from "../helpers/refusal.js";

/** --provider as the declared command checks it (the route valid, nothing else given). */
const parseProvider = (provider: string | undefined) =>
  replace.parse({
    edgeId: "edghts_1",
    routeId: "edghtsrt_1",
    provider,
    secretStdin: false,
    disabled: false,
    showSecret: false,
    dryRun: false,
  }).provider;

const provider = fc.constantFrom(...PROVIDERS);
const known = (s: string) => (PROVIDERS as readonly string[]).includes(s.toLowerCase());
const RAW_CONTROL = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** One typo: a letter dropped, added, replaced, or two neighbours swapped. */
const typo = fc
  .tuple(
    provider,
    fc.nat(),
    fc.constantFrom("drop", "add", "replace", "swap"),
    fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_0123456789"),
  )
  .map(([p, n, kind, ch]) => {
    const i = n % p.length;
    switch (kind) {
      case "drop":
        return p.slice(0, i) + p.slice(i + 1);
      case "add":
        return p.slice(0, i) + ch + p.slice(i);
      case "replace":
        return p.slice(0, i) + ch + p.slice(i + 1);
      default:
        return i + 1 < p.length
          ? p.slice(0, i) + p[i + 1] + p[i] + p.slice(i + 2)
          : p.slice(0, i - 1) + p[i] + p[i - 1];
    }
  });

describe("--provider properties", () => {
  it("accepts every supported provider in any letter case, in lower case", () => {
    fc.assert(
      fc.property(fc.mixedCase(provider), (name) => {
        const parsed = parseProvider(name);
        expect(parsed).toBe(name.toLowerCase());
        expect(isProvider(parsed)).toBe(true);
      }),
    );
  });

  it("refuses every other string, naming --provider, with no raw control character", () => {
    const other = fc
      .oneof(
        fc.string(),
        fc.string({ unit: binary }),
        fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) }),
        fc
          .tuple(fc.mixedCase(provider), fc.constantFrom(" ", "\n", "\t", "-", "_", "\x1b[31m", "\u202e", "s", "1"))
          .map(([p, x]) => p + x),
        fc.tuple(fc.constantFrom(" ", "\x1b[2J", "\u200b", "-"), fc.mixedCase(provider)).map(([x, p]) => x + p),
        fc.mixedCase(provider).map((p) => p.replace(/_/g, "-")),
      )
      .filter((s) => s !== "" && !known(s));
    fc.assert(
      fc.property(other, (value) => {
        const message = refusal(() => parseProvider(value));
        expect(message).toMatch(/^--provider: ".*" is not a supported provider/s);
        expect(message).not.toMatch(RAW_CONTROL);
      }),
    );
  });

  it("refuses a missing or empty value as required", () => {
    expect(refusal(() => parseProvider(undefined))).toMatch(/^--provider: required/);
    expect(refusal(() => parseProvider(""))).toMatch(/^--provider: required/);
  });

  it("suggests a supported provider one edit away for a single typo, in any letter case", () => {
    fc.assert(
      fc.property(typo, fc.boolean(), (input, upper) => {
        fc.pre(!known(input));
        const value = upper ? input.toUpperCase() : input;
        const message = refusal(() => parseProvider(value));
        const hint = /did you mean "([^"]+)"\?/.exec(message);
        expect(hint, message).not.toBeNull();
        expect(isProvider(hint![1]!)).toBe(true);
        expect(editDistance(input, hint![1]!)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("only ever suggests a supported provider, and only one close enough to be a typo", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), typo, fc.string({ unit: fc.constantFrom(..."aeiostrnl_"), maxLength: 16 })),
        (input) => {
          const hint = suggestProvider(input);
          if (hint === undefined) return;
          expect(isProvider(hint)).toBe(true);
          expect(editDistance(input.toLowerCase(), hint)).toBeLessThanOrEqual(
            Math.max(1, Math.floor(input.length / 3)),
          );
        },
      ),
    );
  });
});

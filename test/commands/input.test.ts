import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { idSchema, maxBytes, parseInput } from "../../src/commands/input.js";
import { backendsSchema } from "../../src/commands/failover/fields.js";
import { descriptionSchema, metadataSchema } from "../../src/commands/flags.js";

const FIELD_LABELS = { backends: "--backends", description: "--description", metadata: "--metadata", id: "<id>" };

const Fields = z.object({
  id: z.optional(idSchema("failover")),
  backends: z.optional(backendsSchema()),
  description: z.optional(descriptionSchema()),
  metadata: z.optional(metadataSchema()),
});

function refusal(input: unknown): UsageError {
  try {
    parseInput(Fields, input, FIELD_LABELS);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("expected a UsageError");
}

const fits = (limit: number, value: string) => maxBytes(limit).safeParse(value).success;

describe("parseInput", () => {
  it("returns the parsed input when it is valid", () => {
    const input = { id: "bkdfo_1", backends: ["bkdhr_a", "bkdtg_b"], description: "eu pair" };
    expect(parseInput(Fields, input, FIELD_LABELS)).toEqual(input);
  });

  it("names the argument and the rule for a bad id", () => {
    const err = refusal({ id: "bkdfo_../x" });
    expect(err.message).toBe('<id>: "bkdfo_../x" must be bkdfo_ followed by 1–64 letters or digits');
  });

  it("names --backends and shows the offending element", () => {
    const err = refusal({ backends: ["bkdhr_ok", "BKDHR_bad"] });
    expect(err.message).toMatch(/^--backends: "BKDHR_bad" must be bkd \+ two lowercase letters/);
  });

  it("says at least one backend is needed for an empty list", () => {
    expect(refusal({ backends: [] }).message).toBe("--backends: needs at least one child backend id");
  });

  it("names --description and the byte limit", () => {
    const err = refusal({ description: "x".repeat(256) });
    expect(err.message).toMatch(/^--description: /);
    expect(err.message).toContain("must be at most 255 bytes of UTF-8");
    expect(err.message).toContain("(256 bytes)");
  });

  it("names --metadata and the byte limit", () => {
    expect(refusal({ metadata: "€".repeat(1366) }).message).toMatch(
      /^--metadata: .*must be at most 4096 bytes of UTF-8$/,
    );
  });

  it("cuts a long value in the message", () => {
    const err = refusal({ description: "y".repeat(1000) });
    expect(err.message).toContain(`"${"y".repeat(80)}…"`);
    expect(err.message).not.toContain("y".repeat(81));
  });

  it("escapes control characters of the value in the message", () => {
    const err = refusal({ id: "bkdfo_\x1b[31m\n" });
    expect(err.message).toContain('"bkdfo_\\x1b[31m\\n"');
    expect(err.message).not.toMatch(/[\x00-\x1f]/);
  });

  it("falls back to the key when there is no label", () => {
    expect(() => parseInput(z.object({ name: z.string() }), { name: 3 }, {})).toThrow(/^name: /);
  });
});

describe("maxBytes counts UTF-8 bytes", () => {
  it("accepts 255 ASCII bytes and refuses 256", () => {
    expect(fits(255, "a".repeat(255))).toBe(true);
    expect(fits(255, "a".repeat(256))).toBe(false);
  });

  it("accepts 85 euro signs (255 bytes) and refuses 86 (258 bytes)", () => {
    expect(fits(255, "€".repeat(85))).toBe(true);
    expect(fits(255, "€".repeat(86))).toBe(false);
  });

  it("counts a 4-byte emoji at the boundary", () => {
    expect(fits(255, `${"a".repeat(251)}😀`)).toBe(true);
    expect(fits(255, `${"a".repeat(252)}😀`)).toBe(false);
  });

  it("refuses a short string that is long in bytes", () => {
    const s = "😀".repeat(64); // 128 UTF-16 units, 256 bytes
    expect(s.length).toBeLessThan(255);
    expect(fits(255, s)).toBe(false);
  });

  it("accepts the empty string", () => {
    expect(fits(255, "")).toBe(true);
  });

  it("uses 4096 for metadata", () => {
    expect(metadataSchema().safeParse("m".repeat(4096)).success).toBe(true);
    expect(metadataSchema().safeParse("m".repeat(4097)).success).toBe(false);
  });

  it("agrees with Buffer.byteLength for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: binary, maxLength: 300 }), fc.integer({ min: 0, max: 600 }), (s, limit) => {
        expect(fits(limit, s)).toBe(Buffer.byteLength(s, "utf8") <= limit);
      }),
    );
  });
});

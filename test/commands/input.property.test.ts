// The plain checks of src/commands/input.ts stand in for zod on the happy path: each must
// accept only what its schema accepts, giving the schema's output, and leave every other
// value to the schema (which words the refusal).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { idList, strings, UNSURE, wholeNumberOr, type Checked } from "../../src/commands/input.js";

/** Strings and lists that come near what the checks accept, and values commander never gives. */
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.stringMatching(/^[ 0-9]{0,4}$/),
  fc.constantFrom(
    "0",
    "1",
    "8",
    "64",
    "65",
    "008",
    "1e1",
    "0x10",
    " 8",
    "8 ",
    "-1",
    "",
    "bkdfo_a",
    "bkdfo_",
    "bkdfo_a/b",
    "bkdhr_a",
    `bkdfo_${"a".repeat(65)}`,
  ),
  fc.stringMatching(/^bkdfo_[A-Za-z0-9_]{0,70}$/),
);
const input = fc.oneof(
  text,
  fc.array(text, { maxLength: 4 }),
  fc.constantFrom<unknown>(undefined, null, 8, [], [undefined], {}, true),
);

function agrees<S extends z.ZodMiniType>(field: Checked<S>) {
  fc.assert(
    fc.property(input, (value) => {
      const plain = field.plain(value);
      if (plain === UNSURE) return;
      const zod = field.schema().safeParse(value);
      expect(zod.success).toBe(true);
      expect(plain).toEqual(zod.data);
    }),
    { numRuns: 500 },
  );
}

describe("plain checks", () => {
  it("accept only what the schema accepts, with its output: strings", () => agrees(strings()));
  it("accept only what the schema accepts, with its output: failover ids", () => agrees(idList("failover")));
  it("accept only what the schema accepts, with its output: a whole number with a fallback", () => {
    agrees(wholeNumberOr(1, 64, 8));
    agrees(wholeNumberOr(0, 3, 2));
  });

  it("are sure of the values a happy path gives", () => {
    expect(strings().plain(["bkdfo_1", "-"])).toEqual(["bkdfo_1", "-"]);
    expect(idList("failover").plain(["bkdfo_1", "bkdfo_2"])).toEqual(["bkdfo_1", "bkdfo_2"]);
    expect(wholeNumberOr(1, 64, 8).plain(undefined)).toBe(8);
    expect(wholeNumberOr(1, 64, 8).plain("64")).toBe(64);
  });

  it("leave what the schema refuses to the schema", () => {
    expect(idList("failover").plain(["bkdfo_1", "bkdfo_../x"])).toBe(UNSURE);
    expect(wholeNumberOr(1, 64, 8).plain("65")).toBe(UNSURE);
    expect(strings().plain([1])).toBe(UNSURE);
  });
});

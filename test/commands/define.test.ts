// defineCommand's parse: fields with plain checks (src/commands/input.ts) take valid input
// without zod; anything else is judged and worded by zod, as for every other command.
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineCommand } from "../../src/commands/define.js";
import { strings, UNSURE, wholeNumberOr } from "../../src/commands/input.js";
import { UsageError } from "../../src/errors.js";

/** A command whose schemas count how often they are made. */
function counted(opts: { plainLimit: boolean }) {
  const made = { ids: 0, limit: 0 };
  const ids = strings();
  const limit = wholeNumberOr(1, 10, 5);
  const def = defineCommand({
    name: "probe",
    description: "",
    examples: [],
    args: { ids: { arg: "<id...>", help: "", ...ids, schema: () => (made.ids++, ids.schema()) } },
    flags: {
      limit: {
        flag: "--limit <n>",
        help: "",
        schema: () => (made.limit++, limit.schema()),
        ...(opts.plainLimit ? { plain: limit.plain } : {}),
      },
      dryRun: {
        flag: "--dry-run",
        help: "",
        schema: () => z.boolean(),
        plain: (v: unknown) => (typeof v === "boolean" ? v : UNSURE),
      },
    },
    rules: [{ ok: (o) => !(o.dryRun && o.limit > 3), message: "--dry-run takes --limit up to 3" }],
    run: async () => {},
  });
  return { def, made };
}

describe("defineCommand parse", () => {
  it("gives the options without making a schema when every field's plain check is sure", () => {
    const { def, made } = counted({ plainLimit: true });
    expect(def.parse({ ids: ["a", "b"], limit: undefined, dryRun: false })).toEqual({
      ids: ["a", "b"],
      limit: 5,
      dryRun: false,
    });
    expect(def.parse({ ids: ["a"], limit: "3", dryRun: true })).toEqual({ ids: ["a"], limit: 3, dryRun: true });
    expect(made).toEqual({ ids: 0, limit: 0 });
  });

  it("has zod word a value a plain check is unsure of, naming the flag", () => {
    const { def, made } = counted({ plainLimit: true });
    expect(() => def.parse({ ids: ["a"], limit: "11", dryRun: false })).toThrow(
      new UsageError('--limit: "11" must be a whole number from 1 to 10'),
    );
    expect(made).toEqual({ ids: 1, limit: 1 });
  });

  it("has zod word a broken rule even when every field passes its plain check", () => {
    const { def } = counted({ plainLimit: true });
    expect(() => def.parse({ ids: ["a"], limit: "4", dryRun: true })).toThrow(
      new UsageError("--dry-run takes --limit up to 3"),
    );
  });

  it("sends the whole input through zod when a field has no plain check", () => {
    const { def, made } = counted({ plainLimit: false });
    expect(def.parse({ ids: ["a"], limit: "2", dryRun: false })).toEqual({ ids: ["a"], limit: 2, dryRun: false });
    expect(made).toEqual({ ids: 1, limit: 1 });
  });
});

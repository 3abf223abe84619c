// src/commands/argv.ts reads a command line without commander. For random lines made from every
// command's own declaration (operands, its flags and the root's in every written form, in any
// order, with words commander reads its own way mixed in), what it reads is what commander
// gives: the same command, the same options (or the same refusal of a value), the same root
// options and output format. It may leave a line to commander; a plainly written line it must
// read itself, or commander would still be loaded for the common case.
import { Command } from "commander";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readCommandLine, type Format } from "../../src/commands/argv.js";
import type { AnyCommandDef, CommandDef } from "../../src/commands/define.js";
import { GLOBAL_FLAGS } from "../../src/commands/globals.js";
import { addRootOptions, followFormat } from "../../src/commands/root.js";
import { COMMANDS } from "../../src/commands/tree.js";
import { fakeDeps } from "./fake-deps.js";

interface Target {
  path: string[];
  def: CommandDef<unknown>;
}

type Outcome =
  | { refused: string }
  | { options: unknown; globals: Record<string, unknown>; format: Format }
  | { commanderError: string };

const targets: Target[] = [];
beforeAll(async () => {
  for (const c of COMMANDS) {
    if ("load" in c) targets.push({ path: [c.name], def: (await c.load()) as CommandDef<unknown> });
    else
      for (const [verb, load] of Object.entries(c.verbs))
        targets.push({ path: [c.name, verb], def: (await load()) as AnyCommandDef as CommandDef<unknown> });
  }
});
const plainTargets = () => targets.filter((t) => t.def.plain !== undefined);

/** What commander makes of `words`: the root as src/commands/root.ts builds it, the command registered with a spy. */
async function viaCommander(target: Target, words: string[]): Promise<Outcome> {
  const program = addRootOptions(
    new Command("edgectl")
      .exitOverride()
      .configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} }),
  );
  // refuseOptionsAsValues reads the words as root.ts's Program keeps them.
  Object.assign(program, { typedWords: words });
  let format: Format = {};
  followFormat(program, (given) => (format = given));
  const parent = target.path.length === 2 ? program.command(target.path[0]!) : program;
  let options: unknown;
  target.def.register(parent, fakeDeps(), async (o) => void (options = o));
  try {
    await program.parseAsync(words, { from: "user" });
  } catch (err) {
    const e = err as Error & { code?: string };
    return e.code?.startsWith("commander.") ? { commanderError: e.code } : { refused: e.message };
  }
  return { options, globals: program.opts(), format };
}

/** What argv.ts makes of `words`, run through the same `parse` the command's action calls. */
async function viaArgv(target: Target, words: string[]): Promise<Outcome | undefined> {
  const read = await readCommandLine(words, GLOBAL_FLAGS, COMMANDS);
  if (read === undefined) return undefined;
  expect(read.run).toBe(target.def.plain!.run);
  try {
    return { options: target.def.parse(read.line.input), globals: read.line.globals, format: read.line.format };
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

// Values a user types: plain words, and words commander reads its own way.
const plainValue = fc.oneof(
  fc.stringMatching(/^[a-z0-9_.:/,=]{1,10}$/),
  fc.constantFrom("ep_1", "bkdfo_1", "json", "table", "5", "0", "github", "https://a.example", "a=b", "-"),
  // Words that name commands, as values and operands.
  fc.constantFrom("endpoint", "get", "failover", "export", "help", "policy", "check"),
);
const trickyValue = fc.constantFrom("", "-1", "--x", "-o", "--json", "-y", "--", "-h", " ", "--dry-run");

interface Options {
  /** Operand count: just right, or any. */
  exact: boolean;
  tricky: boolean;
}

function lineFor(target: Target, { exact, tricky }: Options): fc.Arbitrary<string[]> {
  const { args, flags } = target.def.plain!.words;
  const value = tricky
    ? fc.oneof({ weight: 4, arbitrary: plainValue }, { weight: 1, arbitrary: trickyValue })
    : plainValue;
  const forms = (flag: string) => {
    const long = /--[\w-]+/.exec(flag)![0];
    const short = /^-\w(?=[, ])/.exec(flag)?.[0];
    const takesValue = flag.includes("<");
    const names = short ? [long, short] : [long];
    if (!takesValue) return fc.constantFrom(...names).map((n) => [n]);
    return fc
      .tuple(fc.constantFrom(...names), value, fc.boolean())
      .map(([n, v, attached]) => (attached ? [n.startsWith("--") ? `${n}=${v}` : `${n}${v}`] : [n, v]));
  };
  const globalWords = GLOBAL_FLAGS.map(forms);
  const flagWords = [...flags.map(([, d]) => forms(d.flag)), ...globalWords];
  const noise = fc.constantFrom("--", "-h", "--help", "--bogus", "-yz", "--json=1", "-v", "help", "-");
  const min = args.filter(([, a]) => a.arg.startsWith("<")).length;
  const variadic = args.some(([, a]) => a.arg.includes("..."));
  const operandCount = exact
    ? fc.integer({ min, max: variadic ? min + 3 : args.length })
    : fc.integer({ min: 0, max: args.length + 2 });
  const optionGroups = fc.array(fc.oneof(...flagWords), { maxLength: 5 });
  const extra = tricky ? fc.array(noise, { maxLength: 2 }) : fc.constant([] as string[]);
  return fc
    .tuple(
      operandCount.chain((n) => fc.array(value, { minLength: n, maxLength: n })),
      optionGroups,
      extra,
      fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
      // Before or between the command's words: the root's options, or (read by commander alone) any.
      fc.array(fc.oneof(...(tricky ? flagWords : globalWords)), { maxLength: 2 }),
    )
    .map(([operands, groups, noiseWords, order, early]) => {
      // Operands keep their order; option groups and noise go anywhere after the command's words.
      const rest: string[][] = operands.map((o) => [o]);
      [...groups, ...noiseWords.map((w) => [w])].forEach((g, i) => rest.splice(order[i]! % (rest.length + 1), 0, g));
      const path: string[][] = target.path.map((w) => [w]);
      early.forEach((g, i) => path.splice(order[11 - i]! % (path.length + 1), 0, g));
      return [...path.flat(), ...rest.flat()];
    });
}

const cases = (options: Options) =>
  fc.integer({ min: 0, max: 1000 }).chain((i) => {
    const list = plainTargets();
    const target = list[i % list.length]!;
    return lineFor(target, options).map((words) => ({ target, words }));
  });

describe("a command line read without commander", () => {
  it("covers every command but those that read commander's tree", () => {
    expect(targets.filter((t) => t.def.plain === undefined).map((t) => t.path.join(" "))).toEqual([
      "endpoint webhook-verification",
      "emulator",
      "completion",
    ]);
  });

  it("is read as commander reads it, or left to commander", async () => {
    let read = 0;
    await fc.assert(
      fc.asyncProperty(cases({ exact: false, tricky: true }), async ({ target, words }) => {
        const mine = await viaArgv(target, words);
        if (mine === undefined) return;
        read++;
        expect(await viaCommander(target, words)).toEqual(mine);
      }),
      { numRuns: 3000 },
    );
    // The property says something only if many lines were read here.
    expect(read).toBeGreaterThan(200);
  });

  it("is read here when plainly written (commander stays unloaded)", async () => {
    await fc.assert(
      fc.asyncProperty(cases({ exact: true, tricky: false }), async ({ target, words }) => {
        const mine = await viaArgv(target, words);
        expect(mine).toBeDefined();
        expect(await viaCommander(target, words)).toEqual(mine);
      }),
      { numRuns: 800 },
    );
  });

  it.each([
    [["endpoint", "get", "ep_1", "--help"]],
    [["endpoint", "get", "--", "ep_1"]],
    [["endpoint", "--show-secret", "get", "ep_1"]],
    [["endpoint", "get", "ep_1", "--concurrency", "--json"]],
    [["endpoint", "get", "ep_1", "--json=yes"]],
    [["endpoint", "delete", "ep_1", "-yo", "json"]],
    [["endpoint", "get"]],
    [["policy", "check", "a.yml", "b.yml"]],
    [["endpoint", "gte", "ep_1"]],
    [["-v"]],
    [["help", "endpoint"]],
    [["emulator", "--port", "0"]],
  ])("leaves %j to commander (its help, its errors, its tree)", async (words) => {
    expect(await readCommandLine(words, GLOBAL_FLAGS, COMMANDS)).toBeUndefined();
  });
});

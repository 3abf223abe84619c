// Turns argv into a command's typed options without a process, as gh's tests do with
// NewCmd(f, runF): the declared command is registered under a bare program with a spy as its
// run function, and commander parses the words.
import { Command } from "commander";
import { vi } from "vitest";
import type { CommandDef } from "../../src/commands/define.js";
import type { Deps } from "../../src/commands/deps.js";
import { fakeDeps } from "./fake-deps.js";

export async function parse<O>(def: CommandDef<O>, argv: string[], deps: Deps = fakeDeps()): Promise<{ options: O; calls: number }> {
  const program = new Command("edgectl").exitOverride();
  const run = vi.fn(async (_options: O) => {});
  def.register(program, deps, run).exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await program.parseAsync([def.name, ...argv], { from: "user" });
  return { options: run.mock.calls[0]![0], calls: run.mock.calls.length };
}

/** The error parsing gives, with the spy never called. */
export async function refusal<O>(def: CommandDef<O>, argv: string[]): Promise<Error> {
  const program = new Command("edgectl").exitOverride();
  const run = vi.fn(async (_options: O) => {});
  def.register(program, fakeDeps(), run).exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  try {
    await program.parseAsync([def.name, ...argv], { from: "user" });
  } catch (err) {
    if (run.mock.calls.length > 0) throw new Error("run was called although parsing failed");
    return err as Error;
  }
  throw new Error(`expected ${def.name} ${argv.join(" ")} to be refused`);
}

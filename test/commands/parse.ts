// Turns argv into a command's typed options without a process, as gh's tests do with
// NewCmd(f, runF): the declared command is registered under a bare program with a spy as its
// run function, and commander parses the words.
import { Command } from "commander";
import { vi } from "vitest";
import type { CommandDef } from "../../src/commands/define.js";
import type { Deps } from "../../src/commands/deps.js";
import { fakeDeps } from "./fake-deps.js";

async function parseWithSpy<O>(def: CommandDef<O>, argv: string[], deps: Deps) {
  const program = new Command("edgectl").exitOverride();
  const run = vi.fn(async (_options: O) => {});
  def
    .register(program, deps, run)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  let error: unknown;
  try {
    await program.parseAsync([def.name, ...argv], { from: "user" });
  } catch (err) {
    error = err;
  }
  return { calls: run.mock.calls, error };
}

export async function parse<O>(
  def: CommandDef<O>,
  argv: string[],
  deps: Deps = fakeDeps(),
): Promise<{ options: O; calls: number }> {
  const { calls, error } = await parseWithSpy(def, argv, deps);
  if (error !== undefined) throw error;
  return { options: calls[0]![0], calls: calls.length };
}

/** The error parsing gives, with the spy never called. */
export async function refusal<O>(def: CommandDef<O>, argv: string[]): Promise<Error> {
  const { calls, error } = await parseWithSpy(def, argv, fakeDeps());
  if (calls.length > 0) throw new Error("run was called although parsing failed");
  if (error === undefined) throw new Error(`expected ${def.name} ${argv.join(" ")} to be refused`);
  return error as Error;
}

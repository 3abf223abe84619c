import { UsageError } from "../errors.js";
import type { Deps } from "./deps.js";
import { switchValue } from "./input.js";

/** `-y, --yes`: what every delete takes to skip confirmDeletion's question. */
export const yesFlag = {
  flag: "-y, --yes",
  help: "do not ask for confirmation (required without a terminal)",
  ...switchValue(),
};

/**
 * Deleting asks first when a person is at a terminal (stdin and stderr); without one it
 * needs --yes, so a script never deletes by accident or hangs on a prompt.
 */
export async function confirmDeletion(deps: Deps, yes: boolean, question: string): Promise<void> {
  if (yes) return;
  const blocker = deps.io.promptBlocker();
  if (blocker) {
    throw new UsageError(
      `refusing to delete without confirmation: ${blocker}, so there is no terminal to ask on (stdin and stderr must both be terminals); pass --yes to delete without asking`,
    );
  }
  if (!(await deps.confirm(`${question} [y/N] `))) throw new UsageError("not deleted: confirmation declined");
}

import { UsageError } from "../errors.js";
import type { Deps } from "./deps.js";

/**
 * Deleting asks first when a person is at a terminal (stdin and stderr); without one it
 * needs --yes, so a script never deletes by accident or hangs on a prompt.
 */
export async function confirmDeletion(deps: Deps, yes: boolean, question: string): Promise<void> {
  if (yes) return;
  const stdinTTY = Boolean(deps.io.stdin.isTTY);
  const stderrTTY = Boolean(deps.io.stderr.isTTY);
  if (!stdinTTY || !stderrTTY) {
    const which = !stdinTTY && !stderrTTY ? "stdin and stderr are not terminals" : !stdinTTY ? "stdin is not a terminal" : "stderr is not a terminal";
    throw new UsageError(
      `refusing to delete without confirmation: ${which}, so there is no terminal to ask on (stdin and stderr must both be terminals); pass --yes to delete without asking`,
    );
  }
  if (!(await deps.confirm(`${question} [y/N] `))) throw new UsageError("not deleted: confirmation declined");
}

import { UsageError } from "../errors.js";
import type { Deps } from "./deps.js";

/**
 * Deleting asks first when a person is at a terminal (stdin and stderr); without one it
 * needs --yes, so a script never deletes by accident or hangs on a prompt.
 */
export async function confirmDeletion(deps: Deps, yes: boolean, question: string): Promise<void> {
  if (yes) return;
  if (!deps.io.stdin.isTTY || !deps.io.stderr.isTTY) {
    throw new UsageError("refusing to delete without confirmation: stdin is not a terminal; pass --yes to delete");
  }
  if (!(await deps.confirm(`${question} [y/N] `))) throw new UsageError("not deleted: confirmation declined");
}

// What the endpoint verbs share: ids (batches for get and delete) and flags. The Traffic Policy
// a create or update sends is policy-input.ts's (it loads the validator, which get, list and
// delete do not need).
import { collectIds } from "../batch.js";
import type { Deps } from "../deps.js";
import { idList, parseField, strings, switchValue } from "../input.js";

/** `<id...>` as typed: ids, or `-` alone to read them from stdin (checked once they are read). */
export const idsArg = {
  arg: "<ep-id...>",
  help: "endpoint id(s) (ep_…), or - to read ids from stdin, one per line",
  ...strings(),
};

/** The ids to act on: from the arguments or stdin, each checked; `many` when a list is wanted. */
export async function resolveIds(
  args: string[],
  deps: Pick<Deps, "io" | "readStdin">,
): Promise<{ ids: string[]; many: boolean }> {
  const { ids, many } = await collectIds(args, deps);
  return { ids: parseField(idList("endpoint"), ids, "<ep-id>"), many };
}

export const showSecretFlag = {
  flag: "--show-secret",
  help: "print the secrets in Traffic Policies instead of ********",
  ...switchValue(),
};

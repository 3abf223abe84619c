// What the failover verbs share: the child backends of create and update, and the ids of get
// and delete (the flags other nouns take too are in ../flags.ts).
import * as z from "zod/mini";
import { collectIds } from "../batch.js";
import type { Deps } from "../deps.js";
import { idList, idSchema, parseField, strings } from "../input.js";

export const backendsSchema = () =>
  z.array(idSchema("backend")).check(z.minLength(1, "needs at least one child backend id"));

/** Commander collector: `--backends a,b --backends c` → [a, b, c], in order. */
export function collectBackends(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(",").map((s) => s.trim())];
}

/** The flags create and update share, optional as update takes them; each verb words the help. */
export const backendsFlag = (help: string) => ({
  flag: "--backends <ids>",
  help,
  schema: () => z.optional(backendsSchema()),
  repeat: collectBackends,
});

/** `<id...>` as typed: ids, or `-` alone to read them from stdin (checked once they are read). */
export const idsArg = {
  arg: "<id...>",
  help: "Failover backend id(s) (bkdfo_…), or - to read ids from stdin, one per line",
  ...strings(),
};

/** The ids get and delete act on, once read and checked. */
export interface IdsOptions {
  ids: string[];
  /** Several ids (or `-`): print a list even if one id came. */
  many: boolean;
  concurrency: number;
}

/** The ids to act on: from the arguments or stdin, each checked; `many` when a list is wanted. */
export async function resolveIds(
  args: string[],
  deps: Pick<Deps, "io" | "readStdin">,
): Promise<{ ids: string[]; many: boolean }> {
  const { ids, many } = await collectIds(args, deps);
  return { ids: parseField(idList("failover"), ids, idsArg.arg.replace("...", "")), many };
}

// What the failover verbs share: the child backends of create and update, and the ids of get
// and delete (the flags other nouns take too are in ../flags.ts).
import * as z from "zod/mini";
import { batchIds } from "../batch.js";
import { idSchema } from "../input.js";

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

export const { idsArg, resolveIds } = batchIds(
  "failover",
  "<id...>",
  "Failover backend id(s) (bkdfo_…), or - to read ids from stdin, one per line",
);

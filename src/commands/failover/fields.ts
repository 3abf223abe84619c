// What the failover verbs share: flags declared and validated the same way in each, and the
// ids of get and delete.
import * as z from "zod/mini";
import { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES } from "../../api-data/ids.js";
import { collectIds } from "../batch.js";
import type { Deps } from "../deps.js";
import { idList, idSchema, maxBytes, parseField, strings, wholeNumberOr } from "../input.js";

export const backendsSchema = () =>
  z.array(idSchema("backend")).check(z.minLength(1, "needs at least one child backend id"));
export const descriptionSchema = () => maxBytes(DESCRIPTION_MAX_BYTES);
export const metadataSchema = () => maxBytes(METADATA_MAX_BYTES);

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
export const descriptionFlag = (help: string) => ({
  flag: "--description <text>",
  help,
  schema: () => z.optional(descriptionSchema()),
});
export const metadataFlag = (help: string) => ({
  flag: "--metadata <text>",
  help,
  schema: () => z.optional(metadataSchema()),
});

export const dryRunFlag = {
  flag: "--dry-run",
  help: "print the request instead of sending it",
  schema: () => z.boolean(),
};

/** `<id...>` as typed: ids, or `-` alone to read them from stdin (checked once they are read). */
export const idsArg = {
  arg: "<id...>",
  help: "Failover backend id(s) (bkdfo_…), or - to read ids from stdin, one per line",
  ...strings(),
};

export const concurrencyFlag = {
  flag: "--concurrency <n>",
  help: "requests in flight for several ids (default 8)",
  ...wholeNumberOr(1, 64, 8),
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

/** A list's page size (`failover list`, `endpoint list`). */
export const limitFlag = {
  flag: "--limit <n>",
  help: "how many per page, 1–100 (the API's default is 100)",
  // Text that is not a number is quoted back; a number out of range is not.
  schema: () =>
    z.optional(
      z.pipe(
        z.pipe(
          z.string().check(z.refine((v) => /^\d+$/.test(v), "must be a whole number from 1 to 100")),
          z.transform(Number),
        ),
        z.int().check(z.gte(1, "must be from 1 to 100"), z.lte(100, "must be from 1 to 100")),
      ),
    ),
};

export const allFlag = { flag: "--all", help: "follow next_page_uri to fetch every page", schema: () => z.boolean() };

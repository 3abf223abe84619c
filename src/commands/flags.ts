// Flags several nouns take, declared once: description and metadata (create, update), the
// dry run, the batch's concurrency, a list's paging. A noun's own flags stay in its fields.ts.
import * as z from "zod/mini";
import { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES } from "../api-data/ids.js";
import { maxBytes, switchValue, wholeNumberOr } from "./input.js";

export const descriptionSchema = () => maxBytes(DESCRIPTION_MAX_BYTES);
export const metadataSchema = () => maxBytes(METADATA_MAX_BYTES);

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
  ...switchValue(),
};
/** A batch's dry run (delete): one request per id. */
export const batchDryRunFlag = { ...dryRunFlag, help: "print the request(s) instead of sending them" };

export const concurrencyFlag = {
  flag: "--concurrency <n>",
  help: "requests in flight for several ids (default 8)",
  ...wholeNumberOr(1, 64, 8),
};

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

export const allFlag = { flag: "--all", help: "follow next_page_uri to fetch every page", ...switchValue() };

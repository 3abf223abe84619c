// The fields create and update share, validated the same way in both.
import * as z from "zod/mini";
import { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES } from "../../api/ids.js";
import { idSchema, maxBytes } from "../input.js";

export const backendsSchema = z.array(idSchema("backend")).check(z.minLength(1, "needs at least one child backend id"));
export const descriptionSchema = maxBytes(DESCRIPTION_MAX_BYTES);
export const metadataSchema = maxBytes(METADATA_MAX_BYTES);

export const FIELD_LABELS = { backends: "--backends", description: "--description", metadata: "--metadata", id: "<id>" };

/** Commander collector: `--backends a,b --backends c` → [a, b, c], in order. */
export function collectBackends(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(",").map((s) => s.trim())];
}

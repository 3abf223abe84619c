// rate-limit (traffic-policy/actions/rate-limit.mdx).
import * as z from "zod/mini";
import { parseDuration } from "../duration.js";
import type { ActionSpec } from "../actions.js";
import { bool, list, str, whole } from "./fields.js";

/** :55-58: a duration that is a multiple of ten seconds, from 60s to 24h. */
function rateProblem(rate: string): string | undefined {
  const ms = parseDuration(rate);
  if (ms === undefined) return "must be a Go duration such as 60s, 10m or 1h";
  if (ms < 60_000 || ms > 86_400_000) return "must be from 60s to 24h";
  if (ms % 10_000 !== 0) return "must be a multiple of ten seconds (90s, 10m)";
  return undefined;
}

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :26
  schema: () =>
    z.strictObject({
      // :34-36 required, "less than 1024 characters".
      name: str().check(z.minLength(1, "must not be empty"), z.maxLength(1023, "must be less than 1024 characters")),
      enforce: z.optional(bool()), // :38-41
      algorithm: z.enum(["sliding_window"]), // :43-48 required
      capacity: whole(1, 2_000_000_000), // :50-53 required
      rate: str().check(
        z.check((ctx) => {
          const why = rateProblem(ctx.value);
          if (why) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
        }),
      ),
      // :60-69 required, CEL expressions, "Up to ten bucket keys".
      bucket_key: list(str().check(z.minLength(1, "must not be empty")), "bucket keys", 1, 10),
    }),
  celExpressions: ["bucket_key[]"], // :62 "Each bucket key is a CEL expression"
};

// circuit-breaker (traffic-policy/actions/circuit-breaker.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { bool, duration, SECOND, whole } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :23
  schema: () =>
    z.strictObject({
      // :31-36 required, from 0.0 to 1.0.
      error_threshold: z.number().check(z.refine((v) => v >= 0 && v <= 1, "must be a fraction from 0 to 1")),
      volume_threshold: z.optional(whole(1, 2_000_000_000)), // :38-43
      window_duration: z.optional(duration(SECOND, 120 * SECOND, "1s to 2m")), // :45-49
      tripped_duration: z.optional(duration(SECOND, 120 * SECOND, "1s to 2m")), // :51-56
      num_buckets: z.optional(z.literal(10)), // :58-62 "Fixed at 10"
      enforce: z.optional(bool()), // :64-68
    }),
  // The operator's internal/trafficpolicy/testdata/policy-2.json writes tripped_duration as Go's
  // nanoseconds (a number); :45-56 give durations such as "10s".
  unlisted: (config) =>
    ["window_duration", "tripped_duration"]
      .filter((k) => typeof config[k] === "number")
      .map((k) => ({
        path: [k],
        message: `a number of nanoseconds: circuit-breaker.mdx:45-56 give a duration such as "10s"`,
      })),
};

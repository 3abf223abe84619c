// compress-response (traffic-policy/actions/compress-response.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";

export const spec: ActionSpec = {
  // :21. snippets/ActionHub.jsx lists on_http_request too; the action's own page is followed.
  phases: ["on_http_response"],
  schema: () =>
    z.strictObject({
      // :29-39 a list of br, compress, deflate, gzip; "Each element must be unique" (:31).
      algorithms: z.optional(
        z
          .array(z.enum(["br", "compress", "deflate", "gzip"]))
          .check(z.refine((v) => new Set(v).size === v.length, "each algorithm at most once")),
      ),
    }),
};

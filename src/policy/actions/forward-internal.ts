// forward-internal (traffic-policy/actions/forward-internal.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { internalUrlProblem } from "../urls.js";
import { literal } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request"], // :21
  // :79-85: terminating, but not with on_error: continue.
  terminating: (config) => config.on_error !== "continue",
  schema: ({ protocol }) =>
    z.strictObject({
      // :29-33 required; :71-77 an internal endpoint of the same protocol (src/policy/urls.ts).
      url: literal((v) => internalUrlProblem(v, protocol)),
      on_error: z.optional(z.enum(["halt", "continue"])), // :34-43
      // traffic-policy/actions/forward-internal/config.mdx:15 at ngrok-docs 79b67ba3e (2024-10):
      // "`binding` string, Binding of the Endpoint (only `internal` is currently supported)".
      binding: z.optional(z.literal("internal")),
    }),
  celFields: ["url"], // :29 cel={true}
  deprecated: {
    binding:
      "deprecated: ngrok's forward-internal reference no longer has binding; the url's .internal host says it (traffic-policy/actions/forward-internal.mdx:29)",
  },
};

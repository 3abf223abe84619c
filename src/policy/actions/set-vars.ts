// set-vars (traffic-policy/actions/set-vars.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { pick } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request", "on_http_response"], // :23
  schema: () =>
    z.strictObject({
      // :31-43 required: a list of maps, "Each map must be of exactly size 1"; any CEL value (:108-110).
      // gateway/examples/blue-green-deployments.mdx:48-54 and four more of ngrok's examples write
      // vars as one map of several variables: taken too.
      vars: pick((v) =>
        Array.isArray(v)
          ? z.array(
              z.record(z.string(), z.unknown()).check(
                z.refine((item) => Object.keys(item).length === 1, {
                  error: (iss) =>
                    `each item sets exactly one variable (got ${Object.keys(iss.input as object).length})`,
                }),
              ),
            )
          : z.record(z.string(), z.unknown()),
      ),
    }),
  celFields: ["vars[].**"], // :112-151 CEL interpolation in values
  unlisted: (config) =>
    config.vars !== null && typeof config.vars === "object" && !Array.isArray(config.vars)
      ? [
          {
            path: ["vars"],
            message: "one map of variables: set-vars.mdx:31 gives a list of one-variable maps (- name: value)",
          },
        ]
      : [],
};

// log (traffic-policy/actions/log.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request", "on_http_response"], // :22-24
  // :32-35 required, map[string]any.
  schema: () => z.strictObject({ metadata: z.record(z.string(), z.unknown()) }),
  celFields: ["metadata.**"], // :32 cel={true}; :78 `endpoint_id: ${endpoint.id}`
};

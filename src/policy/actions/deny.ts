// deny (traffic-policy/actions/deny.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { statusCode } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request"], // :22
  terminating: () => true, // :65-67
  // :30-39: no fields for TLS/TCP; status_code (default 403) in on_http_request.
  schema: ({ phase }) =>
    phase === "on_http_request" ? z.strictObject({ status_code: z.optional(statusCode()) }) : z.strictObject({}),
};

// owasp-crs-request and owasp-crs-response (traffic-policy/actions/owasp-crs-request.mdx,
// traffic-policy/actions/owasp-crs-response.mdx: the same fields).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { bool, whole } from "./fields.js";

const schema = () =>
  z.strictObject({
    // request :52-55, response :51-54: required, "continue" or "halt". (The same line says
    // "default halt"; every example of ngrok's gives it, so it is required as the table says.)
    on_error: z.enum(["continue", "halt"]),
    process_body: z.optional(bool()), // request :57-60, response :56-59
    // request :62-65, response :61-64: rule ids from 900000 to 999999.
    exclude_rule_ids: z.optional(z.array(whole(900_000, 999_999))),
  });

export const owaspRequest: ActionSpec = { phases: ["on_http_request"], schema }; // request :44
export const owaspResponse: ActionSpec = { phases: ["on_http_response"], schema }; // response :43

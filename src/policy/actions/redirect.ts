// redirect (traffic-policy/actions/redirect.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { headerMap, re2, str, whole } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :25
  // Not terminating: the page's heading says "Non-terminating action" (:215), and a redirect
  // is skipped when `from` matches nothing or the URL would not change (:60, :178), though
  // :213 says it "ends the current phase" once sent.
  schema: () =>
    z.strictObject({
      from: z.optional(re2()), // :33-35; :80 a regular expression (RE2, as url-rewrite's)
      to: str(), // :37-39 required
      status_code: z.optional(whole(300, 399)), // :41-43 "A 3xx status code" (default 302)
      // :45-48 at most 10. :202 writes `x-redirected: true` unquoted and :207-211 shows it sent,
      // so a number or boolean value stands for its text here (its full example, :293, quotes it).
      headers: z.optional(headerMap(0, 10, false, true)),
    }),
  celFields: ["from", "to", "headers.*"], // :33, :37, :45 cel={true}
  regex: true,
};

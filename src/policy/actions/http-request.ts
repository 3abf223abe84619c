// http-request (traffic-policy/actions/http-request.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { duration, headerMap, httpUrl, list, SECOND, str, whole } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request", "on_http_response"], // :29
  schema: () =>
    z.strictObject({
      url: httpUrl(), // :37-39 required
      // :40-51, :105 only these methods (default GET).
      method: z.optional(z.enum(["GET", "PUT", "POST", "PATCH", "DELETE", "OPTIONS"])),
      // :52-61 at most 32 entries, key at most 128 characters, value at most 8192.
      query_params: z.optional(
        list(
          z.strictObject({
            key: str().check(z.minLength(1, "must not be empty"), z.maxLength(128, "must be at most 128 characters")),
            value: str().check(z.maxLength(8192, "must be at most 8192 characters")),
          }),
          "query parameters",
          0,
          32,
        ),
      ),
      // :62-66 at most 10 entries. snippets/examples/agent-cli/http-request-headers.mdx:7 writes
      // `is-ngrok: 1`: a number or boolean value stands for its text.
      headers: z.optional(headerMap(0, 10, false, true)),
      body: z.optional(str()), // :67-69
      // :70-74 from 0 to 100 (default 10). The page contradicts itself: :147 says "The allowed
      // range is 0 to 5. By default it is set to 0.", as the older
      // snippets/traffic-policy/actions/http-request/config.mdx:76 does. Its example (:368,
      // max_redirects: 2) fits both; the field's own table on the rendered page is followed.
      max_redirects: z.optional(whole(0, 100)),
      timeout: z.optional(duration(SECOND, 30 * SECOND, "1s to 30s")), // :75-79, :132
      retry_condition: z.optional(str()), // :80-90 a CEL expression (default false)
      on_error: z.optional(z.enum(["continue", "halt"])), // :91-98
    }),
  // :37-69 cel={true}; :184-189 "url, headers (values only), query_params (values only), body".
  celFields: ["url", "headers.*", "query_params[].value", "body"],
  celExpressions: ["retry_condition"], // :80-81 "A CEL expression evaluated after each failed attempt"
};

// add-headers (traffic-policy/actions/add-headers.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { headerMap } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request", "on_http_response"], // :21
  schema: () =>
    z.strictObject({
      // :29-33: a map of header name to value, minimum 1, maximum 10; :61 never user-agent.
      headers: headerMap(1, 10, true),
    }),
  celFields: ["headers.*"], // :29 cel={true}: the values
};

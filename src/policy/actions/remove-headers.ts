// remove-headers (traffic-policy/actions/remove-headers.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { headerList } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request", "on_http_response"], // :24
  schema: () =>
    z.strictObject({
      // :32-36: required, a list of header names, minimum 1, maximum 10; :62 never user-agent.
      headers: headerList(1, 10, true),
    }),
};

// url-rewrite (traffic-policy/actions/url-rewrite.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { re2, str } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :24
  schema: () =>
    z.strictObject({
      from: z.optional(re2()), // :33-36 a regular expression (RE2)
      to: str(), // :38-41 required
    }),
  celFields: ["from", "to"], // :33, :38 cel={true}
  regex: true,
};

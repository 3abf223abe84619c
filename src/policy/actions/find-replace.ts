// request-body-find-replace, response-body-find-replace and sse-find-replace
// (traffic-policy/actions/request-body-find-replace.mdx, response-body-find-replace.mdx and
// sse-find-replace.mdx: the same replacements list).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { list, oneOfText, re2, str } from "./fields.js";

// Made when a config is checked, not at import: zod loads only then.
const replacement = () => ({
  from: re2(), // :35-38 required, RE2 syntax (sse :41-44)
  to: z.optional(str()), // :40-44 (sse :46-50); omitted or empty deletes the match
});
/** :30-33 required, "Minimum 1 replacement required" (sse :30-33). */
const replacements = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject({ replacements: list(z.strictObject(shape), "replacements", 1) });

const body = (phase: "on_http_request" | "on_http_response"): ActionSpec => ({
  phases: [phase], // request :22, response :22
  schema: () => replacements(replacement()),
  celFields: ["replacements[].from", "replacements[].to"], // :35, :40 cel={true}
  regex: true,
});

export const requestBody = body("on_http_request");
export const responseBody = body("on_http_response");
export const sse: ActionSpec = {
  phases: ["on_event_stream_message"], // sse :22
  // sse :35-39 "Valid values are data and retry. Defaults to data… CEL interpolation is supported."
  schema: () => replacements({ field: z.optional(oneOfText(["data", "retry"])), ...replacement() }),
  celFields: ["replacements[].field", "replacements[].from", "replacements[].to"], // sse :35-50
  regex: true,
};

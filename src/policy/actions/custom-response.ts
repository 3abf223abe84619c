// custom-response (traffic-policy/actions/custom-response.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { headerMap, statusCode, str } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request", "on_http_response"], // :21
  terminating: () => true, // :65-67
  schema: () =>
    z.strictObject({
      status_code: z.optional(statusCode()), // :29 default 200
      body: z.optional(str()), // :32
      headers: z.optional(headerMap(0, 10)), // :35-41 "Maximum properties 10"
      // The body's old name (traffic-policy/actions/custom-response/config.mdx:15 at ngrok-docs
      // 2a3f9942a, 2024-10: "`content` string, Body of the custom response… Supports CEL
      // Interpolation"); ngrok's Kubernetes operator still writes it (ngrok-operator
      // internal/trafficpolicy/policy.go, NewCustomResponseAction).
      content: z.optional(str()),
    }),
  celFields: ["body", "headers.*", "content"], // :32, :35 cel={true}; content as body
  deprecated: {
    content:
      "deprecated: use body (ngrok's custom-response reference names body; content is its old name, traffic-policy/actions/custom-response.mdx:32)",
  },
};

// close-connection (traffic-policy/actions/close-connection.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request"], // :23
  terminating: () => true, // :39-41
  schema: () => z.strictObject({}), // :31 "does not have any configuration fields"
};

// request_headers and response_headers → remove-headers then add-headers, at most 10 a action.
import { describe } from "vitest";
import { translateHeaders } from "../../../src/migrate/modules/headers.js";
import { action, refusal, table, type Case } from "./table.js";

const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, `v${i}`]));

const REQUEST: Case[] = [
  {
    name: "remove, then add",
    doc: `${action("remove-headers")}, ${action("add-headers")}`,
    module: { enabled: true, remove: ["x-secret"], add: { "x-from": "edge" } },
    out: {
      steps: [
        {
          actions: [
            { type: "remove-headers", config: { headers: ["x-secret"] } },
            { type: "add-headers", config: { headers: { "x-from": "edge" } } },
          ],
        },
      ],
    },
  },
  {
    name: "eleven headers: two actions (an action takes at most 10)",
    doc: action("add-headers"),
    module: { add: many(11) },
    out: {
      steps: [
        {
          actions: [
            { type: "add-headers", config: { headers: many(10) } },
            { type: "add-headers", config: { headers: { "x-h10": "v10" } } },
          ],
        },
      ],
    },
  },
  {
    name: 'a literal "${" in a value is escaped (ngrok reads ${…} as CEL), with a warning',
    doc: action("add-headers"),
    module: { add: { "x-t": "${x}" } },
    out: {
      steps: [{ actions: [{ type: "add-headers", config: { headers: { "x-t": '${"${"}x}' } } }] }],
      warnings: [
        {
          item: "request_headers",
          message: 'a literal "${" in request_headers.add is written ${"${"} so ngrok does not read it as CEL',
        },
      ],
    },
  },
  { name: "nothing to do: no actions", module: { remove: [], add: {} }, out: { steps: [{ actions: [] }] } },
  // Issue 25 item 17 (c): "You may not add or remove the `user-agent` header."
  {
    name: "adding user-agent (any case): not migrated, ngrok forbids it",
    doc: `${action("add-headers")} (behavior)`,
    module: { add: { "User-Agent": "edge/1", "x-a": "1" } },
    out: refusal(
      "request_headers",
      "request_headers adds the User-Agent header, which ngrok's add-headers and remove-headers may not touch; change it upstream by hand",
    ),
  },
  {
    name: "removing user-agent: not migrated, ngrok forbids it",
    doc: `${action("remove-headers")} (behavior)`,
    module: { remove: ["x-a", "user-agent"] },
    out: refusal(
      "request_headers",
      "request_headers removes the user-agent header, which ngrok's add-headers and remove-headers may not touch; change it upstream by hand",
    ),
  },
  {
    name: 'a header name holding "${"',
    module: { add: { "${x}": "v" } },
    out: refusal("request_headers", 'request_headers.add has a header name holding "${"'),
  },
  {
    name: "remove not a list",
    module: { remove: "x-a" },
    out: refusal("request_headers", "request_headers.remove is not a list of header names"),
  },
  {
    name: "add values not strings",
    module: { add: { "x-a": 1 } },
    out: refusal("request_headers", "request_headers.add is not an object of header values"),
  },
];

const RESPONSE: Case[] = [
  {
    name: "the actions go to the response phase",
    doc: action("remove-headers"),
    module: { remove: ["server"], add: {} },
    out: { response: [{ type: "remove-headers", config: { headers: ["server"] } }] },
  },
  {
    name: "user-agent in a response: not migrated either (the rule is the action's, in both phases)",
    doc: action("add-headers"),
    module: { add: { "user-agent": "x" } },
    out: refusal(
      "response_headers",
      "response_headers adds the user-agent header, which ngrok's add-headers and remove-headers may not touch; change it upstream by hand",
    ),
  },
  {
    name: "refusals name the response module",
    module: { remove: {} },
    out: refusal("response_headers", "response_headers.remove is not a list of header names"),
  },
];

describe("request_headers", () => table(REQUEST, (m) => translateHeaders(m, { name: "request_headers" })));
describe("response_headers", () => table(RESPONSE, (m) => translateHeaders(m, { name: "response_headers" })));

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
  // Issue 25 item 17 (d): the edge filled in ${…} in request header values ("You may interpolate
  // variables into header values", ngrok.com/docs/http/request-headers, whose example is
  // ${conn.geo.country_code}; the older JSONPath form ${.ngrok.geo.country_code},
  // ngrok.com/docs/http-header-templates). Each is carried as the Traffic Policy interpolation of
  // the variable of the same meaning (traffic-policy/variables/connection.mdx), else refused.
  {
    name: "${conn.client_ip} and ${conn.geo.country_code}, which the edge filled in, are carried as the same Traffic Policy variables, with a warning",
    doc: `${action("add-headers")} (headers: "Supports CEL Interpolation"), traffic-policy/variables/connection.mdx`,
    module: { add: { "x-ip": "ip=${conn.client_ip}", "x-cc": "${ conn.geo.country_code }" } },
    out: {
      steps: [
        {
          actions: [
            {
              type: "add-headers",
              config: { headers: { "x-ip": "ip=${conn.client_ip}", "x-cc": "${conn.geo.country_code}" } },
            },
          ],
        },
      ],
      warnings: [
        {
          item: "request_headers",
          message:
            'request_headers.add["x-ip"]: ${conn.client_ip}, which the edge filled in, becomes the Traffic Policy interpolation ${conn.client_ip}, which ngrok fills in with the same value',
        },
        {
          item: "request_headers",
          message:
            'request_headers.add["x-cc"]: ${ conn.geo.country_code }, which the edge filled in, becomes the Traffic Policy interpolation ${conn.geo.country_code}, which ngrok fills in with the same value',
        },
      ],
    },
  },
  {
    name: "the older JSONPath form ${.ngrok.geo.country_code} becomes ${conn.geo.country_code}",
    doc: "ngrok.com/docs/http-header-templates, traffic-policy/variables/connection.mdx",
    module: { add: { country: "${.ngrok.geo.country_code}" } },
    out: {
      steps: [{ actions: [{ type: "add-headers", config: { headers: { country: "${conn.geo.country_code}" } } }] }],
      warnings: [
        {
          item: "request_headers",
          message:
            'request_headers.add["country"]: ${.ngrok.geo.country_code}, which the edge filled in, becomes the Traffic Policy interpolation ${conn.geo.country_code}, which ngrok fills in with the same value',
        },
      ],
    },
  },
  {
    name: "a variable no doc says means the same in Traffic Policy: not migrated",
    doc: "traffic-policy/variables/connection.mdx",
    module: { add: { "x-a": "1", "x-s": "${conn.server_ip}" } },
    out: refusal(
      "request_headers",
      'request_headers.add["x-s"]: the edge filled in ${conn.server_ip}, which has no Traffic Policy variable edgectl knows to mean the same; set this header by hand',
    ),
  },
  {
    name: "a variable with no Traffic Policy variable of the same meaning: not migrated",
    doc: "ngrok.com/docs/http-header-templates",
    module: { add: { "x-id": "${.ngrok.request_id}" } },
    out: refusal(
      "request_headers",
      'request_headers.add["x-id"]: the edge filled in ${.ngrok.request_id}, which has no Traffic Policy variable edgectl knows to mean the same; set this header by hand',
    ),
  },
  {
    name: 'an unclosed "${" names no variable: it is text, escaped (ngrok reads ${…} as CEL), with a warning',
    doc: action("add-headers"),
    module: { add: { "x-t": "a${b" } },
    out: {
      steps: [{ actions: [{ type: "add-headers", config: { headers: { "x-t": 'a${"${"}b' } } }] }],
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
    name: 'a "${" in a response header value is copied as text, escaped, with a warning',
    doc: action("add-headers"),
    module: { add: { "x-t": "${x}" } },
    out: {
      response: [{ type: "add-headers", config: { headers: { "x-t": '${"${"}x}' } } }],
      warnings: [
        {
          item: "response_headers",
          message: 'a literal "${" in response_headers.add is written ${"${"} so ngrok does not read it as CEL',
        },
      ],
    },
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

// traffic_policy (a route's own, or a TLS or TCP edge's) → its rules copied, or why not.
import { beforeAll, describe } from "vitest";
import type { ParsedPolicy } from "../../../src/migrate/plan.js";
import { loadCel } from "../../../src/policy/index.js";
import { translateEdgePolicy, translateRoutePolicy } from "../../../src/migrate/modules/route-policy.js";
import { edgeModule, refusal, table, type Case } from "./table.js";

// `migrate edge` parses every policy text before it plans (src/commands/migrate/edge.ts,
// parsePolicyText), which loads the CEL bundle and its RE2 for a policy that needs them; the
// translator then checks the rules with them (a url-rewrite's `from` is an RE2 pattern).
// Loaded here as the command does, so this file passes alone, not only after another loaded it.
beforeAll(() => loadCel());

const policy = (doc: unknown) => ({ enabled: true, value: JSON.stringify(doc) });
const rule = (name: string | undefined, type: string, config?: Record<string, unknown>) => ({
  ...(name === undefined ? {} : { name }),
  actions: [config ? { type, config } : { type }],
});

const ROUTE: Case[] = [
  {
    name: "request rules as steps, response rules named after the route",
    doc: edgeModule("edgeroutetrafficpolicymodule"),
    module: policy({
      on_http_request: [rule("log it", "log", { metadata: { a: 1 } })],
      on_http_response: [rule(undefined, "add-headers", { headers: { "x-a": "b" } })],
    }),
    out: {
      steps: [{ copied: rule("log it", "log", { metadata: { a: 1 } }), index: 0 }],
      responseRules: [
        {
          name: "edghtsrt_1 traffic_policy[0]",
          actions: [{ type: "add-headers", config: { headers: { "x-a": "b" } } }],
        },
      ],
    },
  },
  {
    name: "YAML parsed by the caller",
    module: { value: "on_http_request: []" },
    out: {},
  },
  {
    name: "a text the caller could not parse",
    module: { value: "a: [" },
    out: refusal("traffic_policy", "the policy text is not JSON or YAML: unexpected end of flow sequence"),
  },
  {
    name: "on_tcp_connect rules cannot be kept to one route",
    module: policy({ on_tcp_connect: [rule("r", "deny")] }),
    out: refusal("traffic_policy", "its on_tcp_connect rules cannot be limited to one route"),
  },
  {
    name: "a url-rewrite on a route that matches on the path",
    doc: "traffic-policy/actions/url-rewrite.mdx",
    module: policy({ on_http_request: [rule("rw", "url-rewrite", { from: "/a", to: "/b" })] }),
    out: refusal(
      "traffic_policy",
      "its url-rewrite changes the path this route's other rules match on, so its requests could reach another route's backend; rebuild it by hand",
    ),
  },
  {
    name: "a phase ngrok does not know",
    module: policy({ inbound: [] }),
    out: refusal("traffic_policy", "the policy has a phase ngrok does not know: inbound"),
  },
  {
    name: "no policy text",
    module: { enabled: true },
    out: refusal("traffic_policy", "the traffic_policy module has no policy text"),
  },
];

const TCP: Case[] = [
  {
    name: "on_tcp_connect rules as they are",
    doc: edgeModule("tcpedgetrafficpolicymodule"),
    module: policy({ on_tcp_connect: [rule("r", "restrict-ips", { enforce: true, allow: ["10.0.0.0/8"] })] }),
    out: { steps: [{ copied: rule("r", "restrict-ips", { enforce: true, allow: ["10.0.0.0/8"] }), index: 0 }] },
  },
  {
    name: "an HTTP phase has no TCP equivalent",
    module: policy({ on_http_request: [rule("r", "deny")] }),
    out: refusal("traffic_policy", "a TCP endpoint has no on_http_request phase"),
  },
];

const policies = new Map<string, ParsedPolicy>([
  ["on_http_request: []", { document: { on_http_request: [] } }],
  ["a: [", { error: "unexpected end of flow sequence" }],
]);
describe("a route's traffic_policy", () =>
  table(ROUTE, (m) =>
    translateRoutePolicy(m, {
      routeId: "edghtsrt_1",
      expressions: ['req.url.path.startsWith("/api")'],
      input: { policies },
    }),
  ));
describe("a TCP edge's traffic_policy", () => table(TCP, (m) => translateEdgePolicy(m, { kind: "tcp", input: {} })));

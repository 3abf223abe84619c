// Issue 25 item 17's sibling, item 16, as a property: on a wildcard endpoint, every request
// reaches what the edge did with it (the most specific matching route, host-qualified routes
// only for their host), evaluated with a CEL library, walking the rules as ngrok does. A Host
// written in another letter case or with a port may only be refused (503), never sent to a
// route with fewer checks than the edge applied.
import { celEnv, parse, plan } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertPlansValid, planEdge } from "../../src/migrate/plan.js";
import type { Rule } from "../../src/migrate/policy.js";
import { backendMap, edge, https, route, tunnelGroup } from "./fixtures.js";

/** A CEL expression's value with the strings extension ngrok documents (lowerAscii: traffic-policy/macros/index.mdx:1574), as the project's one CEL library runs it. */
const env = celEnv({ funcs: strings });
const planned = new Map<string, ReturnType<typeof plan>>();
const evaluate = (expression: string, context: object): boolean => {
  let run = planned.get(expression);
  if (run === undefined) planned.set(expression, (run = plan(env, parse(expression))));
  return run(context as never) === true;
};

const NAMED = ["a.wild.example.com", "b.wild.example.com"];
/** Hosts the wildcard serves: the named ones and one no route names. */
const SERVED = [...NAMED, "c.wild.example.com"];

interface RouteSpec {
  exact: boolean;
  host?: string;
  path: string;
  /** An IP restriction that refuses 192.0.2.9 (as restrict-ips would: 403). */
  ipDeny: boolean;
}

const routeSets = fc.uniqueArray(
  fc.record({
    exact: fc.boolean(),
    host: fc.option(fc.constantFrom(...NAMED), { nil: undefined }),
    path: fc.stringMatching(/^\/[ab/]{0,3}$/),
    ipDeny: fc.boolean(),
  }),
  { maxLength: 8, selector: (r) => `${r.exact}|${r.host ?? ""}|${r.path}` },
);

type Outcome = { kind: "forward"; url: string } | { kind: "status"; status: number };

/** The edge: the route whose host (if any) is the request's (a DNS name: any case, no port), then as ever. */
function edgeOutcome(specs: RouteSpec[], host: string, path: string, ip: string): Outcome {
  const name = host.toLowerCase().replace(/:443$/, "");
  const candidates = specs
    .map((s, i) => ({ s, i }))
    .filter(
      ({ s }) => (s.host === undefined || s.host === name) && (s.exact ? path === s.path : path.startsWith(s.path)),
    );
  const exact = candidates.filter(({ s }) => s.exact);
  const pool = exact.length > 0 ? exact : candidates;
  const longest = Math.max(...pool.map(({ s }) => s.path.length));
  const best = pool.filter(({ s }) => s.path.length === longest);
  const chosen = best.find(({ s }) => s.host !== undefined) ?? best[0];
  if (!chosen) return { kind: "status", status: 404 };
  if (chosen.s.ipDeny && ip === "192.0.2.9") return { kind: "status", status: 403 };
  return { kind: "forward", url: `https://s-r${chosen.i}.internal` };
}

/** on_http_request as ngrok runs it; restrict-ips by the one address it refuses. */
function planOutcome(rules: Rule[], context: { req: { host: string; url: { path: string } } }, ip: string): Outcome {
  for (const rule of rules) {
    if (!(rule.expressions ?? []).every((e) => evaluate(e, context))) continue;
    for (const action of rule.actions) {
      const config = (action.config ?? {}) as Record<string, unknown>;
      if (action.type === "restrict-ips" && ip === "192.0.2.9") return { kind: "status", status: 403 };
      if (action.type === "deny" || action.type === "custom-response")
        return { kind: "status", status: config.status_code as number };
      if (action.type === "forward-internal") return { kind: "forward", url: config.url as string };
    }
  }
  throw new Error("no terminating action reached");
}

function planOf(specs: RouteSpec[]) {
  const routes = specs.map((s, i) =>
    route(
      `edghtsrt_r${i}`,
      s.exact ? "exact_path" : "path_prefix",
      `${s.host ?? ""}${s.host && s.path === "/" && !s.exact ? "" : s.path}`,
      `bkdtg_r${i}`,
      s.ipDeny ? { ip_restriction: { enabled: true, ip_policies: [{ id: "ipp_1", uri: "u" }] } } : {},
    ),
  );
  const backends = backendMap(...specs.map((_, i) => tunnelGroup(`bkdtg_r${i}`, { s: `r${i}` })));
  const plan = planEdge(https(edge(routes, { hostports: ["*.wild.example.com:443"] })), { backends, maps: new Map() });
  assertPlansValid([plan]);
  return plan;
}

const requests = fc.record({
  host: fc.constantFrom(...SERVED),
  variant: fc.constantFrom("as is", "upper case", "with :443"),
  path: fc.stringMatching(/^\/[ab/]{0,4}$/),
  ip: fc.constantFrom("192.0.2.9", "198.51.100.1"),
});

describe("a wildcard endpoint dispatches by host as the edge did (property, evaluated with a CEL library)", () => {
  it("the Host as written reaches the edge's route; another case or a port reaches it or is refused, never another route", () => {
    fc.assert(
      fc.property(routeSets, fc.array(requests, { minLength: 1, maxLength: 12 }), (specs, reqs) => {
        const plan = planOf(specs);
        expect(plan.endpoints.map((e) => e.url)).toEqual(["https://*.wild.example.com"]);
        expect(plan.not_migrated).toEqual([]);
        for (const r of reqs) {
          const host =
            r.variant === "upper case" ? r.host.toUpperCase() : r.variant === "with :443" ? `${r.host}:443` : r.host;
          const got = planOutcome(
            plan.endpoints[0]!.traffic_policy.on_http_request!,
            { req: { host, url: { path: r.path } } },
            r.ip,
          );
          const want = edgeOutcome(specs, host, r.path, r.ip);
          if (r.variant === "as is" || !NAMED.includes(r.host)) expect(got).toEqual(want);
          else expect([want, { kind: "status", status: 503 }]).toContainEqual(got);
        }
      }),
      { numRuns: 100 },
    );
  });
});

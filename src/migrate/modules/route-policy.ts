// traffic_policy (an HTTPS route's own, or a TLS or TCP edge's) → its rules copied: a route's
// request rules after the route's other modules (with the route's expressions first), its
// response rules into the route's response phase; an edge's on_tcp_connect rules as they are.
// A policy that is not valid, or that cannot be kept to its route, is refused.
import { checkPolicy, type Protocol } from "../../policy/index.js";
import type { PlanInput } from "../plan.js";
import { PHASES, type Rule } from "../policy.js";
import { isObj, refused, translation, type Obj, type Translation } from "./translator.js";

/** A traffic_policy module's document (an object of phases, each a list of rules), or why not. */
export function policyDocument(
  module: Obj,
  input: Pick<PlanInput, "policies">,
): { phases: Record<string, Rule[]> } | { problem: string } {
  const value = module.value;
  if (typeof value !== "string") return { problem: "the traffic_policy module has no policy text" };
  let parsed = input.policies?.get(value);
  if (parsed === undefined) {
    try {
      parsed = { document: JSON.parse(value) as unknown };
    } catch (e) {
      parsed = { error: (e as Error).message };
    }
  }
  if ("error" in parsed) return { problem: `the policy text is not JSON or YAML: ${parsed.error}` };
  const doc = parsed.document ?? {};
  if (!isObj(doc)) return { problem: "the policy is not an object of phases" };
  const phases: Record<string, Rule[]> = {};
  for (const [key, rules] of Object.entries(doc)) {
    if (rules === null) continue;
    if (!(PHASES as readonly string[]).includes(key))
      return { problem: `the policy has a phase ngrok does not know: ${key}` };
    if (!Array.isArray(rules) || !rules.every(isObj)) return { problem: `${key} is not a list of rules` };
    phases[key] = rules as unknown as Rule[];
  }
  return { phases };
}

/** Problems of policy rules checked as part of a policy (no terminating end required: the kind "agent" has none). */
function policyProblems(phases: Record<string, Rule[]>, protocol: Protocol): string | undefined {
  const problems = checkPolicy(phases, { protocol, internal: true, kind: "agent" });
  return problems.length === 0 ? undefined : problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}

/** Copies a rule of the edge's own policy, with `expressions` first and its name prefixed. */
export function copyRule(rule: Rule, name: string, expressions: string[]): Rule {
  const own = Array.isArray(rule.expressions) ? rule.expressions : [];
  const all = [...expressions, ...own];
  return { name, ...(all.length ? { expressions: all } : {}), actions: rule.actions };
}

export interface RoutePolicyContext {
  routeId: string;
  /** The route's expressions (none for a path_prefix of /). */
  expressions: string[];
  input: Pick<PlanInput, "policies">;
}

/** A route's own traffic_policy module. */
export function translateRoutePolicy(module: Obj, cx: RoutePolicyContext): Translation {
  const doc = policyDocument(module, cx.input);
  if ("problem" in doc) return refused("traffic_policy", doc.problem);
  if ((doc.phases.on_tcp_connect ?? []).length > 0)
    return refused("traffic_policy", "its on_tcp_connect rules cannot be limited to one route");
  const own = {
    on_http_request: doc.phases.on_http_request ?? [],
    on_http_response: doc.phases.on_http_response ?? [],
  };
  const problem = policyProblems(own, "https");
  // The route's later rules (its backend's too) match on the path: a rewritten path could
  // fall out of them into another route's backend, which the edge never did.
  const rewrites =
    cx.expressions.length > 0 &&
    own.on_http_request.some(
      (rule) => Array.isArray(rule.actions) && rule.actions.some((a) => isObj(a) && a.type === "url-rewrite"),
    );
  if (problem !== undefined) return refused("traffic_policy", `the route's policy is not valid: ${problem}`);
  if (rewrites)
    return refused(
      "traffic_policy",
      "its url-rewrite changes the path this route's other rules match on, so its requests could reach another route's backend; rebuild it by hand",
    );
  const out = translation();
  own.on_http_request.forEach((rule, index) => out.steps.push({ copied: rule, index }));
  own.on_http_response.forEach((rule, i) =>
    out.responseRules.push(
      copyRule(
        rule,
        `${cx.routeId} ${typeof rule.name === "string" && rule.name ? rule.name : `traffic_policy[${i}]`}`,
        [],
      ),
    ),
  );
  return out;
}

/** A TLS or TCP edge's own traffic_policy module: its on_tcp_connect rules, nothing else. */
export function translateEdgePolicy(
  module: Obj,
  cx: { kind: "tls" | "tcp"; input: Pick<PlanInput, "policies"> },
): Translation {
  const doc = policyDocument(module, cx.input);
  if ("problem" in doc) return refused("traffic_policy", doc.problem);
  const others = Object.keys(doc.phases).filter((p) => p !== "on_tcp_connect" && doc.phases[p]!.length > 0);
  if (others.length > 0)
    return refused("traffic_policy", `a ${cx.kind.toUpperCase()} endpoint has no ${others.join(" or ")} phase`);
  const own = doc.phases.on_tcp_connect ?? [];
  const problem = policyProblems({ on_tcp_connect: own }, cx.kind);
  if (problem !== undefined) return refused("traffic_policy", `the edge's policy is not valid: ${problem}`);
  const out = translation();
  own.forEach((rule, index) => out.steps.push({ copied: rule, index }));
  return out;
}

// A Traffic Policy as data: built by the planner, serialised only at the edge (YAML for
// people, JSON text for POST /endpoints), so nothing in a path or a label can change its shape.
import { PHASES, type Phase } from "../policy/actions.js";
import { yamlText } from "../output/yaml-write.js";
import { maskPolicyData } from "../secrets/walk.js";

export interface Action {
  type: string;
  config?: Record<string, unknown>;
}

export interface Rule {
  name?: string;
  expressions?: string[];
  actions: Action[];
}

export { PHASES, type Phase };

export type TrafficPolicy = { [P in Phase]?: Rule[] };

/**
 * A CEL string literal holding exactly `value`. CEL's double-quoted literals take the escapes
 * JSON.stringify writes (\" \\ \n \t \uXXXX …), so the text cannot end the literal early.
 */
export function celString(value: string): string {
  return JSON.stringify(value);
}

export const exactPathExpression = (path: string) => `req.url.path == ${celString(path)}`;
export const pathPrefixExpression = (path: string) => `req.url.path.startsWith(${celString(path)})`;

/** The policy with every secret (each secret place of src/secrets) as ******** (for output, never for POST). */
export function maskPolicy(policy: TrafficPolicy): TrafficPolicy {
  return maskPolicyData(policy);
}

/** The text sent as `traffic_policy`: JSON, which the API takes as well as YAML. */
export function policyJsonText(policy: TrafficPolicy): string {
  return JSON.stringify(policy, null, 2);
}

/** YAML as ngrok's docs write policies (edgectl's own writer: no YAML library is loaded). */
export function policyYaml(policy: TrafficPolicy): string {
  return yamlText(policy);
}

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
/** A route's host on a wildcard endpoint (contract: `req.host == "<host>"`; `req.host` is the Host header's value, traffic-policy/variables/req). */
export const hostExpression = (host: string) => `req.host == ${celString(host)}`;
/**
 * The Host header naming `host` other than as written: in another letter case, or with a port.
 * A DNS name is case-insensitive and a Host header may carry a port (RFC 9110 §7.2), so such a
 * request may well have been the route's on the edge; `req.host ==` would send it past the
 * route's checks to a less specific route. It is refused instead (fail closed).
 */
export const hostVariantExpression = (host: string) =>
  `req.host != ${celString(host)} && (req.host.lowerAscii() == ${celString(host)} || req.host.lowerAscii().startsWith(${celString(`${host}:`)}))`;

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

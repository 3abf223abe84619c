// A Traffic Policy as data: built by the planner, serialised only at the edge (YAML for
// people, JSON text for POST /endpoints), so nothing in a path or a label can change its shape.
import { MASK } from "../api/redact.js";

export type Action =
  | { type: "verify-webhook"; config: { provider: string; secret?: string } }
  | { type: "forward-internal"; config: { url: string; on_error?: "continue" } }
  | { type: "custom-response"; config: { status_code: number; body?: string; headers?: Record<string, string> } };

export interface Rule {
  name?: string;
  expressions?: string[];
  actions: Action[];
}

export interface TrafficPolicy {
  on_http_request: Rule[];
}

/**
 * A CEL string literal holding exactly `value`. CEL's double-quoted literals take the escapes
 * JSON.stringify writes (\" \\ \n \t \uXXXX …), so the text cannot end the literal early.
 */
export function celString(value: string): string {
  return JSON.stringify(value);
}

export const exactPathExpression = (path: string) => `req.url.path == ${celString(path)}`;
export const pathPrefixExpression = (path: string) => `req.url.path.startsWith(${celString(path)})`;

/** The policy with every verify-webhook secret shown as ******** (for output, never for POST). */
export function maskPolicy(policy: TrafficPolicy): TrafficPolicy {
  return {
    on_http_request: policy.on_http_request.map((rule) => ({
      ...rule,
      actions: rule.actions.map((a) =>
        a.type === "verify-webhook" && a.config.secret ? { ...a, config: { ...a.config, secret: MASK } } : a,
      ),
    })),
  };
}

/** The secrets a policy holds, for redaction of what is printed around it. */
export function policySecrets(policy: TrafficPolicy): string[] {
  return policy.on_http_request.flatMap((r) =>
    r.actions.flatMap((a) => (a.type === "verify-webhook" && a.config.secret ? [a.config.secret] : [])),
  );
}

/** The text sent as `traffic_policy`: JSON, which the API takes as well as YAML. */
export function policyJsonText(policy: TrafficPolicy): string {
  return JSON.stringify(policy, null, 2);
}

/** YAML as ngrok's docs write policies; the library is loaded only when a policy is printed. */
export async function policyYaml(policy: TrafficPolicy): Promise<string> {
  const { yamlText } = await import("../output/yaml-text.js");
  return yamlText(policy);
}

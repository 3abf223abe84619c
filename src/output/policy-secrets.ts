// Where a Traffic Policy keeps its secrets: the walk of src/secrets/walk.ts over the one table
// of secret places (src/secrets/index.ts), for output's callers.
import type { NodeView } from "../secrets/walk.js";
export {
  findSecrets,
  maskPolicyData,
  plainView,
  policySecretValues,
  secretNodes,
  type Found,
  type NodeView,
} from "../secrets/walk.js";

/** The phases a policy may hold (`inbound`/`outbound`: the legacy layout of a route's policy). */
const PHASES = new Set([
  "on_tcp_connect",
  "on_http_request",
  "on_http_response",
  "on_event_stream_message",
  "inbound",
  "outbound",
]);

/**
 * A mapping that holds at least one phase, each phase a list of rules (or null): laid out as a
 * policy, so that where its secrets stand can be told. Over any reading of it (NodeView).
 */
export function policyShaped<N>(view: NodeView<N>, root: N): boolean {
  const entries = view.entries(root);
  if (entries === undefined) return false;
  let phases = 0;
  for (const [key, value] of entries) {
    if (typeof key !== "string" || !PHASES.has(key)) continue;
    phases++;
    if (view.scalar(value)?.value === null) continue;
    const rules = view.items(value);
    if (rules === undefined) return false;
    for (const rule of rules) if (view.entries(rule) === undefined) return false;
  }
  return phases > 0;
}

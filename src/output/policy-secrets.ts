// Where a Traffic Policy keeps its secrets, by structure: the `secret` of a `verify-webhook`
// action and the `client_secret` of an `oauth` or `openid-connect` action. One walk, over the
// parsed document as plain data (to check or redact) and over a located view of the text (to
// mask each secret where it stands): masking never searches the text for a secret's value.

import { SECRET_FIELDS } from "../secrets/index.js";

/** A node of a parsed document, as the walk sees it (JSON, YAML or plain data). */
export interface NodeView<N> {
  /** The mapping's entries (merge keys followed), or undefined when it is not a mapping. */
  entries(node: N): Iterable<[unknown, N]> | undefined;
  /** The sequence's items, or undefined when it is not a sequence. */
  items(node: N): Iterable<N> | undefined;
  /** The scalar's value, or undefined when it is not a scalar. */
  scalar(node: N): { value: unknown } | undefined;
}

/** An empty or null secret shows nothing: it stays as it is. */
function isSet<N>(view: NodeView<N>, node: N): boolean {
  const s = view.scalar(node);
  return s === undefined || (s.value !== null && s.value !== "");
}

/** The values of `key` in a mapping (every occurrence: merge keys may repeat one). */
function valuesOf<N>(view: NodeView<N>, node: N, key: string): N[] {
  const out: N[] = [];
  for (const [k, v] of view.entries(node) ?? []) if (k === key) out.push(v);
  return out;
}

/**
 * The secret value nodes of a policy document (a mapping whose phases are lists of rules):
 * every rule of every phase, every action whose `type` names a secret field, each such field
 * of its `config` (every occurrence). Empty and null values are left out. (Loops, not a
 * generator: this runs once per policy shown, in code that runs once, where a generator's
 * machinery costs more than the walk.)
 */
export function secretNodes<N>(view: NodeView<N>, root: N): N[] {
  const found: N[] = [];
  for (const [, phase] of view.entries(root) ?? []) {
    for (const rule of view.items(phase) ?? []) {
      for (const actions of valuesOf(view, rule, "actions")) {
        for (const action of view.items(actions) ?? []) {
          for (const typeNode of valuesOf(view, action, "type")) {
            const type = view.scalar(typeNode)?.value;
            const fields = typeof type === "string" && Object.hasOwn(SECRET_FIELDS, type) ? SECRET_FIELDS[type]! : [];
            if (fields.length === 0) continue;
            for (const config of valuesOf(view, action, "config"))
              for (const field of fields)
                for (const v of valuesOf(view, config, field)) if (isSet(view, v)) found.push(v);
          }
        }
      }
    }
  }
  return found;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Plain data (JSON.parse or yaml's parse), as the walk sees it. */
export const plainView: NodeView<unknown> = {
  entries: (n) => (isRecord(n) ? Object.entries(n) : undefined),
  items: (n) => (Array.isArray(n) ? n : undefined),
  scalar: (n) => (n === null || typeof n !== "object" ? { value: n } : undefined),
};

/** The secrets a parsed policy holds (as text), e.g. to redact them from a --debug log. */
export function policySecretValues(document: unknown): string[] {
  return secretNodes(plainView, document).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
}

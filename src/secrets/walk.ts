// The walk that finds the secret places of src/secrets/index.ts's table in a parsed Traffic
// Policy: over plain data (to check, redact or mask a copy) and over a located view of a text
// (src/output: to mask each secret where it stands). Every layer that looks for a policy's
// secrets (masking, --debug redaction, the secrets a command knows) goes through it, so they
// all find the same places; masking never searches a text for a secret's value.

import { MASK, isReference, placesOf, stepTakes, type Place } from "./index.js";

/** A node of a parsed document, as the walk sees it (JSON, YAML or plain data). */
export interface NodeView<N> {
  /** The mapping's entries (merge keys followed), or undefined when it is not a mapping. */
  entries(node: N): Iterable<[unknown, N]> | undefined;
  /** The sequence's items, or undefined when it is not a sequence. */
  items(node: N): Iterable<N> | undefined;
  /** The scalar's value, or undefined when it is not a scalar. */
  scalar(node: N): { value: unknown } | undefined;
}

/**
 * An empty or null secret shows nothing, and a reference to one (the whole value one
 * interpolation: `${secrets.get("vault", "name")}`) is no secret: they stay as they are.
 */
function isSet<N>(view: NodeView<N>, node: N): boolean {
  const s = view.scalar(node);
  return s === undefined || (s.value !== null && s.value !== "" && !isReference(s.value));
}

/** The values of `key` in a mapping (every occurrence: merge keys may repeat one). */
function valuesOf<N>(view: NodeView<N>, node: N, key: string): N[] {
  const out: N[] = [];
  for (const [k, v] of view.entries(node) ?? []) if (k === key) out.push(v);
  return out;
}

/** A secret value node and its path from the document's root (keys and list indexes). */
export interface Found<N> {
  node: N;
  path: (string | number)[];
}

/**
 * The nodes at a place below `node` (its path `path`). A node that is not the mapping or list
 * a step needs (a string where the credentials list belongs, a list where the headers map
 * does) holds what should have been secrets: it is found whole, unless it is empty or null.
 */
function atPlace<N>(view: NodeView<N>, node: N, path: (string | number)[], place: Place, found: Found<N>[]): void {
  if (place.length === 0) {
    if (isSet(view, node)) found.push({ node, path });
    return;
  }
  const [step, ...rest] = place as [Place[number], ...Place];
  if ("each" in step) {
    const items = view.items(node);
    if (items === undefined) {
      if (isSet(view, node)) found.push({ node, path });
      return;
    }
    let i = 0;
    for (const item of items) atPlace(view, item, [...path, i++], rest, found);
    return;
  }
  const entries = view.entries(node);
  if (entries === undefined) {
    if (isSet(view, node)) found.push({ node, path });
    return;
  }
  for (const [k, v] of entries) if (stepTakes(step, k)) atPlace(view, v, [...path, k as string], rest, found);
}

/**
 * The secret value nodes of a policy document (a mapping whose phases are lists of rules),
 * with their paths: every rule of every phase, every action whose `type` has secret places,
 * each place of its `config` (every occurrence). Empty and null values are left out.
 */
export function findSecrets<N>(view: NodeView<N>, root: N): Found<N>[] {
  const found: Found<N>[] = [];
  for (const [phaseKey, phase] of view.entries(root) ?? []) {
    let r = 0;
    for (const rule of view.items(phase) ?? []) {
      const rulePath = [String(phaseKey), r++];
      for (const actions of valuesOf(view, rule, "actions")) {
        let a = 0;
        for (const action of view.items(actions) ?? []) {
          const actionPath = [...rulePath, "actions", a++];
          for (const typeNode of valuesOf(view, action, "type")) {
            const places = placesOf(view.scalar(typeNode)?.value);
            if (places.length === 0) continue;
            for (const config of valuesOf(view, action, "config"))
              for (const place of places) atPlace(view, config, [...actionPath, "config"], place, found);
          }
        }
      }
    }
  }
  return found;
}

/** The secret value nodes of a policy document (see findSecrets). */
export function secretNodes<N>(view: NodeView<N>, root: N): N[] {
  return findSecrets(view, root).map((f) => f.node);
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
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v !== null && typeof v === "object") {
      // A list or mapping at a secret place: each of its values (and the whole, as JSON).
      out.push(JSON.stringify(v));
      for (const inner of Object.values(v)) add(inner);
    } else if (v !== null && v !== undefined) out.push(String(v));
  };
  for (const v of secretNodes(plainView, document)) add(v);
  return out;
}

/**
 * A policy as plain data with each secret value replaced by "********" (a copy: the document
 * given is not changed; keys keep their order). For output only, never to be sent.
 */
export function maskPolicyData<T>(document: T): T {
  const found = findSecrets(plainView, document);
  if (found.length === 0) return document;
  const copy = structuredClone(document) as unknown;
  for (const { path } of found) {
    let at = copy as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
    Object.defineProperty(at, path[path.length - 1]!, {
      value: MASK,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy as T;
}

// The yaml library, bundled apart (dist/yaml-text.cjs) and required only when a YAML policy is
// masked or edited, so no other command parses it at start-up (printing is yaml-write.ts's).
import { isAlias, isMap, isScalar, isSeq, parse, parseDocument, type Document, type Node } from "yaml";
import { secretNodes, type NodeView } from "./policy-secrets.js";

// Merge keys (`<<: *base`) as Go's yaml.v3 reads them: a secret may come in through one.
const OPTIONS = { merge: true } as const;

/** A YAML text as data (aliases and merge keys resolved); throws when it is not one YAML document. */
export function parseYaml(text: string): unknown {
  return parse(text, OPTIONS) as unknown;
}

/** What a YAML policy text is, for masking: where its secrets stand, or why it has no such places. */
export type YamlSecrets = { kind: "policy"; ranges: [number, number][] } | { kind: "empty" } | { kind: "not-policy" };

/** How many nodes a walk may visit (aliases can make a small text a huge tree). */
const MAX_VISITS = 100_000;

function yamlView(doc: Document): NodeView<Node | null> {
  let visits = 0;
  const resolve = (node: unknown): Node | null => {
    if (++visits > MAX_VISITS) throw new Error("too many aliases");
    let n = node;
    for (let hops = 0; isAlias(n); hops++) {
      if (hops > 100) throw new Error("alias chain");
      n = n.resolve(doc);
    }
    return (n ?? null) as Node | null;
  };
  const entries = (node: Node | null, depth = 0): [unknown, Node | null][] | undefined => {
    const n = resolve(node);
    if (!isMap(n)) return undefined;
    const out: [unknown, Node | null][] = [];
    for (const pair of n.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key === "symbol" && depth < 20) {
        // A merge key: the entries of the mapping(s) it names come in.
        const value = resolve(pair.value as Node);
        const sources = isSeq(value) ? value.items.map((v) => v as Node) : [value];
        for (const source of sources) out.push(...(entries(source, depth + 1) ?? []));
      } else out.push([key, resolve(pair.value as Node)]);
    }
    return out;
  };
  return {
    entries: (n) => entries(n),
    items: (n) => {
      const r = resolve(n);
      return isSeq(r) ? r.items.map((v) => resolve(v)) : undefined;
    },
    scalar: (n) => {
      const r = resolve(n);
      return r === null ? { value: null } : isScalar(r) ? { value: r.value } : undefined;
    },
  };
}

/** Where the secrets of a YAML policy stand in its text (each value node's source range). */
export function yamlSecretRanges(text: string): YamlSecrets {
  const doc = parseDocument(text, OPTIONS);
  if (doc.errors.length > 0) return { kind: "not-policy" };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { kind: "empty" };
  if (!isMap(root)) return { kind: "not-policy" };
  const ranges: [number, number][] = [];
  try {
    for (const node of secretNodes(yamlView(doc), root)) {
      if (!node?.range) return { kind: "not-policy" };
      ranges.push([node.range[0], node.range[1]]);
    }
  } catch {
    return { kind: "not-policy" };
  }
  return { kind: "policy", ranges };
}

/**
 * The YAML text with the mapping at `path` holding `values` (each written as `scalars` says):
 * a value that stands as a scalar is replaced where it stands (every other byte kept); else
 * the document is edited and written out again (comments kept). Throws when `path` does not
 * lead to a mapping (through an alias, for one).
 */
export function setYamlValues(
  text: string,
  path: (string | number)[],
  values: [string, string][],
  scalars: (key: string, value: string) => string,
): string {
  const doc = parseDocument(text, OPTIONS);
  const nodes = values.map(([key]) => doc.getIn([...path, key], true) as Node | undefined);
  if (nodes.every((n) => isScalar(n) && n.range)) {
    const edits = values
      .map(([key, value], i) => ({ range: nodes[i]!.range!, text: scalars(key, value) }))
      .sort((a, b) => b.range[0] - a.range[0]);
    let out = text;
    for (const { range, text: scalar } of edits) {
      const trailing = /\s*$/.exec(out.slice(range[0], range[1]))![0];
      out = out.slice(0, range[0]) + scalar + trailing + out.slice(range[1]);
    }
    return out;
  }
  const target = doc.getIn(path, true);
  if (isMap(target)) for (const [key, value] of values) target.set(key, value);
  else if (target === undefined || (isScalar(target) && target.value === null))
    doc.setIn(path, Object.fromEntries(values));
  else throw new Error(`${path.join(".")} is not a mapping written out in the text`);
  return doc.toString({ lineWidth: 0 });
}

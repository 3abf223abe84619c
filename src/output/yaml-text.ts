// A YAML policy text's nodes where they stand, for masking and in-place edits, on the yaml
// library's Document as src/policy/yaml.ts reads it (the tool's one YAML configuration).
// Bundled with it (dist/yaml.cjs) and required only when a YAML text is read, so no other
// command parses the library at start-up (printing is yaml-write.ts's).
import { isAlias, isMap, isScalar, isSeq, visit, type Alias, type Document, type Node, type YAMLMap } from "yaml";
import { work } from "../policy/work.js";
import { yamlDocument, type YamlDocument } from "../policy/yaml.js";
import { policyShaped, secretNodes, type NodeView } from "./policy-secrets.js";

/** What a YAML policy text is, for masking: where its secrets stand, or why it has no such places. */
export type YamlSecrets = { kind: "policy"; ranges: [number, number][] } | { kind: "empty" } | { kind: "not-policy" };

/**
 * How many nodes a walk may visit: aliases can make a small text a huge tree. Past a floor, a
 * bound per node of the document (the walk resolves a node a few times), so a long policy
 * written out in full is never refused for its length.
 */
const VISITS_FLOOR = 100_000;
const visitsFor = (nodes: number) => VISITS_FLOOR + 10 * nodes;

/**
 * The node each alias names: the last node before it anchored with its name, as the library's
 * Alias.resolve finds it, but for every alias in one visit of the document (resolve visits the
 * whole document for each alias: a policy of many aliases would cost its size times theirs).
 */
function aliasTargets(doc: Document): { targets: Map<Alias, Node | undefined>; nodes: number } {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  let nodes = 0;
  visit(doc, {
    Node(_, node) {
      work.steps++;
      nodes++;
      if (isAlias(node)) targets.set(node, anchors.get(node.source));
      else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  return { targets, nodes };
}

export function yamlView(doc: Document): NodeView<Node | null> {
  // The alias table and the bound on visits (which needs the document's size) are made when
  // the walk first meets an alias, or passes the bound's floor (merge keys alone can make it
  // resolve one mapping's entries again and again), not before: most policies never get there,
  // and the visit of the whole document was a third of masking a small policy. The bound
  // cannot be passed below its floor, so it holds as if made first.
  let aliases: { targets: Map<Alias, Node | undefined>; maxVisits: number } | undefined;
  let visits = 0;
  const resolve = (node: unknown): Node | null => {
    work.steps++;
    let n = node;
    if (++visits > VISITS_FLOOR || isAlias(n)) {
      if (aliases === undefined) {
        const { targets, nodes } = aliasTargets(doc);
        aliases = { targets, maxVisits: visitsFor(nodes) };
      }
      if (visits > aliases.maxVisits) throw new Error("too many aliases");
      for (let hops = 0; isAlias(n); hops++) {
        if (hops > 100) throw new Error("alias chain");
        n = aliases.targets.get(n);
      }
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

/** Where the secrets of a YAML policy stand in its text (each value node's source range); `read`: the text already read. */
export function yamlSecretRanges(text: string, read: YamlDocument = yamlDocument(text)): YamlSecrets {
  if (!read.ok) return { kind: "not-policy" };
  const root = read.doc?.contents ?? null;
  if (root === null || (isScalar(root) && root.value === null)) return { kind: "empty" };
  if (!isMap(root)) return { kind: "not-policy" };
  const ranges: [number, number][] = [];
  try {
    const view = yamlView(read.doc!);
    if (!policyShaped(view, root)) return { kind: "not-policy" };
    for (const node of secretNodes(view, root)) {
      if (!node?.range) return { kind: "not-policy" };
      ranges.push([node.range[0], node.range[1]]);
    }
  } catch {
    return { kind: "not-policy" };
  }
  return { kind: "policy", ranges };
}

/** `text` with each range replaced by its text, every other byte kept (ranges apart, in any order). */
function replaceRanges(text: string, edits: { range: readonly [number, number]; text: string }[]): string {
  // One pass, front to back (not a slice and join per edit: that costs the text's length each).
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0]);
  const parts: string[] = [];
  let at = 0;
  for (const { range, text: replacement } of sorted) {
    parts.push(text.slice(at, range[0]), replacement, text.slice(trimEnd(text, range[0], range[1]), range[1]));
    work.steps += range[1] - at;
    at = range[1];
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** Where the blanks and line ends that close text[start, end) begin (a YAML block scalar's, kept). */
function trimEnd(text: string, start: number, end: number): number {
  let i = end;
  while (i > start && /\s/.test(text[i - 1]!)) i--;
  return i;
}

/**
 * The YAML text with the mapping at `path` holding `values` (each written as `scalars` says),
 * every other byte kept: a value that stands (a scalar, or an alias) is replaced where it stands;
 * a missing key is added in place (in a flow mapping after its last entry, in a block mapping
 * on a line of its own at the mapping's column); a missing or null mapping at `path` is written
 * as a flow mapping where it stands, or added to the mapping above it. Never the document written
 * out again. Throws (saying why) what cannot be edited so: a path through an alias, a value that
 * is a collection, a value anchored and named elsewhere by an alias (changing it would change
 * that place too).
 */
export function setYamlValues(
  text: string,
  path: (string | number)[],
  values: [string, string][],
  scalars: (key: string, value: string) => string,
): string {
  const read = yamlDocument(text);
  if (!read.ok) throw new Error(read.message);
  if (read.doc === null) throw new Error("the text holds no YAML document");
  const doc = read.doc;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const entry = ([key, value]: [string, string]) => `${key}: ${scalars(key, value)}`;
  const flow = () => `{${values.map(entry).join(", ")}}`;
  const edits: { range: readonly [number, number]; text: string }[] = [];
  // A collection on the way that another place names by an alias would change there too.
  for (let i = 1; i <= path.length; i++) {
    const node = doc.getIn(path.slice(0, i), true) as Node | undefined;
    const anchor = node !== undefined && !isAlias(node) ? node.anchor : undefined;
    if (anchor !== undefined && aliasNames(doc, anchor))
      throw new Error(
        `${path.slice(0, i).join(".")} is the YAML anchor &${anchor}, which *${anchor} names elsewhere: changing it would change that place too`,
      );
  }
  const target = doc.getIn(path, true) as Node | undefined;
  if (isMap(target)) {
    const missing: [string, string][] = [];
    for (const [key, value] of values) {
      const node = target.get(key, true) as Node | undefined;
      if (node === undefined) missing.push([key, value]);
      else if ((isScalar(node) || isAlias(node)) && node.range) {
        const anchor = isScalar(node) ? node.anchor : undefined;
        if (anchor !== undefined && aliasNames(doc, anchor))
          throw new Error(
            `its ${key} is the YAML anchor &${anchor}, which *${anchor} names elsewhere: changing it would change that place too`,
          );
        edits.push(scalarEdit(text, node.range, scalars(key, value)));
      } else throw new Error(`its ${key} is not a single value written out in the text`);
    }
    if (missing.length > 0) edits.push(insertEntries(text, target, missing, "provider", eol, entry));
  } else if (target === undefined) {
    const parent = doc.getIn(path.slice(0, -1), true) as Node | undefined;
    if (!isMap(parent) || parent.has(path.at(-1))) throw new Error(`${path.join(".")} is not written out in the text`);
    edits.push(insertEntries(text, parent, [[String(path.at(-1)), ""]], "type", eol, ([key]) => `${key}: ${flow()}`));
  } else if (isScalar(target) && target.value === null && target.range && !target.anchor)
    edits.push(scalarEdit(text, target.range, flow()));
  else throw new Error(`${path.join(".")} is not a mapping written out in the text`);
  return replaceRanges(text, edits);
}

/** Whether an alias of the document names `anchor`. */
function aliasNames(doc: Document, anchor: string): boolean {
  let found = false;
  visit(doc, {
    Alias(_, node) {
      if (node.source !== anchor) return undefined;
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/** The value at `range` replaced; an empty value (`key:` alone) gets the blanks it needs around it. */
function scalarEdit(text: string, range: readonly number[], replacement: string) {
  const [start, end] = [range[0]!, range[1]!];
  if (start !== end) return { range: [start, end] as const, text: replacement };
  const before = start > 0 && !/\s/.test(text[start - 1]!) ? " " : "";
  const after = start < text.length && !/\s/.test(text[start]!) ? " " : "";
  return { range: [start, start] as const, text: `${before}${replacement}${after}` };
}

/**
 * Where and what to insert to add `entries` to `map`, in place: in a flow mapping after its last
 * entry (or inside its braces); in a block mapping, each on a line of its own at the mapping's
 * column, after the line of the entry `after` (else the last) when that entry is one line, else
 * before the first key.
 */
function insertEntries(
  text: string,
  map: YAMLMap,
  entries: [string, string][],
  after: string,
  eol: string,
  write: (entry: [string, string]) => string,
): { range: readonly [number, number]; text: string } {
  const written = entries.map(write);
  const at = (i: number, t: string) => ({ range: [i, i] as const, text: t });
  if (map.flow) {
    const last = map.items.at(-1);
    if (last === undefined) return at(map.range![0] + 1, written.join(", "));
    const end = (last.value as Node | null)?.range?.[1] ?? (last.key as Node).range![1];
    return at(end, written.map((w) => `, ${w}`).join(""));
  }
  const firstKey = (map.items[0]!.key as Node).range![0];
  const column = firstKey - (text.lastIndexOf("\n", firstKey - 1) + 1);
  const pad = " ".repeat(column);
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === after) ?? map.items.at(-1)!;
  const key = pair.key as Node;
  const value = pair.value as Node | null;
  const end = value?.range?.[1] ?? key.range![1];
  if ((value === null || isScalar(value) || isAlias(value)) && !text.slice(key.range![0], end).includes("\n")) {
    const newline = text.indexOf("\n", end);
    if (newline === -1) return at(text.length, written.map((w) => `${eol}${pad}${w}`).join(""));
    return at(newline + 1, written.map((w) => `${pad}${w}${eol}`).join(""));
  }
  return at(firstKey, written.map((w) => `${w}${eol}${pad}`).join(""));
}

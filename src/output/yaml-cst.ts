// Where the secrets of a YAML policy stand, read from the yaml library's syntax tree (its Lexer
// and Parser, and its own scalar resolution, CST.resolveAsScalar: the functions its Composer
// calls), without composing a Document: the Composer, its schema and its nodes are most of the
// library and of a YAML read (issue 24, item 5: `endpoint get` of a YAML policy). Bundled apart
// (dist/yaml-cst.cjs, about a third of dist/yaml.cjs).
//
// It reads the plain shape a policy is written in: block and flow mappings and sequences of
// plain, single- and double-quoted scalars, with comments. Anything else — an anchor, an alias,
// a tag, a merge key, an explicit or complex key, a block scalar, a directive or document
// marker, a repeated key, more than one document, an error of the parser or of a scalar, a
// mapping item out of its column, a secret that is not a scalar — is left to the Document
// (src/output/yaml-text.ts): `undefined`, and the caller reads the text as before. Both walk
// the same table of secret places (src/secrets/walk.ts); test/output/yaml-cst.property.test.ts
// holds that wherever this reads a text, the Document finds the same places.
import { CST, Lexer, Parser } from "yaml";
import { MAX_NESTING } from "../policy/text-format.js";
import { work } from "../policy/work.js";
import { policyShaped, secretNodes, type NodeView } from "./policy-secrets.js";

/** A node of the plain shape: a mapping, a sequence, or a scalar with its value's place in the text. */
type Plain =
  | { kind: "map"; entries: [unknown, Plain][] }
  | { kind: "seq"; items: Plain[] }
  | { kind: "scalar"; value: unknown; range?: [number, number] };

/** The text is not of the plain shape: the Document reads it. */
class NotPlain extends Error {}
const notPlain = (): never => {
  throw new NotPlain();
};

// YAML 1.2's core schema (src/policy/yaml.ts reads with version 1.2): what a plain scalar is
// when it is not a string (yaml's schema/core tags; the spec, 10.3.2).
const NULL = /^(?:~|null|Null|NULL)?$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

function plainValue(source: string): unknown {
  // Most plain scalars of a policy are words: none of these starts so.
  if (source !== "" && !/^[-+.0-9~nNtTfF]/.test(source)) return source;
  if (NULL.test(source)) return null;
  if (TRUE.test(source)) return true;
  if (FALSE.test(source)) return false;
  if (NUMBER.test(source)) {
    if (/inf/i.test(source)) return source.startsWith("-") ? -Infinity : Infinity;
    if (/nan/i.test(source)) return NaN;
    return Number(source);
  }
  return source;
}

type Token = CST.Token;
type SourceToken = CST.SourceToken;

/** The source tokens that may stand between nodes of the plain shape: blanks and comments, and these. */
const BLANK = ["space", "comment", "newline"];
const BETWEEN = {
  blank: new Set(BLANK),
  seqItem: new Set([...BLANK, "seq-item-ind"]),
  flowItem: new Set([...BLANK, "comma"]),
};

/** How many of `tokens` are of `type`. */
const count = (tokens: SourceToken[] | undefined, type: string) => (tokens ?? []).filter((t) => t.type === type).length;

/** A key's separator: blanks, then one `:`, then blanks and comments. */
const separator = (sep: SourceToken[] | undefined) => {
  const at = sep?.findIndex((t) => t.type === "map-value-ind") ?? -1;
  if (at < 0 || count(sep, "map-value-ind") !== 1 || sep!.slice(0, at).some((t) => t.type !== "space")) notPlain();
  return sep!.filter((_, i) => i !== at);
};

/** The column of `offset` in `text`. */
const columnOf = (text: string, offset: number) => offset - (text.lastIndexOf("\n", offset - 1) + 1);

function reader(text: string) {
  const between = (tokens: SourceToken[] | undefined, allowed = BETWEEN.blank) => {
    for (const t of tokens ?? []) {
      work.steps++;
      if (!allowed.has(t.type)) notPlain();
      // A comment must follow a blank or a line end (the Composer refuses one that does not).
      if (t.type === "comment" && t.offset > 0 && !/[ \t\r\n]/.test(text[t.offset - 1]!)) notPlain();
    }
  };
  const scalar = (token: Token): Plain & { kind: "scalar" } => {
    if (token.type !== "scalar" && token.type !== "single-quoted-scalar" && token.type !== "double-quoted-scalar")
      return notPlain();
    between(token.end);
    const read = CST.resolveAsScalar(token, true, notPlain);
    const value = token.type === "scalar" ? plainValue(read.value) : read.value;
    return { kind: "scalar", value, range: [read.range[0], read.range[1]] };
  };
  const key = (token: Token | null | undefined): unknown => {
    if (!token) return notPlain();
    // A merge key is the Document's to follow; a key over lines, the Composer's to refuse.
    if (token.type === "scalar" && token.source === "<<") notPlain();
    const read = scalar(token);
    if (/[\r\n]/.test(text.slice(read.range![0], read.range![1]))) notPlain();
    return read.value;
  };
  const entriesOf = (pairs: [unknown, Plain][]) => {
    // A key given twice is refused by the one YAML configuration (uniqueKeys): the Document says so.
    const seen = new Set<unknown>();
    for (const [k] of pairs) {
      if (seen.has(k) || (typeof k === "number" && Number.isNaN(k))) notPlain();
      seen.add(k);
    }
    return pairs;
  };
  const nothing: Plain = { kind: "scalar", value: null };
  const node = (token: Token | undefined, depth: number): Plain => {
    work.steps++;
    if (token === undefined) return nothing;
    switch (token.type) {
      case "block-map": {
        if (depth >= MAX_NESTING) notPlain();
        const pairs: [unknown, Plain][] = [];
        for (const item of token.items) {
          if (item.explicitKey || !item.sep) notPlain();
          between(item.start);
          if (columnOf(text, item.key?.offset ?? -1) !== token.indent) notPlain();
          const k = key(item.key);
          between(separator(item.sep));
          pairs.push([k, node(item.value, depth + 1)]);
        }
        return { kind: "map", entries: entriesOf(pairs) };
      }
      case "block-seq": {
        if (depth >= MAX_NESTING) notPlain();
        const items: Plain[] = [];
        for (const item of token.items) {
          // Never a key here, by the parser's types; checked all the same.
          const { key: k, sep } = item as CST.CollectionItem;
          if (k !== undefined || sep !== undefined) notPlain();
          between(item.start, BETWEEN.seqItem);
          const indicator = item.start.find((t) => t.type === "seq-item-ind");
          if (
            !indicator ||
            count(item.start, "seq-item-ind") !== 1 ||
            columnOf(text, indicator.offset) !== token.indent
          )
            notPlain();
          items.push(node(item.value, depth + 1));
        }
        return { kind: "seq", items };
      }
      case "flow-collection": {
        if (depth >= MAX_NESTING) notPlain();
        const map = token.start.source === "{";
        if (!map && token.start.source !== "[") notPlain();
        const close = token.end.find((t) => t.type === "flow-map-end" || t.type === "flow-seq-end");
        if (close?.type !== (map ? "flow-map-end" : "flow-seq-end")) notPlain();
        // Blanks, and a comma after the last item, before the bracket; blanks after it.
        const closeAt = token.end.indexOf(close!);
        between(token.end.slice(0, closeAt), BETWEEN.flowItem);
        if (count(token.end, "comma") > (token.items.length > 0 ? 1 : 0)) notPlain();
        between(token.end.slice(closeAt + 1));
        const pairs: [unknown, Plain][] = [];
        const items: Plain[] = [];
        token.items.forEach((item, i) => {
          between(item.start, BETWEEN.flowItem);
          // Items after the first are each after one comma; the first after none.
          if (count(item.start, "comma") !== (i > 0 ? 1 : 0)) notPlain();
          if (map) {
            if (!item.sep || item.key === undefined) notPlain();
            const k = key(item.key);
            between(separator(item.sep));
            pairs.push([k, node(item.value, depth + 1)]);
          } else {
            if (item.key !== undefined || item.sep !== undefined || item.value === undefined) notPlain();
            items.push(node(item.value, depth + 1));
          }
        });
        return map ? { kind: "map", entries: entriesOf(pairs) } : { kind: "seq", items };
      }
      default:
        return scalar(token);
    }
  };
  return { between, node };
}

const view: NodeView<Plain> = {
  entries: (n) => (n.kind === "map" ? n.entries : undefined),
  items: (n) => (n.kind === "seq" ? n.items : undefined),
  scalar: (n) => (n.kind === "scalar" ? { value: n.value } : undefined),
};

/** A checkpoint of the caller's (src/io/checkpoint.ts's `every`), as src/policy/yaml.ts takes it. */
export type Pause = () => Promise<void> | undefined;

/**
 * Where the secrets of a YAML policy text stand (each secret scalar's range, as the Document
 * gives it), "not-policy" for a mapping not laid out as a policy, or undefined when the text is
 * not of the plain shape (the Document then reads it). `pause` is called after each lexeme, as
 * src/policy/yaml.ts's reading calls it, so a long text hears a signal while it is read.
 */
export async function plainYamlSecretRanges(
  text: string,
  pause: Pause,
): Promise<{ kind: "policy"; ranges: [number, number][] } | { kind: "not-policy" } | undefined> {
  // Indented past 400 columns: src/policy/yaml.ts refuses the text before the parser sees it.
  if (/^[ \t?-]{401}/m.test(text)) return undefined;
  const parser = new Parser();
  const tokens: Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    const turn = pause();
    if (turn) await turn;
  }
  for (const token of parser.end()) tokens.push(token);
  try {
    const { between, node } = reader(text);
    // One document, and around it only comments and blanks.
    const docs = tokens.filter((t) => t.type === "document");
    if (docs.length !== 1) return undefined;
    between(tokens.filter((t) => t.type !== "document") as SourceToken[]);
    const doc = docs[0]!;
    between(doc.start);
    between(doc.end);
    if (doc.value?.type !== "block-map" && !(doc.value?.type === "flow-collection" && doc.value.start.source === "{"))
      return undefined;
    const root = node(doc.value, 0);
    if (!policyShaped(view, root)) return { kind: "not-policy" };
    const ranges: [number, number][] = [];
    for (const found of secretNodes(view, root)) {
      if (found.kind !== "scalar" || !found.range) return undefined;
      ranges.push(found.range);
    }
    return { kind: "policy", ranges };
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

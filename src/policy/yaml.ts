// How edgectl reads YAML: one configuration, declared here once, for every YAML text the tool
// reads (the validator, masking, the in-place edit of `endpoint webhook-verification replace`,
// the emulator), and the two readings built on it: text → data (or why not), and text → the
// yaml library's Document, whose nodes say where each value stands. The yaml library is bundled
// apart (dist/yaml.cjs, scripts/build.mjs) and required only when a YAML text is read.
import { Composer, isCollection, isPair, Lexer, parseAllDocuments, Parser, type Document } from "yaml";
import { MAX_NESTING } from "./text-format.js";
import { work } from "./work.js";

/**
 * The parse options: YAML 1.2 (core schema), merge keys (`<<: *base`) followed as Go's yaml.v3
 * follows them (ngrok reads policies with it: a secret may come in through one), and a key
 * repeated in a mapping refused.
 */
export const YAML_OPTIONS = { version: "1.2", merge: true, uniqueKeys: true } as const;
/** Aliases that expand past this ("billion laughs") are refused like any text not a policy. */
export const MAX_ALIAS_COUNT = 100;
/** A policy document nests at most 64 levels of mappings and sequences (the contract), as JSON does. */
export { MAX_NESTING };

// The yaml library's composer recurses once per level of nesting: thousands of levels (a 20 kB
// text of `[`) exhaust its stack, and V8 has then been seen to abort the whole process. These
// bounds, checked on the text before it is parsed, are far below the parser's limit.
const MAX_FLOW_DEPTH = 100;
const MAX_INDENT = 400;

/**
 * Why `text` nests too deep to hand to the YAML parser (undefined: it does not). Both bounds are
 * first looked for with the engine's own searches (indexOf, one regex), so a policy far from
 * them is not walked character by character in JavaScript: that loop, run once per command in
 * V8's interpreter, was 0.3 ms of a small policy's `endpoint get` (BENCHMARKS.md, "Issue 24 item 5, fifth look").
 */
function tooDeep(text: string): string | undefined {
  // No more than MAX_FLOW_DEPTH brackets that open: nothing nests deeper.
  if (opening(text, MAX_FLOW_DEPTH + 1)) {
    let depth = 0;
    let max = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // [ { open, ] } close (quotes ignored: a string of 100 unclosed brackets is refused too).
      if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
      else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    }
    if (max > MAX_FLOW_DEPTH) return `nested more than ${MAX_FLOW_DEPTH} levels deep in [ ] or { }`;
  }
  // Indentation, and the `- - -` of sequences nested on one line: a line (after \n, \r or
  // \r\n, as YAML ends lines) that opens with more than MAX_INDENT of them.
  if (TOO_INDENTED.test(text)) return `indented more than ${MAX_INDENT} columns`;
  return undefined;
}

const TOO_INDENTED = new RegExp(`(?:^|[\\r\\n])[ \\t?-]{${MAX_INDENT + 1}}`);

/** Whether `text` holds at least `count` brackets that open ([ or {). */
function opening(text: string, count: number): boolean {
  let found = 0;
  for (const bracket of ["[", "{"])
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++found >= count) return true;
  return false;
}

/** Whether collections nest deeper than MAX_NESTING under `node` (aliases not followed: what they name is in the tree). */
function nestsTooDeep(node: unknown): boolean {
  const stack: [unknown, number][] = [[node, 0]];
  while (stack.length > 0) {
    const [n, depth] = stack.pop()!;
    work.steps++;
    if (isPair(n)) {
      stack.push([n.key, depth], [n.value, depth]);
      continue;
    }
    if (!isCollection(n)) continue;
    if (depth + 1 > MAX_NESTING) return true;
    for (const item of n.items) stack.push([item, depth + 1]);
  }
  return false;
}

/** The document, null for a text of comments and blanks alone (no document), or why it is not one. */
export type YamlDocument = { ok: true; doc: Document | null } | { ok: false; message: string };

// One read of each text (issue 27 item 6): the validator (src/policy/parse.ts), masking
// (src/output/mask.ts, yaml-text.ts), the secrets kept on update (live-secrets.ts) and the
// in-place edit of `webhook-verification replace` (setYamlValues, and its read back) all come
// here for the text they are given, so a command reads a text once, and what is checked is
// what is masked and sent. No caller changes a Document (they read nodes and ranges; data is
// made afresh by dataOf). The last few texts are kept: a command reads one or two.
const documents = new Map<string, YamlDocument>();
const KEPT = 4;
function remember(text: string, read: YamlDocument): YamlDocument {
  if (documents.size >= KEPT) documents.delete(documents.keys().next().value!);
  documents.set(text, read);
  return read;
}

/** The one YAML document of `text` (every node with its place), or why it is not one (the first error, with its line). */
export function yamlDocument(text: string): YamlDocument {
  const known = documents.get(text);
  if (known) return known;
  const deep = tooDeep(text);
  if (deep) return remember(text, { ok: false, message: deep });
  return remember(text, oneDocument(parseAllDocuments(text, YAML_OPTIONS)));
}

/** A checkpoint of the caller's (src/io/checkpoint.ts's `every`): a promise when the event loop should turn. */
export type Pause = () => Promise<void> | undefined;

/**
 * yamlDocument, with `pause` called after each lexeme of the text: a read of megabytes hears a
 * signal while it lexes and builds the syntax tree, most of its time (a 16 MiB policy: seconds).
 * It drives the library's own steps as parseAllDocuments does (Lexer → Parser.next → Composer.next,
 * then each one's end); a text with an error is read again by yamlDocument, whose message
 * names the line and column as the library words it.
 */
export async function yamlDocumentPausing(text: string, pause: Pause): Promise<YamlDocument> {
  const known = documents.get(text);
  if (known) return known;
  const deep = tooDeep(text);
  if (deep) return remember(text, { ok: false, message: deep });
  const parser = new Parser();
  const composer = new Composer(YAML_OPTIONS);
  const docs: Document[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) for (const doc of composer.next(token)) docs.push(doc);
    const turn = pause();
    if (turn) await turn;
  }
  for (const token of parser.end()) for (const doc of composer.next(token)) docs.push(doc);
  for (const doc of composer.end()) docs.push(doc);
  if (docs.some((doc) => doc.errors.length > 0)) return yamlDocument(text);
  return remember(text, oneDocument(docs));
}

function oneDocument(docs: Document[]): YamlDocument {
  if (docs.length === 0) return { ok: true, doc: null };
  if (docs.length !== 1) return { ok: false, message: `one YAML document expected (got ${docs.length})` };
  const doc = docs[0]!;
  const error = doc.errors[0];
  // yaml's message names the line and column; its first line is enough.
  if (error) return { ok: false, message: error.message.split("\n")[0]! };
  if (nestsTooDeep(doc.contents)) return { ok: false, message: `nested more than ${MAX_NESTING} levels deep` };
  return { ok: true, doc };
}

export type ReadYaml = { ok: true; value: unknown } | { ok: false; message: string };

/** The one YAML document of `text` as data (aliases and merge keys resolved), or why it is not one. */
export function readYaml(text: string): ReadYaml {
  return dataOf(yamlDocument(text));
}

/** readYaml, hearing signals while it reads (yamlDocumentPausing). */
export async function readYamlPausing(text: string, pause: Pause): Promise<ReadYaml> {
  return dataOf(await yamlDocumentPausing(text, pause));
}

/** A document read as data (aliases and merge keys resolved), or why not: readYaml of a text already read. */
export function dataOf(read: YamlDocument): ReadYaml {
  if (!read.ok) return read;
  if (read.doc === null) return { ok: false, message: "one YAML document expected (got 0)" };
  try {
    return { ok: true, value: read.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch (err) {
    // Aliases that expand past the bound: refused like any text not a policy.
    return { ok: false, message: (err as Error).message.split("\n")[0]! };
  }
}

/** readYaml's value; throws (with its message) when the text is not one YAML document. */
export function yamlValue(text: string): unknown {
  const read = readYaml(text);
  if (!read.ok) throw new Error(read.message);
  return read.value;
}

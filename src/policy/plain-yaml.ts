// The plain YAML most policies are written in, read without the yaml library: loading and
// running that library costs more than the rest of `endpoint get` or `policy check` (BENCHMARKS.md).
// Read: block mappings and sequences (compact and indentless ones too), flow mappings and
// sequences (over several lines too), plain and quoted scalars on one line, `|` and `|-` block
// scalars, comments. Everything else is declined (undefined) and the caller hands the text to
// the library: anchors, aliases, tags, merge keys, directives and document markers, explicit
// keys, multi-line plain or quoted scalars, folded scalars, duplicate or non-string keys, tabs,
// CR, control characters. What it reads, it reads as the library does, value and place of every
// scalar (test/policy/plain-yaml.property.test.ts compares the two on random and mutated texts).

/** A value with where it stands in the text (a scalar's range holds its quotes). */
export type LocatedNode =
  | { kind: "object"; start: number; end: number; entries: [string, LocatedNode][] }
  | { kind: "array"; start: number; end: number; items: LocatedNode[] }
  | { kind: "scalar"; start: number; end: number; value: unknown; block?: true };

/** The located document of `text`, or undefined when it is not the plain YAML read here. */
export function readPlainYaml(text: string): LocatedNode | undefined {
  if (DECLINED_CHARS.test(text)) return undefined;
  try {
    return new Reader(text).document();
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

/**
 * Whether a policy text may be JSON (a collection): any other JSON text (a number, a string,
 * true, null) reads in YAML as the same value, so only these are worth a JSON.parse, which
 * costs a thrown error on every YAML text.
 */
export const mayBeJson = (text: string): boolean => /^\s*[[{]/.test(text);

/** The node as plain data (what the library's parse gives). */
export function plainValue(node: LocatedNode): unknown {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "array") return node.items.map(plainValue);
  const out: Record<string, unknown> = {};
  for (const [key, value] of node.entries) out[key] = plainValue(value);
  return out;
}

// Tabs (indentation or separation), CR, controls, DEL, C1, line and paragraph separators, BOM.
const DECLINED_CHARS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
/** Characters that start something other than a plain scalar (or that YAML reserves). */
const INDICATORS = new Set([..."-?:,[]{}#&*!|>'\"%@`"]);
/** What ends a plain scalar in a flow collection: an indicator, a line end, `: `, a comment. */
const FLOW_PLAIN_END = /[,[\]{}\n]|:[ \n,[\]{}]|:$| #/g;
const MAX_DEPTH = 64;
const MAX_KEY = 1024;

/** Spaces (only: YAML trims no other blank) at the end of a plain scalar. */
const trimSpaces = (s: string) => s.replace(/ +$/, "");

class NotPlain extends Error {}
const decline = (): never => {
  throw new NotPlain();
};

// YAML 1.2 core schema, as the yaml library resolves a plain scalar (its tags' tests, in order:
// null /^(?:~|[Nn]ull|NULL)?$/ and bool /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/ as WORDS below).
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Words the core schema reads as null or a boolean. */
const WORDS = new Map<string, unknown>([
  ...["", "~", "null", "Null", "NULL"].map((w): [string, unknown] => [w, null]),
  ...["true", "True", "TRUE"].map((w): [string, unknown] => [w, true]),
  ...["false", "False", "FALSE"].map((w): [string, unknown] => [w, false]),
]);

function resolvePlain(s: string): unknown {
  if (WORDS.has(s)) return WORDS.get(s);
  // Only what starts with a digit, a sign or a dot can be a number: the rest is a string at
  // once, without running (and first compiling) the number patterns.
  const c = s.charCodeAt(0);
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return s;
  if (INT_OCT.test(s)) return parseInt(s.slice(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (INT_HEX.test(s)) return parseInt(s.slice(2), 16);
  if (FLOAT_NAN.test(s)) return decline();
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return parseFloat(s);
  return s;
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

type Scalar = Extract<LocatedNode, { kind: "scalar" }>;

class Reader {
  private i = 0;
  private depth = 0;
  /** After a block-level node: the column of the next line with content (-1: the text ended). */
  private next = -1;
  constructor(private readonly text: string) {}

  document(): LocatedNode {
    const column = this.nextContent(true);
    if (column < 0) decline(); // no value at all: the library says what that is
    const root = this.blockNode(column, -1);
    if (this.next >= 0) decline();
    return root;
  }

  private at(offset = 0): string | undefined {
    return this.text[this.i + offset];
  }

  /** A space, a line end or the end of the text: what ends an indicator. */
  private isBreakOrSpace(ch: string | undefined): boolean {
    return ch === undefined || ch === " " || ch === "\n";
  }

  /** At a block sequence's `- ` (or a `-` that ends its line). */
  private atEntry(): boolean {
    return this.at() === "-" && this.isBreakOrSpace(this.at(1));
  }

  private skipSpaces(): void {
    while (this.at() === " ") this.i++;
  }

  /** At the end of the line's content: its end, the text's end, or a comment. */
  private atLineEnd(): boolean {
    const ch = this.at();
    if (ch === undefined || ch === "\n") return true;
    return ch === "#" && (this.i === 0 || this.text[this.i - 1] === " " || this.text[this.i - 1] === "\n");
  }

  private expectLineEnd(): void {
    this.skipSpaces();
    if (!this.atLineEnd()) decline();
  }

  /**
   * From the end of a line (or the text's start), to the first character of the next line that
   * holds more than blanks and comments; returns its column, or -1 when the text ends first.
   */
  private nextContent(fromStart = false): number {
    const { text } = this;
    if (!fromStart) this.i = this.lineEnd() + 1;
    for (;;) {
      if (this.i >= text.length) return -1;
      const lineStart = this.i;
      this.skipSpaces();
      const ch = this.at();
      if (ch === undefined) return -1;
      if (ch === "\n" || ch === "#") {
        this.i = this.lineEnd() + 1;
        continue;
      }
      const column = this.i - lineStart;
      if (column === 0 && this.atDocumentMarker()) decline();
      return column;
    }
  }

  /** Where the current line ends (its "\n", or the text's length). */
  private lineEnd(): number {
    const end = this.text.indexOf("\n", this.i);
    return end < 0 ? this.text.length : end;
  }

  /** `---` or `...` (then a blank or the line's end) at the start of a line. */
  private atDocumentMarker(): boolean {
    const { text, i } = this;
    return (
      (text.startsWith("---", i) || text.startsWith("...", i)) &&
      (i + 3 === text.length || text[i + 3] === " " || text[i + 3] === "\n")
    );
  }

  /**
   * The first `:` in [from, to) that a blank, the line's end or the text's end follows (what
   * ends a key), or -1.
   */
  private colonIndicator(from: number, to: number): number {
    const { text } = this;
    for (let c = text.indexOf(":", from); c >= 0 && c < to; c = text.indexOf(":", c + 1))
      if (c + 1 === text.length || text[c + 1] === " " || text[c + 1] === "\n") return c;
    return -1;
  }

  /** Where a comment starts in [from, to) (a `#` after a blank), or `to`. */
  private commentStart(from: number, to: number): number {
    const c = this.text.indexOf(" #", from);
    return c < 0 || c >= to ? to : c;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) decline();
  }

  /** The node whose first line has content at `column` (more than `parent`, the indent it is under). */
  private blockNode(column: number, parent: number): LocatedNode {
    this.enter();
    let node: LocatedNode;
    if (this.atEntry()) node = this.blockSequence(column);
    else {
      const key = this.key();
      if (key !== undefined) node = this.blockMapping(column, key);
      else {
        node = this.inlineValue(parent);
        this.next = this.nextContent();
      }
    }
    this.depth--;
    return node;
  }

  /**
   * The key that starts here, its `:` (a blank or the line's end after it) passed; undefined,
   * the reader where it was, when no key starts here.
   */
  private key(): string | undefined {
    const start = this.i;
    const ch = this.at();
    let key: unknown;
    if (ch === '"' || ch === "'") {
      key = this.quoted().value;
      this.skipSpaces();
    } else {
      if (ch === undefined || INDICATORS.has(ch) || ch === " ") return undefined;
      const end = this.commentStart(start, this.lineEnd());
      const colon = this.colonIndicator(start, end);
      if (colon < 0) return undefined;
      this.i = colon;
      key = resolvePlain(trimSpaces(this.text.slice(start, colon)));
    }
    if (this.at() !== ":" || !this.isBreakOrSpace(this.at(1))) {
      this.i = start;
      return undefined;
    }
    this.i++;
    return this.checkKey(key);
  }

  private checkKey(key: unknown): string {
    // Merge keys and __proto__ are read differently by different readers; numbers, booleans
    // and null as keys become strings in data: all left to the library.
    if (typeof key !== "string" || key === "<<" || key === "__proto__" || key.length > MAX_KEY) return decline();
    return key;
  }

  /** A block mapping whose first key (`first`, its `:` passed) stands at `column`. */
  private blockMapping(column: number, first: string): LocatedNode {
    const start = this.text.lastIndexOf("\n", this.i - 1) + 1 + column;
    const entries: [string, LocatedNode][] = [];
    const keys = new Set<string>();
    for (let key = first; ; key = this.key() ?? decline()) {
      if (keys.has(key)) decline();
      keys.add(key);
      const afterColon = this.i;
      this.skipSpaces();
      let value: LocatedNode;
      if (this.atLineEnd()) {
        this.next = this.nextContent();
        if (this.next > column) value = this.blockNode(this.next, column);
        else if (this.next === column && this.atEntry()) value = this.blockSequence(column);
        else value = { kind: "scalar", start: afterColon, end: afterColon, value: null };
      } else {
        value = this.inlineValue(column);
        this.next = this.nextContent();
      }
      entries.push([key, value]);
      if (this.next !== column) {
        if (this.next > column) decline(); // a plain scalar going on, or a node nothing holds
        return { kind: "object", start, end: value.end, entries };
      }
    }
  }

  private blockSequence(column: number): LocatedNode {
    const start = this.i;
    const items: LocatedNode[] = [];
    for (;;) {
      this.i++; // the "-"
      this.skipSpaces();
      let item: LocatedNode;
      if (this.atLineEnd()) {
        const dash = this.i;
        this.next = this.nextContent();
        if (this.next > column) item = this.blockNode(this.next, column);
        else item = { kind: "scalar", start: dash, end: dash, value: null };
      } else item = this.blockNode(this.i - this.lineStart(), column); // `- a`, `- k: v`, `- - a`
      items.push(item);
      if (this.next > column) decline();
      if (this.next < column || !this.atEntry()) return { kind: "array", start, end: item.end, items };
    }
  }

  private lineStart(): number {
    return this.text.lastIndexOf("\n", this.i - 1) + 1;
  }

  /**
   * A value that starts on this line (a scalar, a flow collection or a `|` block scalar), with
   * nothing but a comment after it on its last line.
   */
  private inlineValue(indent: number): LocatedNode {
    const ch = this.at();
    if (ch === "|") return this.literal(indent);
    if (ch === '"' || ch === "'" || ch === "[" || ch === "{") {
      const node = ch === "[" || ch === "{" ? this.flowNode(indent) : this.quoted();
      this.expectLineEnd();
      return node;
    }
    if (ch === undefined || INDICATORS.has(ch)) return decline();
    // A plain scalar: to the line's end or a comment; `: ` in it would make it a mapping.
    const start = this.i;
    const end = this.commentStart(start, this.lineEnd());
    if (this.colonIndicator(start, end) >= 0) decline();
    this.i = end;
    const raw = trimSpaces(this.text.slice(start, end));
    return { kind: "scalar", start, end: start + raw.length, value: resolvePlain(raw) };
  }

  /** A single- or double-quoted scalar that ends on its line. */
  private quoted(): Scalar {
    const { text } = this;
    const start = this.i;
    const quote = text[start]!;
    const lineEnd = this.lineEnd();
    let value = "";
    for (let from = start + 1; ;) {
      const close = text.indexOf(quote, from);
      const escape = quote === '"' ? text.indexOf("\\", from) : -1;
      if (escape >= 0 && (close < 0 || escape < close)) {
        if (escape >= lineEnd) return decline();
        value += text.slice(from, escape);
        const next = text[escape + 1] ?? "";
        const length = HEX_LENGTH[next];
        if (Object.hasOwn(ESCAPES, next)) value += ESCAPES[next];
        else if (length !== undefined) {
          const hex = text.slice(escape + 2, escape + 2 + length);
          const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === length ? parseInt(hex, 16) : NaN;
          if (!(code <= 0x10ffff)) decline();
          value += String.fromCodePoint(code);
        } else decline();
        from = escape + 2 + (length ?? 0);
        continue;
      }
      if (close < 0 || close >= lineEnd) return decline(); // no closing quote on this line
      value += text.slice(from, close);
      if (quote === "'" && text[close + 1] === "'") {
        value += "'";
        from = close + 2;
        continue;
      }
      this.i = close + 1;
      return { kind: "scalar", start, end: this.i, value };
    }
  }

  /**
   * A `|` or `|-` block scalar (keep `+`, indentation digits and `>` are declined); its lines
   * are those after it indented more than `indent`. Leaves the reader at the end of its last line.
   */
  private literal(indent: number): Scalar {
    const { text } = this;
    const start = this.i++;
    let chomp = "clip";
    if (this.at() === "-") {
      chomp = "strip";
      this.i++;
    }
    this.expectLineEnd();
    while (this.i < text.length && text[this.i] !== "\n") this.i++;
    if (this.i >= text.length) decline();
    const lines: string[] = [];
    let contentIndent = -1;
    let leadingBlank = 0;
    let end = this.i; // the "\n" ending the last line taken
    for (let lineStart = this.i + 1; lineStart < text.length;) {
      const lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd < 0) return decline(); // a last line with no line break ends the value differently
      const line = text.slice(lineStart, lineEnd);
      const spaces = /^ */.exec(line)![0].length;
      const blank = spaces === line.length;
      if (contentIndent < 0) {
        if (blank) {
          leadingBlank = Math.max(leadingBlank, spaces);
          lines.push("");
        } else {
          if (spaces <= indent) break;
          if (leadingBlank > spaces) decline();
          contentIndent = spaces;
          lines.push(line.slice(spaces));
        }
      } else if (blank) lines.push(line.slice(contentIndent));
      else if (spaces < contentIndent) break;
      else lines.push(line.slice(contentIndent));
      end = lineEnd;
      lineStart = lineEnd + 1;
    }
    if (contentIndent < 0) decline(); // no content line: left to the library
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    // Blank lines taken after the content belong to no one else: the reader resumes after them.
    this.i = end;
    const body = lines.join("\n");
    return { kind: "scalar", start, end, value: chomp === "strip" ? body : `${body}\n`, block: true };
  }

  /** Blanks, line ends and comments inside a flow collection; its lines must be indented past `indent`. */
  private flowSpace(indent: number): void {
    const { text } = this;
    for (;;) {
      this.skipSpaces();
      const ch = this.at();
      if (ch === "#" && (text[this.i - 1] === " " || text[this.i - 1] === "\n")) {
        while (this.i < text.length && text[this.i] !== "\n") this.i++;
        continue;
      }
      if (ch !== "\n") return;
      this.i++;
      const lineStart = this.i;
      this.skipSpaces();
      const next = this.at();
      if (next !== undefined && next !== "\n" && next !== "#" && this.i - lineStart <= indent) decline();
      if (this.i - lineStart === 0 && /^(?:---|\.\.\.)(?:[ \n]|$)/.test(text.slice(this.i, this.i + 4))) decline();
    }
  }

  private flowNode(indent: number): LocatedNode {
    this.enter();
    const ch = this.at();
    let node: LocatedNode;
    if (ch === "[") node = this.flowSequence(indent);
    else if (ch === "{") node = this.flowMapping(indent);
    else if (ch === '"' || ch === "'") node = this.quoted();
    else {
      const plain = this.flowPlain();
      node = { ...plain, value: resolvePlain(plain.raw) };
    }
    this.depth--;
    return node;
  }

  /** A plain scalar inside a flow collection: up to `,` `[` `]` `{` `}`, a comment, the line's end or `: `. */
  private flowPlain(): { kind: "scalar"; start: number; end: number; raw: string } {
    const { text } = this;
    const ch = this.at();
    if (ch === undefined || INDICATORS.has(ch) || ch === " " || ch === "\n") decline();
    const start = this.i;
    FLOW_PLAIN_END.lastIndex = start;
    this.i = FLOW_PLAIN_END.exec(text)?.index ?? text.length;
    const raw = trimSpaces(text.slice(start, this.i));
    return { kind: "scalar", start, end: start + raw.length, raw };
  }

  private flowSequence(indent: number): LocatedNode {
    const start = this.i++;
    const items: LocatedNode[] = [];
    for (;;) {
      this.flowSpace(indent);
      if (this.at() === "]") break;
      items.push(this.flowNode(indent));
      this.flowSpace(indent);
      if (this.at() === ",") this.i++;
      else if (this.at() !== "]") decline(); // a pair in a sequence, a plain scalar going on, …
    }
    this.i++;
    return { kind: "array", start, end: this.i, items };
  }

  private flowMapping(indent: number): LocatedNode {
    const start = this.i++;
    const entries: [string, LocatedNode][] = [];
    const keys = new Set<string>();
    for (;;) {
      this.flowSpace(indent);
      if (this.at() === "}") break;
      const ch = this.at();
      const key = this.checkKey(ch === '"' || ch === "'" ? this.quoted().value : resolvePlain(this.flowPlain().raw));
      if (keys.has(key)) decline();
      keys.add(key);
      this.flowSpace(indent);
      if (this.at() !== ":") decline(); // a key with no value
      this.i++;
      this.flowSpace(indent);
      if (this.at() === "," || this.at() === "}") decline(); // an empty value
      entries.push([key, this.flowNode(indent)]);
      this.flowSpace(indent);
      if (this.at() === ",") this.i++;
      else if (this.at() !== "}") decline();
    }
    this.i++;
    return { kind: "object", start, end: this.i, entries };
  }
}

// The plain YAML reader against the yaml library: whatever text it reads, the library reads
// without error to the same data, and each scalar stands where the library says it does. It may
// decline any text (the library then reads it); it must never read a text differently.
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from "yaml";
import { jsonView } from "../../src/output/json-ranges.js";
import { secretNodes } from "../../src/output/policy-secrets.js";
import { yamlSecretRanges } from "../../src/output/yaml-text.js";
import { plainValue, readPlainYaml, type LocatedNode } from "../../src/policy/plain-yaml.js";

const DIR = new URL("../fixtures/policy/", import.meta.url);
const fixtures = [
  ...readdirSync(DIR).filter((f) => f.endsWith(".yaml")),
  ...readdirSync(new URL("non-reference/", DIR)).map((f) => `non-reference/${f}`),
].map((f) => ({ file: f, text: readFileSync(new URL(f, DIR), "utf8") }));

/** The library's reading: its data and each scalar's [start, end], or undefined when it reports an error. */
function library(text: string): { value: unknown; scalars: string[] } | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1) return undefined;
  const doc = docs[0]!;
  if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
  const scalars: string[] = [];
  const walk = (n: Node | null): void => {
    if (isMap(n))
      for (const p of n.items) {
        walk(p.key as Node);
        walk(p.value as Node);
      }
    else if (isSeq(n)) for (const v of n.items) walk(v as Node);
    else if (isScalar(n) && n.range) {
      const block = n.type === "BLOCK_LITERAL" || n.type === "BLOCK_FOLDED";
      scalars.push(`${n.range[0]}${block ? "" : `-${n.range[1]}`}:${JSON.stringify(n.value)}`);
    }
  };
  walk(doc.contents as Node | null);
  return { value: doc.toJS() as unknown, scalars };
}

/**
 * The plain reader's value scalars as the library lists them (keys are not located; nor is an
 * empty value, which stands nowhere; a block scalar's end is where its last line ends).
 */
function located(node: LocatedNode, out: string[] = []): string[] {
  if (node.kind === "scalar") {
    if (node.end > node.start)
      out.push(`${node.start}${node.block ? "" : `-${node.end}`}:${JSON.stringify(node.value)}`);
  } else if (node.kind === "array") for (const item of node.items) located(item, out);
  else for (const [, v] of node.entries) located(v, out);
  return out;
}

function expectAgrees(text: string): boolean {
  const mine = readPlainYaml(text);
  if (mine === undefined) return false;
  const lib = library(text);
  expect(lib, `the library refuses a text the plain reader read:\n${text}`).toBeDefined();
  expect(plainValue(mine)).toEqual(lib!.value);
  // Every scalar the plain reader placed stands where the library placed one of that value.
  for (const s of located(mine)) expect(lib!.scalars).toContain(s);
  return true;
}

describe("the plain YAML reader", () => {
  test("reads ngrok's example policies as the library does, most of them without it", () => {
    let read = 0;
    for (const { text } of fixtures) if (expectAgrees(text)) read++;
    // The examples are what people write: nearly all are plain. (A fall in this count means
    // the reader declines what it should read, and those policies pay for the library.)
    expect(read).toBeGreaterThanOrEqual(fixtures.length - 3);
  });

  test.each([
    ["a: 1\nb: [x, 'y', \"z\"]\n", { a: 1, b: ["x", "y", "z"] }],
    ["a:\n- 1\n- - 2\n  - 3\n", { a: [1, [2, 3]] }],
    ["- a: 1\n  b: 2\n- c\n", [{ a: 1, b: 2 }, "c"]],
    ["k: |\n  line 1\n\n  line 2\n\n\nn: 0x1f\n", { k: "line 1\n\nline 2\n", n: 31 }],
    ["k: |-\n    x\n     y\n", { k: "x\n y" }],
    ['k: "\\x41\\u00e9\\U0001F600\\N\\_"', { k: "Aé😀\u0085\u00a0" }],
    ["k: {a: b, 'c': [1, 2.5, 1e3, .5, +7, 0o17, ~, null, true, False]}  # c", null],
    ["url: https://a.internal:443/x#y #c\n", { url: "https://a.internal:443/x#y" }],
    ["k: [\n  a,\n  # c\n  b,\n  ]\n", { k: ["a", "b"] }],
    ['{"a": 1, "b": {"c": []}}', { a: 1, b: { c: [] } }],
    ["a:\n\nb:\n  # only a comment\nc: x\n", { a: null, b: null, c: "x" }],
    [
      "- |\n  x\n   y\n- |-\n  z\n\n- k: |\n    w\n  # less indented: a comment\n  j: 1\n",
      ["x\n y\n", "z", { k: "w\n", j: 1 }],
    ],
    ["k: |\n\n  after a blank line\n  #not a comment\n", { k: "\nafter a blank line\n#not a comment\n" }],
  ])("reads %j", (text, value) => {
    expect(expectAgrees(text)).toBe(true);
    if (value !== null) expect(plainValue(readPlainYaml(text)!)).toEqual(value);
  });

  test.each([
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "<<: {a: 1}\n",
    "a: 1\na: 2\n",
    "---\na: 1\n",
    "a: 1\n---\nb: 2\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: b\n  c\n",
    "a: 'b\n  c'\n",
    "a: >\n  folded\n",
    "a: |+\n  keep\n",
    "a: |2\n   x\n",
    "a:\tb\n",
    "a: b\r\nc: d\r\n",
    "? a\n: b\n",
    "1: a\n",
    "true: a\n",
    "__proto__: a\n",
    "a: [b\n  c]\n",
    "a: {b}\n",
    "a: .nan\n",
    "a: |\n  no line end at the end",
    `${"[".repeat(200)}${"]".repeat(200)}`,
    "",
    "# only comments\n",
  ])("declines %j (the library reads it, or refuses it)", (text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });
});

// Random edits of the examples, with the characters YAML gives a meaning to: the reader reads
// the result as the library does, or declines it.
const EDIT_CHARS = [..." \n-:#'\"[]{},|>&*!?%@`\\~0"].concat(["  ", "- ", ": ", " #", "\n  ", "\n- ", "''", '\\"']);

describe("random edits of the examples", () => {
  test("are read as the library reads them, or declined", () => {
    let read = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures),
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...EDIT_CHARS)), { minLength: 1, maxLength: 4 }),
        ({ text }, edits) => {
          let t = text;
          for (const [at, cut, insert] of edits) {
            const i = at % (t.length + 1);
            t = t.slice(0, i) + insert + t.slice(i + cut);
          }
          if (expectAgrees(t)) read++;
        },
      ),
      { numRuns: 3000, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
    // Most edits leave plain YAML (a comment, a blank, a quote in a value): were the reader to
    // decline them all, this test would hold nothing.
    expect(read).toBeGreaterThan(900);
  });
});

// The secrets masking replaces: where the plain reader reads a policy, the places of its
// secrets are those the library finds (yaml-text.ts, the masking path before the plain reader).
describe("random edits of the examples that hold secrets", () => {
  const withSecrets = fixtures.filter(({ text }) => /secret/.test(text));
  test("locate each secret where the library does", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...withSecrets),
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...EDIT_CHARS)), { maxLength: 3 }),
        ({ text }, edits) => {
          let t = text;
          for (const [at, cut, insert] of edits) {
            const i = at % (t.length + 1);
            t = t.slice(0, i) + insert + t.slice(i + cut);
          }
          const plain = readPlainYaml(t);
          if (plain?.kind !== "object") return;
          const mine = secretNodes(jsonView, plain);
          if (!mine.every((n) => n.kind === "scalar" && n.block === undefined)) return; // left to the library
          const lib = yamlSecretRanges(t);
          expect(lib.kind).toBe("policy");
          if (lib.kind !== "policy") return;
          expect(mine.map((n) => [n.start, n.end])).toEqual(lib.ranges);
          if (mine.length > 0) compared++;
        },
      ),
      { numRuns: 2000, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
    expect(compared).toBeGreaterThan(500);
  });
});

// Random data written out in YAML's styles (block, flow, compact, indentless, quoted, comments):
// what the reader reads of it, the library reads alike.
const scalar = fc.oneof(
  fc.constantFrom(
    "a",
    "x y",
    "1",
    "-1",
    "0x1f",
    "1.5",
    "true",
    "null",
    "~",
    "",
    "a:b",
    "a #b",
    "é",
    "https://h.internal:8",
  ),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: fc.constantFrom(..."ab :#-'\"\\{}[],|>\n&*!é".split("")), maxLength: 6 }),
);
type Data = unknown;
const data: fc.Arbitrary<Data> = fc.letrec<{ node: Data }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b c", "type", "config", "secret", "on_http_request", "x-y"), tie("node"), {
      maxKeys: 3,
    }),
  ),
})).node;

function quote(s: string, style: number): string {
  if (style === 0 && /^[a-z][a-z -]*[a-z]$/.test(s) && !/^(?:true|false|null)$/.test(s)) return s;
  if (style === 1 && !s.includes("\n")) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s);
}

function scalarText(v: unknown, style: number): string {
  return typeof v === "string" ? quote(v, style) : v === null ? (style === 0 ? "~" : "null") : String(v);
}

function flow(v: unknown, style: number): string {
  if (Array.isArray(v)) return `[${v.map((x) => flow(x, style)).join(", ")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${quote(k, style)}: ${flow(x, style)}`)
      .join(", ")}}`;
  return scalarText(v, style);
}

function block(v: unknown, indent: number, style: number, width: number): string {
  const pad = " ".repeat(indent);
  const isCollection = (x: unknown) => x !== null && typeof x === "object" && Object.keys(x).length > 0;
  if (Array.isArray(v) && v.length > 0)
    return v
      .map((x) =>
        isCollection(x) && style !== 2
          ? `${pad}-\n${block(x, indent + width, style, width)}`
          : isCollection(x)
            ? `${pad}- ${block(x, indent + 2, style, width).slice(indent + 2)}`
            : `${pad}- ${flow(x, style)}${style === 1 ? "  # note" : ""}\n`,
      )
      .join("");
  if (v !== null && typeof v === "object" && Object.keys(v).length > 0)
    return Object.entries(v)
      .map(([k, x]) => {
        const key = `${pad}${quote(k, style)}:`;
        if (!isCollection(x)) return `${key} ${flow(x, style)}\n`;
        const inner = Array.isArray(x) && style === 3 ? indent : indent + width;
        return `${key}\n${style === 1 ? `${pad}  # c\n` : ""}${block(x, inner, style, width)}`;
      })
      .join("");
  return `${pad}${flow(v, style)}\n`;
}

describe("random data in YAML's styles", () => {
  test("reads back as written, as the library reads it", () => {
    let read = 0;
    fc.assert(
      fc.property(data, fc.nat(3), fc.integer({ min: 1, max: 4 }), (value, style, width) => {
        for (const text of [block(value, 0, style, width), flow(value, style)]) {
          const mine = readPlainYaml(text);
          if (mine !== undefined) {
            read++;
            expectAgrees(text);
            expect(plainValue(mine)).toEqual(value);
          }
        }
      }),
      { numRuns: 2000, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
    expect(read).toBeGreaterThan(3000); // of 4000 texts
  });
});

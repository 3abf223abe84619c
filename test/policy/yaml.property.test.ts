// The tool's one YAML reading (src/policy/yaml.ts) on what the plain reader it replaced read:
// each text reads to the value written, and random data written in YAML's styles (block, flow,
// compact, indentless, quoted, comments) reads back as written.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { maskPolicyText } from "../../src/output/mask.js";
import { checkPolicyText, parsePolicyText } from "../../src/policy/parse.js";
import { readYaml, readYamlPausing } from "../../src/policy/yaml.js";

function read(text: string): unknown {
  const r = readYaml(text);
  expect(r, text).toMatchObject({ ok: true });
  return r.ok ? r.value : undefined;
}

describe("YAML read by the tool's one configuration", () => {
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
    const v = read(text);
    if (value !== null) expect(v).toEqual(value);
  });

  test.each([
    ["a: 1\na: 2\n", "Map keys must be unique"],
    ["a: 1\n---\nb: 2\n", "one YAML document expected (got 2)"],
    ["# only comments\n", "one YAML document expected (got 0)"],
    [`${"[".repeat(200)}${"]".repeat(200)}`, "nested more than 100 levels deep in [ ] or { }"],
    [`${"[".repeat(65)}${"]".repeat(65)}`, "nested more than 64 levels deep"],
    // At the text bound: 100 levels are the parser's to read (and past the document's 64), 101 are not.
    [`${"{".repeat(100)}${"}".repeat(100)}`, "nested more than 64 levels deep"],
    [`k: ${"[".repeat(50)}${"{".repeat(51)}`, "nested more than 100 levels deep in [ ] or { }"],
  ])("refuses %j", (text, message) => {
    expect(readYaml(text)).toEqual({ ok: false, message: expect.stringContaining(message) });
  });

  // The contract's two bounds on a text handed to the parser, as the walk of each character and
  // each line words them; src/policy/yaml.ts looks for them with indexOf and one regex first.
  function bound(text: string): string | undefined {
    let depth = 0;
    let max = 0;
    for (const c of text) {
      if (c === "[" || c === "{") max = Math.max(max, ++depth);
      else if ((c === "]" || c === "}") && depth > 0) depth--;
    }
    if (max > 100) return "nested more than 100 levels deep in [ ] or { }";
    for (const line of text.split(/\r?\n|\r/))
      if (/^[ \t?-]*/.exec(line)![0].length > 400) return "indented more than 400 columns";
    return undefined;
  }
  const BOUNDS = ["nested more than 100 levels deep in [ ] or { }", "indented more than 400 columns"];

  test("refuses a text past either bound, and only such a text, with the bound's words", () => {
    const piece = fc.constantFrom(
      ..."[]{}- \t?\n\rx:#'\"\u2028".split(""),
      "\r\n",
      "[".repeat(40),
      "{".repeat(30),
      "]".repeat(40),
      "}".repeat(30),
      " ".repeat(150),
      " ".repeat(400),
      "-".repeat(399),
      "- ".repeat(70),
      "\t?".repeat(60),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join("");
        const want = bound(text);
        const read = readYaml(text);
        if (want !== undefined) expect(read).toEqual({ ok: false, message: want });
        else if (!read.ok) expect(BOUNDS).not.toContain(read.message);
      }),
      { numRuns: 200 },
    );
  });

  test("follows merge keys, as masking does", () => {
    expect(read("base: &b {type: deny}\nrule:\n  <<: *b\n  name: x\n")).toEqual({
      base: { type: "deny" },
      rule: { type: "deny", name: "x" },
    });
  });

  test("a merge key brings the same secret to the validator and to masking", async () => {
    const text = [
      "x-hook: &hook",
      "  type: verify-webhook",
      "  config: {provider: github, secret: s-merged}",
      "on_http_request:",
      "  - actions:",
      "      - <<: *hook",
      "      - type: deny",
      "",
    ].join("\n");
    expect(await parsePolicyText(text)).toMatchObject({
      ok: true,
      document: {
        on_http_request: [
          {
            actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s-merged" } }, { type: "deny" }],
          },
        ],
      },
    });
    // The validator reads the action the merge key brings, not a field named "<<".
    const problems = await checkPolicyText(text, { protocol: "https", internal: false });
    expect(problems.filter((p) => p.path.includes("<<"))).toEqual([]);
    expect(await maskPolicyText(text)).toBe(text.replace("s-merged", '"********"'));
  });

  test("reads 64 levels of nesting", () => {
    expect(read(`${"[".repeat(64)}${"]".repeat(64)}`)).toBeDefined();
  });
});

// Random data written out in YAML's styles (block, flow, compact, indentless, quoted, comments).
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
  test("reads back as written", () => {
    fc.assert(
      fc.property(data, fc.nat(3), fc.integer({ min: 1, max: 4 }), (value, style, width) => {
        for (const text of [block(value, 0, style, width), flow(value, style)]) expect(read(text)).toEqual(value);
      }),
      { numRuns: 400, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
  });
});

// policy check reads YAML pausing after each lexeme (so that a signal is heard mid-read,
// src/io/checkpoint.ts); what it reads is what readYaml reads, refusals and their words included.
describe("the pausing read", () => {
  test("reads every text as readYaml does: data, refusals and messages", async () => {
    const broken = fc.string({ unit: fc.constantFrom(..."a: -[]{}'\"#&*!|>\n\t,".split("")), maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          data.chain((v) => fc.nat(3).map((style) => block(v, 0, style, 2))),
          broken,
        ),
        async (text) => {
          let pauses = 0;
          const read = await readYamlPausing(text, () => {
            pauses++;
            return pauses % 3 === 0 ? Promise.resolve() : undefined;
          });
          expect(read).toEqual(readYaml(text));
        },
      ),
      { numRuns: 500, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
  });

  test("pauses as it reads: once per lexeme", async () => {
    let pauses = 0;
    const text = "on_http_request:\n" + "  - actions: [{type: deny}]\n".repeat(100);
    await readYamlPausing(text, () => void pauses++);
    expect(pauses).toBeGreaterThan(100 * 5);
  });
});

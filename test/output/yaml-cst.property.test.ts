// Masking reads a plain YAML policy from the yaml library's syntax tree alone
// (src/output/yaml-cst.ts) and any other by its Document (src/output/yaml-text.ts). As a
// property: wherever the syntax tree's reading answers, it finds what the Document finds — the
// same kind, and the same secret ranges in the same order — for policies written in every style
// (block and flow, any quoting, comments) and for those texts cut, spliced and broken at random
// (a stray indicator, an anchor, a tab, a repeated key...), where it must leave the text to the
// Document whenever it cannot be sure. And it does answer for the plain texts, so that the
// fast reading cannot quietly be never taken.
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { plainYamlSecretRanges } from "../../src/output/yaml-cst.js";
import { yamlSecretRanges } from "../../src/output/yaml-text.js";

const word = fc.oneof(
  fc.constantFrom(
    "github",
    "secret",
    "null",
    "true",
    "404",
    "0x1F",
    "1e3",
    "~",
    "a b",
    "x: y",
    "#no",
    "-",
    "'q'",
    '"d"',
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  fc.string({ maxLength: 6 }),
);
const secret = fc.oneof(word, fc.constant("${secrets.get('v', 'k')}"), fc.constant(""), fc.integer());
const headerName = fc.constantFrom("authorization", "Cookie", "PROXY-Authorization", "x-other", "accept");
const action = fc.oneof(
  fc.record({ type: fc.constant("verify-webhook"), config: fc.record({ provider: word, secret }) }),
  fc.record({ type: fc.constant("oauth"), config: fc.record({ provider: word, client_secret: secret }) }),
  fc.record({
    type: fc.constant("basic-auth"),
    config: fc.record({ credentials: fc.oneof(fc.array(secret, { maxLength: 3 }), secret) }),
  }),
  fc.record({
    type: fc.constant("add-headers"),
    config: fc.record({ headers: fc.dictionary(headerName, secret, { maxKeys: 3 }) }),
  }),
  fc.record({ type: fc.constant("custom-response"), config: fc.record({ status_code: fc.nat(600), body: word }) }),
  fc.record({ type: word, config: fc.record({ secret }) }),
);
const rule = fc.record(
  { name: word, expressions: fc.array(word, { maxLength: 2 }), actions: fc.array(action, { maxLength: 3 }) },
  { requiredKeys: ["actions"] },
);
const policy = fc.record(
  {
    on_http_request: fc.oneof(fc.array(rule, { maxLength: 3 }), fc.constant(null)),
    on_tcp_connect: fc.array(rule, { maxLength: 2 }),
    other: word,
  },
  { requiredKeys: ["on_http_request"] },
);
const style = fc.record({
  collectionStyle: fc.constantFrom("any", "block", "flow") as fc.Arbitrary<"any" | "block" | "flow">,
  defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE") as fc.Arbitrary<
    "PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE"
  >,
  defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE") as fc.Arbitrary<
    null | "PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE"
  >,
  indent: fc.constantFrom(2, 4),
  comments: fc.boolean(),
});
const written = fc.tuple(policy, style).map(([p, { comments, ...options }]) => {
  const text = stringify(p, { ...options, version: "1.2" });
  return comments ? `# a policy\n${text.replace(/^( *)- /gm, "$1# a rule, or an item\n$1- ")}` : text;
});
/** A text broken at random: a snippet put in, a span cut out. */
const SNIPPETS = [
  " ",
  "\n",
  "\t",
  "#",
  " #c",
  ":",
  ": ",
  "- ",
  "[",
  "]",
  "{",
  "}",
  ",",
  '"',
  "'",
  "&a ",
  "*a",
  "!t ",
  "<<: ",
  "? ",
  "|",
  ">",
  "---\n",
  "...\n",
  "\\",
  "\ufeff",
  "  ",
  "\n  ",
];
const broken = fc
  .tuple(written, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SNIPPETS), fc.nat(3)), { minLength: 1, maxLength: 3 }))
  .map(([text, edits]) => {
    let t = text;
    for (const [at, snippet, cut] of edits) {
      const i = at % (t.length + 1);
      t = t.slice(0, i) + snippet + t.slice(i + cut);
    }
    return t;
  });

const none = () => undefined;
async function agrees(text: string): Promise<boolean> {
  const plain = await plainYamlSecretRanges(text, none);
  if (plain !== undefined) expect(plain, text).toEqual(yamlSecretRanges(text));
  return plain !== undefined;
}

const RUNS = Number(process.env.EDGECTL_YAML_CST_RUNS ?? 150);

describe("the syntax tree's reading of a YAML policy", () => {
  it("finds what the Document finds, for policies in every style", async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(written, async (text) => {
        if (await agrees(text)) answered++;
      }),
      { numRuns: RUNS },
    );
    // Block scalars and the like are the Document's; most texts are read here.
    expect(answered).toBeGreaterThan(RUNS / 2);
  });

  it("finds what the Document finds, or leaves the text to it, for texts broken at random", async () => {
    await fc.assert(
      fc.asyncProperty(broken, async (text) => {
        await agrees(text);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it.each([
    [
      "an anchor and an alias",
      "on_http_request:\n  - actions:\n      - &a {type: verify-webhook, config: {secret: s}}\n      - *a\n",
    ],
    [
      "a merge key",
      "base: &b {secret: s}\non_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {<<: *b}\n",
    ],
    ["a tag", "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {secret: !!str s}\n"],
    [
      "a block scalar",
      "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config:\n          secret: |\n            s\n",
    ],
    [
      "a repeated key",
      "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {secret: a, secret: b}\n",
    ],
    ["two documents", "on_http_request: []\n---\non_http_request: []\n"],
    ["an item out of its column", "on_http_request:\n  - actions:\n    - type: deny\n   name: x\n"],
  ])("leaves %s to the Document", async (_what, text) => {
    expect(await plainYamlSecretRanges(text, none)).toBeUndefined();
  });

  it("reads the plain shape itself: block and flow, quoted, with comments", async () => {
    const text = `# hooks\non_http_request: # the rules\n  - name: 'hooks'\n    actions:\n      - type: "verify-webhook"\n        config: {provider: github, secret: "s3cret"} # masked\n  - actions: [{type: add-headers, config: {headers: {Authorization: 'Bearer x'}}}]\n`;
    const plain = await plainYamlSecretRanges(text, none);
    expect(plain).toEqual(yamlSecretRanges(text));
    expect(plain).toEqual({ kind: "policy", ranges: [expect.any(Array), expect.any(Array)] });
    const ranges = (plain as { ranges: [number, number][] }).ranges;
    expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual(['"s3cret"', "'Bearer x'"]);
  });
});

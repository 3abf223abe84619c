// `endpoint webhook-verification replace` keeps the text as it was (issue 25 item 10): only the
// provider and secret values change where they stand, a missing key is added in place (never
// the whole document written out again), a byte-order mark stays and JSON stays JSON, and a
// secret that is a YAML anchor named elsewhere is exit 2 saying why.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { setVerifyWebhook } from "../../../src/commands/endpoint/edit-policy.js";
import { UsageError } from "../../../src/errors.js";
import { locateJson, type JsonNode } from "../../../src/output/json-ranges.js";
import { yamlDocument, yamlValue } from "../../../src/policy/yaml.js";

const BOM = "\ufeff";

describe("replace keeps every other byte", () => {
  it("a JSON policy with a byte-order mark stays JSON, the mark kept", async () => {
    const text = `${BOM}{"on_http_request": [{"actions": [{"type": "verify-webhook", "config": {"provider": "github", "secret": "old"}}, {"type": "deny"}]}]}`;
    const { text: out } = await setVerifyWebhook(text, "stripe", "new", undefined);
    expect(out).toBe(text.replace('"github"', '"stripe"').replace('"old"', '"new"'));
  });

  it("a JSON policy with a byte-order mark and no secret: the key added in place", async () => {
    const text = `${BOM}{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{"provider":"github"}},{"type":"deny"}]}]}`;
    const { text: out } = await setVerifyWebhook(text, "stripe", "s", undefined);
    expect(out).toBe(text.replace('{"provider":"github"}', '{"provider":"stripe", "secret": "s"}'));
  });

  const hook = (config: string) =>
    `# the hooks\non_http_request:   # spaced  comment\n  - name: hooks\n    actions:\n      - type: verify-webhook\n${config}      - type: log\n        config: { metadata: {n: 0x1F,   m: [ 1 ,2 ]} }    # flow spacing\n`;

  it.each([
    [
      "the secret missing (block)",
      "        config:\n          provider: github   # gh\n",
      '        config:\n          provider: stripe   # gh\n          secret: "s3"\n',
    ],
    [
      "the provider missing (block)",
      '        config:\n          secret: "old"\n',
      '        config:\n          secret: "s3"\n          provider: stripe\n',
    ],
    [
      "the secret missing (flow)",
      "        config: {provider: github}  # gh\n",
      '        config: {provider: stripe, secret: "s3"}  # gh\n',
    ],
    ["the config missing", "", null],
    ["the config empty", "        config:\n", '        config: {provider: stripe, secret: "s3"}\n'],
    [
      "the config null, with a comment",
      "        config: ~ # none yet\n",
      '        config: {provider: stripe, secret: "s3"} # none yet\n',
    ],
  ])("%s: added in place, comments, spacing and 0x1F kept", async (_name, config, expected) => {
    const text = hook(config);
    const { text: out } = await setVerifyWebhook(text, "stripe", "s3", undefined);
    if (expected !== null) expect(out).toBe(hook(expected));
    else
      expect(out).toBe(
        text.replace(
          "      - type: verify-webhook\n",
          '      - type: verify-webhook\n        config: {provider: stripe, secret: "s3"}\n',
        ),
      );
  });

  it("a secret that is a YAML anchor named elsewhere is exit 2 saying why", async () => {
    const text = hook(
      "        config: {provider: github, secret: &s old}\n      - type: add-headers\n        config: {headers: {x-s: *s}}\n",
    );
    const err = (await setVerifyWebhook(text, "stripe", "new", undefined).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/YAML anchor &s.*\*s/);
  });

  it("a secret that is an alias is replaced where the alias stands (the anchor keeps its value)", async () => {
    const text = hook(
      "        config: {provider: github, secret: *s}\n      - type: add-headers\n        config: {headers: {x-s: &s old}}\n",
    ).replace("# the hooks\non_http_request:", "# the hooks\nx: &s old\non_http_request:");
    const { text: out } = await setVerifyWebhook(text, "stripe", "new", undefined);
    expect(out).toBe(text.replace("provider: github, secret: *s", 'provider: stripe, secret: "new"'));
  });
});

// The property: random policies (JSON with and without a byte-order mark, YAML block and flow
// with comments); after replace, the text differs from the input only at the provider and
// secret values, or by the key added, and reads as the policy with those values set.

type ConfigState =
  { kind: "map"; provider?: string; secret?: string } | { kind: "null"; written: string } | { kind: "missing" };

interface Case {
  format: "json" | "yaml-block" | "yaml-flow";
  bom: boolean;
  config: ConfigState;
  comment: string;
  spacing: string;
  indent: number;
  body: string;
  number: string;
}

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const secretText = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
const caseArb: fc.Arbitrary<Case> = fc.record({
  format: fc.constantFrom("json" as const, "yaml-block" as const, "yaml-flow" as const),
  bom: fc.boolean(),
  config: fc.oneof(
    fc.record(
      {
        kind: fc.constant("map" as const),
        provider: fc.option(word, { nil: undefined }),
        secret: fc.option(secretText, { nil: undefined }),
      },
      { requiredKeys: ["kind"] },
    ),
    fc.record({ kind: fc.constant("null" as const), written: fc.constantFrom("", " ~", " null", " # none") }),
    fc.constant({ kind: "missing" as const }),
  ),
  comment: fc.constantFrom("# c", "#  spaced   comment", "# 0x1F stays", "#"),
  spacing: fc.constantFrom(" ", "  ", "   "),
  indent: fc.constantFrom(1, 2, 4),
  body: fc.string({ maxLength: 10 }),
  number: fc.constantFrom("0x1F", "1_000", "0o17", "1e3", "31"),
});

const q = (s: string) => JSON.stringify(s);

function write(c: Case): string {
  const cfg = c.config;
  let text: string;
  if (c.format === "json") {
    const config =
      cfg.kind === "missing"
        ? {}
        : {
            config:
              cfg.kind === "null"
                ? null
                : {
                    ...(cfg.provider === undefined ? {} : { provider: cfg.provider }),
                    ...(cfg.secret === undefined ? {} : { secret: cfg.secret }),
                  },
          };
    text = JSON.stringify(
      {
        on_http_request: [
          {
            name: "hooks",
            actions: [
              { type: "verify-webhook", ...config },
              { type: "custom-response", config: { status_code: 200, body: c.body } },
            ],
          },
        ],
      },
      null,
      c.indent === 1 ? 0 : c.indent,
    );
  } else if (c.format === "yaml-block") {
    // Columns: the rule's dash, its keys, the actions' dashes (indentless at 4), their keys, the config's keys.
    const r = c.indent;
    const k = r + 2;
    const a = k + (c.indent === 4 ? 0 : c.indent);
    const ak = a + 2;
    const ck = ak + c.indent;
    const pad = (n: number) => " ".repeat(n);
    let config = "";
    if (cfg.kind === "null") config = `${pad(ak)}config:${cfg.written}\n`;
    else if (cfg.kind === "map") {
      const entries = [
        ...(cfg.provider === undefined ? [] : [`provider: ${cfg.provider}${c.spacing}${c.comment}`]),
        ...(cfg.secret === undefined ? [] : [`secret: ${q(cfg.secret)}`]),
      ];
      config =
        entries.length === 0
          ? `${pad(ak)}config: {}\n`
          : `${pad(ak)}config:\n${entries.map((e) => `${pad(ck)}${e}\n`).join("")}`;
    }
    text =
      `${c.comment}\non_http_request:${c.spacing}${c.comment}\n${pad(r)}- name: hooks\n${pad(k)}actions:\n` +
      `${pad(a)}- type: verify-webhook${c.spacing}${c.comment}\n${config}` +
      `${pad(a)}- type: custom-response\n${pad(ak)}config: {status_code: ${c.number},${c.spacing}body: ${q(c.body)}}\n`;
  } else {
    let config = "";
    if (cfg.kind === "null") config = `,${c.spacing}config: null`;
    else if (cfg.kind === "map") {
      const entries = [
        ...(cfg.provider === undefined ? [] : [`provider: ${cfg.provider}`]),
        ...(cfg.secret === undefined ? [] : [`secret: ${q(cfg.secret)}`]),
      ];
      config = `,${c.spacing}config: {${entries.join(`,${c.spacing}`)}}`;
    }
    text =
      `on_http_request: [ {name: hooks,${c.spacing}actions: [{type: verify-webhook${config}},${c.spacing}` +
      `{type: custom-response, config: {status_code: ${c.number}, body: ${q(c.body)}}}]} ]${c.spacing}${c.comment}\n`;
  }
  return (c.bom ? BOM : "") + text;
}

const CONFIG = ["on_http_request", 0, "actions", 0, "config"];

/** Where the config's provider and secret values stand in a text (its mark skipped). */
function valueRanges(body: string, json: boolean): [number, number][] {
  const out: [number, number][] = [];
  if (json) {
    let node: JsonNode | undefined = locateJson(body);
    for (const step of CONFIG)
      node =
        node?.kind === "object"
          ? node.entries.find(([k]) => k === step)?.[1]
          : node?.kind === "array"
            ? node.items[step as number]
            : undefined;
    if (node?.kind === "object")
      for (const [k, v] of node.entries) if (k === "provider" || k === "secret") out.push([v.start, v.end]);
  } else {
    const read = yamlDocument(body);
    if (!read.ok || !read.doc) throw new Error("not YAML");
    for (const key of ["provider", "secret"]) {
      const n = read.doc.getIn([...CONFIG, key], true) as { range?: [number, number, number] } | undefined;
      if (n?.range) out.push([n.range[0], n.range[1]]);
    }
  }
  return out;
}

/** The text with each range replaced by a NUL. */
function holes(text: string, ranges: [number, number][]): string {
  let out = text;
  for (const [s, e] of [...ranges].sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + "\0" + out.slice(e);
  return out;
}

describe("replace: the property", () => {
  it("changes only the provider and secret values, or adds the key, and reads as intended", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, word, secretText, async (c, provider, secret) => {
        const input = write(c);
        const { text: out } = await setVerifyWebhook(input, provider, secret, undefined);
        expect(out.startsWith(BOM)).toBe(c.bom);
        const inBody = input.slice(c.bom ? 1 : 0);
        const outBody = out.slice(c.bom ? 1 : 0);
        const json = c.format === "json";
        // Reads as the policy with those two values set (JSON stays JSON).
        const read = (t: string) => (json ? (JSON.parse(t) as unknown) : yamlValue(t));
        const expected = read(inBody) as { on_http_request: { actions: Record<string, unknown>[] }[] };
        const action = expected.on_http_request[0]!.actions[0]!;
        action.config = { ...(action.config as object | null), provider, secret };
        expect(read(outBody)).toEqual(expected);
        // Differs only at the values, or by what was added.
        const a = holes(inBody, valueRanges(inBody, json));
        const b = holes(outBody, valueRanges(outBody, json));
        let start = 0;
        while (start < a.length && start < b.length && a[start] === b[start]) start++;
        let end = 0;
        while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
          end++;
        const removed = a.slice(start, a.length - end);
        const added = b.slice(start, b.length - end);
        const keysAdded = !(
          c.config.kind === "map" &&
          c.config.provider !== undefined &&
          c.config.secret !== undefined
        );
        if (!keysAdded) expect([removed, added]).toEqual(["", ""]);
        else {
          // What the null config was written as, or nothing.
          expect(removed).toMatch(/^(|~|null)$/);
          expect(added).toMatch(/provider|secret|config/);
          expect(added.replace(/provider|secret|config|\0/g, "")).toMatch(/^[\s,:{}"]*$/);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("replace: an anchored config", () => {
  it("a config that is a YAML anchor named elsewhere is exit 2 saying why", async () => {
    const text =
      "on_http_request:\n  - name: a\n    actions:\n      - type: verify-webhook\n        config: &c {provider: github, secret: old}\n  - actions:\n      - type: verify-webhook\n        config: *c\n";
    const err = (await setVerifyWebhook(text, "stripe", "new", "a").catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/config is the YAML anchor &c, which \*c names elsewhere/);
  });
});

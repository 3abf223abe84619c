// Masking a Traffic Policy changes nothing but the secret scalars (issue 17 item 2): for random
// policies written as JSON or YAML, the masked text is the text written with "********" in each
// secret's place, byte for byte, whatever the secrets hold (a value seen elsewhere in the
// policy, a provider name, a piece of a URL).
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { maskPolicyText } from "../../src/output/mask.js";

const MASK = "********";
const SENTINEL = (i: number) => `SENTINEL${i}X`;

/** Words that also appear as other values of the policy, so a search-and-replace would hit them. */
const COMMON = ["internal", "github", "forward", "service", "app", "https", "oauth", "secret", "type", "config", "1"];
const secretArb = fc.oneof(
  fc.constantFrom(...COMMON),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
);
const wordArb = fc.oneof(fc.constantFrom(...COMMON), fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/));

type Action = { type: string; config?: Record<string, unknown> };
/** An action, and the secret it holds (if any) in the order a writer meets it. */
const actionArb: fc.Arbitrary<{ action: Action; secret?: string }> = fc.oneof(
  fc.record({ provider: wordArb, secret: secretArb }).map(({ provider, secret }) => ({
    action: { type: "verify-webhook", config: { provider, secret: "\0" } },
    secret,
  })),
  fc
    .record({ kind: fc.constantFrom("oauth", "openid-connect"), id: wordArb, secret: secretArb })
    .map(({ kind, id, secret }) => ({
      action: {
        type: kind,
        config:
          kind === "oauth"
            ? { provider: "google", client_id: id, client_secret: "\0" }
            : { issuer_url: `https://${id}.example.com`, client_id: id, client_secret: "\0" },
      },
      secret,
    })),
  wordArb.map((w) => ({ action: { type: "forward-internal", config: { url: `https://${w}.internal` } } })),
  // A `secret` key where no secret is: kept as it is.
  wordArb.map((w) => ({ action: { type: "set-vars", config: { vars: [{ secret: w }] } } })),
  fc.integer({ min: 200, max: 599 }).map((status_code) => ({ action: { type: "deny", config: { status_code } } })),
);
const ruleArb = fc.record({
  name: fc.option(wordArb, { nil: undefined }),
  expressions: fc.option(
    fc.array(
      wordArb.map((w) => `req.url.path.startsWith("/${w}")`),
      { maxLength: 2 },
    ),
    {
      nil: undefined,
    },
  ),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 4 }),
});
const policyArb = fc.record({
  on_http_request: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
  on_http_response: fc.option(fc.array(ruleArb, { maxLength: 2 }), { nil: undefined }),
});

/** The policy with each secret replaced by its sentinel (in document order), and the secrets. */
type Rule = { name?: string; expressions?: string[]; actions: { action: Action; secret?: string }[] };
function withSentinels(p: Record<string, Rule[] | undefined>) {
  const secrets: string[] = [];
  const phases: Record<string, unknown> = {};
  for (const [phase, rules] of Object.entries(p)) {
    if (rules === undefined) continue;
    phases[phase] = rules.map((rule) => ({
      ...(rule.name === undefined ? {} : { name: rule.name }),
      ...(rule.expressions === undefined ? {} : { expressions: rule.expressions }),
      actions: rule.actions.map(({ action, secret }) => {
        if (secret === undefined) return action;
        const key = action.type === "verify-webhook" ? "secret" : "client_secret";
        secrets.push(secret);
        return { ...action, config: { ...action.config, [key]: SENTINEL(secrets.length - 1) } };
      }),
    }));
  }
  return { doc: phases, secrets };
}

/** A YAML double-quoted scalar for any string (every character YAML may not hold raw escaped). */
function yamlQuoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
function yamlScalar(value: string, style: number): string {
  if (style === 1 && /^[A-Za-z][A-Za-z0-9_]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value))
    return value;
  if (style === 2 && /^[ -~]*$/.test(value)) return `'${value.replace(/'/g, "''")}'`;
  return yamlQuoted(value);
}

const fill = (text: string, secrets: string[], write: (s: string, i: number) => string) =>
  secrets.reduce((t, s, i) => t.replace(SENTINEL(i), () => write(s, i)), text);

describe("maskPolicyText: only the secret scalars change", () => {
  it('JSON (any indentation): the text with each secret\'s literal replaced by "********"', async () => {
    await fc.assert(
      fc.asyncProperty(policyArb, fc.constantFrom(0, 2, 4, "\t"), async (p, indent) => {
        const { doc, secrets } = withSentinels(p);
        const template = JSON.stringify(doc, null, indent);
        const text = fill(template, secrets, (s) => JSON.stringify(s).slice(1, -1));
        const masked = await maskPolicyText(text);
        expect(masked).toBe(fill(template, secrets, () => MASK));
        const back = JSON.parse(masked) as unknown;
        expect(back).toEqual(JSON.parse(fill(template, secrets, () => MASK)));
      }),
      { numRuns: 100 },
    );
  });

  it('YAML (comments, flow and block, any quoting): the text with each secret\'s scalar replaced by "********"', async () => {
    await fc.assert(
      fc.asyncProperty(
        policyArb,
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 20, maxLength: 20 }),
        async (p, flow, styles) => {
          const { doc, secrets } = withSentinels(p);
          const body = stringify(doc, { lineWidth: 0, collectionStyle: flow ? "flow" : "block" });
          // A comment at the top and one after every line that ends in a sentinel's line.
          const template = `# policy: github internal secret\n${body.replace(/(SENTINEL\d+X)\n/g, "$1 # the secret\n")}`;
          const text = fill(template, secrets, (s, i) => yamlScalar(s, styles[i % styles.length]!));
          expect(parse(text)).toEqual(parse(fill(template, secrets, (s) => yamlQuoted(s))));
          const masked = await maskPolicyText(text);
          expect(masked).toBe(fill(template, secrets, () => `"${MASK}"`));
        },
      ),
      { numRuns: 100 },
    );
  });
});

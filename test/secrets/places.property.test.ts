// Issue 25 item 2, as a property: for a random policy with secrets at random secret places of
// every action (src/secrets' table: fields, list entries, header maps by name in any letter
// case), in every format (JSON text at any indentation, YAML block or flow with comments and
// any quoting, plain data, an API answer, a --debug body), no secret's text appears in the
// masked output, and every other byte is unchanged: the masked text is the text written with
// "********" in each secret's place.
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { redactBody } from "../../src/api/redact.js";
import { maskPolicyText, maskSecretsIn } from "../../src/output/mask.js";
import { MASK } from "../../src/secrets/index.js";
import { maskPolicyData } from "../../src/secrets/walk.js";

const SENTINEL = (i: number) => `SENTINEL${i}X`;
/** Where a secret goes while the document is built; replaced by a sentinel, in document order. */
type Slot = { $secret: string };

// Secrets that also appear as other values (a search-and-replace would hit those), and any text.
const COMMON = ["github", "admin", "Bearer", "https", "cookie", "authorization", "secret", "1", "google"];
const secretArb = fc.oneof(
  fc.constantFrom(...COMMON),
  fc.string({ minLength: 1, maxLength: 14 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
  fc.stringMatching(/^[A-Za-z0-9]{3,8}:[A-Za-z0-9!@#]{8,12}$/),
  fc.constant("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n"),
);
const slot = secretArb.map((s): Slot => ({ $secret: s }));
const wordArb = fc.oneof(fc.constantFrom(...COMMON), fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/));
/** A header name in any letter case. */
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((up) => [...name].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join(""));
const secretHeader = fc.constantFrom("authorization", "proxy-authorization", "cookie").chain(anyCase);
/** A header map: some secret headers, some others (whose values are kept). */
const headersArb = fc
  .tuple(
    fc.uniqueArray(fc.tuple(secretHeader, slot), { maxLength: 3, selector: ([k]) => k, minLength: 1 }),
    fc.uniqueArray(fc.tuple(fc.constantFrom("x-authorization", "accept", "x-cookie-id", "user-agent"), wordArb), {
      maxLength: 2,
      selector: ([k]) => k,
    }),
  )
  .map(([secret, other]) => Object.fromEntries([...other, ...secret]));

type Action = { type: string; config: Record<string, unknown> };
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ provider: wordArb, secret: slot }).map((config) => ({ type: "verify-webhook", config })),
  fc
    .record({ provider: wordArb, client_id: wordArb, client_secret: slot })
    .map((config) => ({ type: "oauth", config })),
  fc
    .record({ issuer_url: wordArb.map((w) => `https://${w}.example.com`), client_secret: slot })
    .map((config) => ({ type: "openid-connect", config })),
  fc
    .record({ realm: wordArb, credentials: fc.oneof(fc.array(slot, { minLength: 1, maxLength: 4 }), slot) })
    .map((config) => ({ type: "basic-auth", config })),
  fc
    .record({ min_version: fc.constantFrom("1.2", "1.3"), server_private_key: slot, server_certificate: wordArb })
    .map((config) => ({ type: "terminate-tls", config })),
  headersArb.map((headers) => ({ type: "add-headers", config: { headers } })),
  fc
    .record({ url: wordArb.map((w) => `https://${w}.internal`), headers: headersArb, body: wordArb })
    .map((config) => ({ type: "http-request", config })),
  // Places no secret stands: kept as they are.
  fc.record({ headers: fc.record({ Authorization: wordArb }) }).map((config) => ({ type: "custom-response", config })),
  wordArb.map((w) => ({ type: "set-vars", config: { vars: [{ secret: w }, { credentials: w }] } })),
  wordArb.map((w) => ({ type: "forward-internal", config: { url: `https://${w}.internal` } })),
);
const ruleArb = fc.record(
  { name: wordArb, actions: fc.array(actionArb, { minLength: 1, maxLength: 4 }) },
  { requiredKeys: ["actions"] },
);
const policyArb = fc.record(
  {
    on_tcp_connect: fc.array(ruleArb, { minLength: 1, maxLength: 2 }),
    on_http_request: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
    on_http_response: fc.array(ruleArb, { maxLength: 2 }),
  },
  { requiredKeys: ["on_http_request"] },
);

/** The policy with each slot replaced by its sentinel (in document order), and the secrets. */
function withSentinels(policy: unknown): { doc: unknown; secrets: string[] } {
  const secrets: string[] = [];
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      if ("$secret" in v) {
        secrets.push((v as Slot).$secret);
        return SENTINEL(secrets.length - 1);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { doc: walk(policy), secrets };
}

const fill = (text: string, secrets: string[], write: (s: string, i: number) => string) =>
  secrets.reduce((t, s, i) => t.replace(SENTINEL(i), () => write(s, i)), text);

/** A secret's text as a search would find it, when the template does not hold it anyway. */
const distinctive = (secrets: string[], template: string) =>
  secrets.filter((s) => s.length >= 6 && !template.includes(s) && !MASK.includes(s));

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

const RUNS = { numRuns: 100 };

describe("every secret place of every action, in every format", () => {
  it('JSON text: each secret\'s literal, and nothing else, replaced by "********"', async () => {
    await fc.assert(
      fc.asyncProperty(policyArb, fc.constantFrom(0, 2, "\t"), async (p, indent) => {
        const { doc, secrets } = withSentinels(p);
        const template = JSON.stringify(doc, null, indent);
        const text = fill(template, secrets, (s) => JSON.stringify(s).slice(1, -1));
        const masked = await maskPolicyText(text);
        expect(masked).toBe(fill(template, secrets, () => MASK));
        for (const s of distinctive(secrets, template)) expect(masked).not.toContain(JSON.stringify(s).slice(1, -1));
      }),
      RUNS,
    );
  });

  it("YAML text (block or flow, comments, any quoting): each secret's scalar, and nothing else, replaced", async () => {
    await fc.assert(
      fc.asyncProperty(
        policyArb,
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 16, maxLength: 16 }),
        async (p, flow, styles) => {
          const { doc, secrets } = withSentinels(p);
          const body = stringify(doc, { lineWidth: 0, collectionStyle: flow ? "flow" : "block" });
          const template = `# policy: admin cookie secret\n${body.replace(/(SENTINEL\d+X)\n/g, "$1 # a secret\n")}`;
          const text = fill(template, secrets, (s, i) => yamlScalar(s, styles[i % styles.length]!));
          expect(parse(text)).toEqual(parse(fill(template, secrets, (s) => yamlQuoted(s))));
          const masked = await maskPolicyText(text);
          expect(masked).toBe(fill(template, secrets, () => `"${MASK}"`));
        },
      ),
      RUNS,
    );
  });

  it("plain data and API answers: each secret value, and nothing else, replaced", async () => {
    await fc.assert(
      fc.asyncProperty(policyArb, async (p) => {
        const { doc, secrets } = withSentinels(p);
        const template = JSON.stringify(doc);
        const real = JSON.parse(fill(template, secrets, (s) => JSON.stringify(s).slice(1, -1))) as unknown;
        const expected = JSON.parse(fill(template, secrets, () => MASK)) as unknown;
        expect(maskPolicyData(real)).toEqual(expected);
        const text = JSON.stringify(real);
        const answer = {
          endpoint: { id: "ep_1", traffic_policy: text },
          route: { id: "edghtsrt_1", traffic_policy: { enabled: true, value: text } },
          legacy: { id: "edghtsrt_2", policy: real },
        };
        const out = (await maskSecretsIn(answer)) as typeof answer;
        expect(JSON.parse(out.endpoint.traffic_policy)).toEqual(expected);
        expect(JSON.parse(out.route.traffic_policy.value)).toEqual(expected);
        // A policy as data is also data of an API answer: every `secret` field of it is masked too.
        const legacy = JSON.stringify(out.legacy);
        for (const s of distinctive(secrets, template)) expect(legacy).not.toContain(JSON.stringify(s).slice(1, -1));
      }),
      RUNS,
    );
  });

  it("--debug body: no secret's text appears", async () => {
    await fc.assert(
      fc.asyncProperty(policyArb, fc.boolean(), async (p, yaml) => {
        const { doc, secrets } = withSentinels(p);
        const template = JSON.stringify(doc);
        const real = JSON.parse(fill(template, secrets, (s) => JSON.stringify(s).slice(1, -1))) as unknown;
        const body = JSON.stringify({ traffic_policy: yaml ? stringify(real) : JSON.stringify(real) });
        const out = await redactBody(body, [], { maskPolicy: maskPolicyText, max: 1_000_000 });
        for (const s of distinctive(secrets, template + stringify(doc)))
          for (const form of [
            s,
            JSON.stringify(s).slice(1, -1),
            JSON.stringify(JSON.stringify(s).slice(1, -1)).slice(1, -1),
          ])
            expect(out).not.toContain(form);
      }),
      RUNS,
    );
  });
});

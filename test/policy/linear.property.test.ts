// Reading, checking and masking a Traffic Policy cost the same per rule for 10 rules or 5,000
// (issue 24: the plain YAML reader it replaced took 32 s for a 3,000-rule policy without
// comments). Work is counted, not timed: the steps edgectl's own walks take (src/policy/work.ts:
// nodes visited, characters copied), the tokens and nodes the yaml library makes of the text,
// and every property read the validator makes of the parsed document (through a Proxy). Each
// count, divided by the rules, stays within 2× of the same count for one cycle of the rules it
// repeats: a step that revisited the text or the tree for each rule would grow as their square.
// LINEAR_MAX (default 5000) lowers the largest size, to try a planted quadratic step quickly.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Lexer } from "yaml";
import { maskPolicyText } from "../../src/output/mask.js";
import { yamlText } from "../../src/output/yaml-write.js";
import { checkPolicy } from "../../src/policy/index.js";
import { parsePolicyText } from "../../src/policy/parse.js";
import { work } from "../../src/policy/work.js";

type Action = { type: string; config?: Record<string, unknown> };
type Rule = { name: string; expressions?: string[]; actions: Action[] };

const actionArb = (i: number): fc.Arbitrary<Action> =>
  fc.constantFrom<Action>(
    { type: "verify-webhook", config: { provider: "github", secret: `s3cret-${i}` } },
    { type: "oauth", config: { provider: "google", client_id: `id-${i}`, client_secret: `cs-${i}` } },
    { type: "add-headers", config: { headers: { "x-rule": `r${i}` } } },
    { type: "custom-response", config: { status_code: 200, body: `ok ${i}` } },
    { type: "forward-internal", config: { url: "https://svc.internal" } },
    { type: "deny", config: { status_code: 403 } },
  );

/** The rules one cycle holds (repeated, renamed, to make a policy of any size). */
const cycleArb: fc.Arbitrary<Rule[]> = fc
  .array(fc.tuple(fc.boolean(), fc.array(fc.nat(5), { minLength: 1, maxLength: 3 })), { minLength: 10, maxLength: 20 })
  .chain((rules) =>
    fc.tuple(
      ...rules.map(([withExpression, actions], i) =>
        fc.tuple(...actions.map(() => actionArb(i))).map((list): Rule => ({
          name: `rule ${i}`,
          ...(withExpression ? { expressions: [`req.url.path.startsWith("/p${i}")`] } : {}),
          actions: list,
        })),
      ),
    ),
  );

function policyOf(cycle: Rule[], n: number): { on_http_request: Rule[] } {
  const rules: Rule[] = [];
  for (let i = 0; i < n; i++) {
    const r = cycle[i % cycle.length]!;
    rules.push({ ...r, name: `${r.name}, copy ${i}` });
  }
  return { on_http_request: rules };
}

/** A value in YAML's flow style, keys plain, strings double-quoted (not JSON: the keys are bare). */
function flow(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(", ")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${flow(x)}`)
      .join(", ")}}`;
  return JSON.stringify(v);
}

const FORMATS = {
  "YAML block": (p: { on_http_request: Rule[] }) => yamlText(p),
  "YAML block, comments": (p: { on_http_request: Rule[] }) =>
    `# a policy\n${yamlText(p).replace(/^ {2}- /gm, "  # the next rule\n  - ")}`,
  "YAML flow": (p: { on_http_request: Rule[] }) =>
    `on_http_request: [\n${p.on_http_request.map((r) => `  ${flow(r)},\n`).join("")}]\n`,
  "YAML flow, comments": (p: { on_http_request: Rule[] }) =>
    `on_http_request: [ # the rules\n${p.on_http_request.map((r) => `  # a rule\n  ${flow(r)},\n`).join("")}]\n`,
  JSON: (p: { on_http_request: Rule[] }) => JSON.stringify(p, null, 2),
};
type Format = keyof typeof FORMATS;

/** A Proxy over plain data that counts every property read and key listing, at any depth. */
function counted(value: unknown, count: { reads: number }): unknown {
  if (value === null || typeof value !== "object") return value;
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(value, {
    get(target, key, receiver) {
      count.reads++;
      const v = Reflect.get(target, key, receiver) as unknown;
      if (v === null || typeof v !== "object") return v;
      if (!cache.has(key)) cache.set(key, counted(v, count));
      return cache.get(key);
    },
    ownKeys(target) {
      count.reads++;
      return Reflect.ownKeys(target);
    },
  });
}

/** The work of reading, checking and masking the text. */
async function workOf(text: string, format: Format): Promise<{ read: number; check: number; mask: number }> {
  work.steps = 0;
  const parsed = await parsePolicyText(text);
  expect(parsed.ok).toBe(true);
  let read = work.steps;
  if (format !== "JSON") {
    // What the yaml library makes of the text: its tokens (the nodes of its document are the
    // steps of edgectl's walk over it, counted above).
    for (const _ of new Lexer().lex(text)) read++;
  }
  const count = { reads: 0 };
  checkPolicy(counted(parsed.ok ? parsed.document : null, count), { protocol: "https", internal: false });
  work.steps = 0;
  const masked = await maskPolicyText(text);
  expect(masked).not.toBe("********");
  expect(masked).not.toMatch(/s3cret-|cs-\d/);
  return { read, check: count.reads, mask: work.steps };
}

async function expectFlat(cycle: Rule[], n: number, format: Format): Promise<void> {
  const write = FORMATS[format];
  const base = await workOf(write(policyOf(cycle, cycle.length)), format);
  const big = await workOf(write(policyOf(cycle, n)), format);
  for (const what of ["read", "check", "mask"] as const) {
    const perRule = big[what] / n;
    const basePerRule = base[what] / cycle.length;
    expect(perRule, `${what} of ${n} rules (${format})`).toBeLessThanOrEqual(2 * basePerRule);
    expect(perRule, `${what} of ${n} rules (${format})`).toBeGreaterThanOrEqual(basePerRule / 2);
  }
}

describe("the cost per rule of reading, checking and masking a policy", () => {
  const [cycle] = fc.sample(cycleArb, { numRuns: 1, seed: 24 });
  const max = Number(process.env.LINEAR_MAX ?? 5000);
  // Each format at 200 rules (a quadratic step there costs 10 to 20 times as much per rule as at 10
  // or 20: five times the 2× bound), and the shape the old reader took 32 s over (block YAML, no
  // comments) at 1,000 (50 to 100 times as much per rule: 25 to 50 times the bound; a step quadratic
  // as the old reader was, 32 s at 3,000 rules, is far past it); the property below ranges over 10
  // to 5,000 in every format. Sizes are kept to what shows a quadratic step: each YAML read of 5,000
  // rules is a second (the fixed case at 5,000 cost 6 s of the suite's CPU, 1,000 costs 1 s).
  test.each(
    (Object.keys(FORMATS) as Format[]).map(
      (format) => [format, Math.min(max, format === "YAML block" ? 1000 : 200)] as const,
    ),
  )(
    "in %s, of %i rules, is that of 10 to 20",
    async (format, n) => {
      await expectFlat(cycle!, n, format);
    },
    60_000,
  );

  test("stays within 2× from 10 to 5,000 rules, in YAML block and flow style, with and without comments, and JSON", async () => {
    await fc.assert(
      fc.asyncProperty(
        cycleArb,
        fc.integer({ min: 10, max }),
        fc.constantFrom(...(Object.keys(FORMATS) as Format[])),
        (cycle, n, format) => expectFlat(cycle, n, format),
      ),
      { numRuns: 4, seed: Number(process.env.EDGECTL_PROPERTY_SEED ?? 1) },
    );
  }, 120_000);
});

// One parse for everything (issue 27 item 6): a YAML policy text is read by the yaml library
// once, whoever asks first, and the validator, masking and the in-place edit of
// `webhook-verification replace` share that reading (src/policy/yaml.ts), so what is checked is
// what is masked and sent. Counted by the yaml library's lexer runs, in-process.
import { afterEach, expect, test, vi } from "vitest";
import { Lexer } from "yaml";
import { setVerifyWebhook } from "../../src/commands/endpoint/edit-policy.js";
import { maskPolicyText } from "../../src/output/mask.js";
import { parsePolicyText } from "../../src/policy/parse.js";
import { validatePolicy } from "../../src/policy/index.js";

afterEach(() => vi.restoreAllMocks());

const policy = (n: number) => `# hooks (${n})
on_http_request:
  - expressions: ["req.url.path.startsWith('/hooks')"]
    actions:
      - type: verify-webhook
        config: {provider: github, secret: "s3cret-${n}"}
  - actions:
      - type: deny
`;

test("checking and masking one YAML text read it once", async () => {
  const lex = vi.spyOn(Lexer.prototype, "lex");
  const text = policy(1);
  const parsed = await parsePolicyText(text);
  expect(parsed.ok && validatePolicy(parsed.document, { protocol: "https", internal: false }).problems).toEqual([]);
  expect(await maskPolicyText(text)).toContain('secret: "********"');
  expect(lex).toHaveBeenCalledTimes(1);
  // A text it has not read is read (once).
  await maskPolicyText(policy(2));
  expect(lex).toHaveBeenCalledTimes(2);
});

test("webhook-verification replace: the policy read, edited in place, read back, checked and masked: each text once", async () => {
  const lex = vi.spyOn(Lexer.prototype, "lex");
  const { text } = await setVerifyWebhook(policy(3), "stripe", "whsec_new", undefined);
  expect(lex).toHaveBeenCalledTimes(2); // the live text, and the edited one read back
  const parsed = await parsePolicyText(text);
  expect(parsed.ok && validatePolicy(parsed.document, { protocol: "https", internal: false }).problems).toEqual([]);
  expect(await maskPolicyText(text)).not.toContain("whsec_new");
  expect(lex).toHaveBeenCalledTimes(2);
});

// Setting a verify-webhook action's provider and secret in a policy text: only those values
// change, where they stand; what cannot be edited in place is refused, never guessed.
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { setVerifyWebhook } from "../../../src/commands/endpoint/edit-policy.js";
import { UsageError } from "../../../src/errors.js";

const hook = (config: string) =>
  `on_http_request:\n  - name: hooks # the hooks\n    actions:\n      - type: verify-webhook\n        config:\n${config}      - type: deny\n`;

describe("setVerifyWebhook", () => {
  it("replaces a block scalar secret where it stands, keeping what follows", async () => {
    const text = hook("          provider: github\n          secret: |\n            old\n          # keep me\n");
    const { text: out } = await setVerifyWebhook(text, "stripe", "n\u0085w\u007f", undefined);
    expect(out).toBe(hook('          provider: stripe\n          secret: "n\\Nw\\x7f"\n          # keep me\n'));
    expect(parse(out).on_http_request[0].actions[0].config).toEqual({ provider: "stripe", secret: "n\u0085w\u007f" });
  });

  it("adds a missing secret to a YAML config (the document written out again, comments kept)", async () => {
    const { text: out } = await setVerifyWebhook(hook("          provider: github\n"), "github", "s1", "hooks");
    expect(out).toContain("# the hooks");
    expect(parse(out).on_http_request[0].actions).toEqual([
      { type: "verify-webhook", config: { provider: "github", secret: "s1" } },
      { type: "deny" },
    ]);
  });

  it("adds a missing config to a JSON action, every other byte kept", async () => {
    const text = '{"on_http_request": [{"actions": [{"type": "verify-webhook"}, {"type": "deny"}]}]}';
    const { text: out } = await setVerifyWebhook(text, "github", 'q"1', undefined);
    expect(out).toBe(
      '{"on_http_request": [{"actions": [{"type": "verify-webhook", "config": {"provider":"github","secret":"q\\"1"}}, {"type": "deny"}]}]}',
    );
  });

  it("refuses a policy that is neither JSON nor YAML, or not an object", async () => {
    await expect(setVerifyWebhook("a: [", "github", "s", undefined)).rejects.toThrow(UsageError);
    await expect(setVerifyWebhook("[1]", "github", "s", undefined)).rejects.toThrow(/not a policy/);
  });

  it("names rules without a name by their place", async () => {
    const text =
      '{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{}}]},{"actions":[{"type":"verify-webhook","config":{}}]}]}';
    await expect(setVerifyWebhook(text, "github", "s", undefined)).rejects.toThrow(
      /in rules on_http_request\[0\] \(no name\), on_http_request\[1\] \(no name\)/,
    );
  });
});

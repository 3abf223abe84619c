import { describe, expect, it } from "vitest";
import { MASK } from "../../src/secrets/index.js";
import { maskKey } from "../../src/commands/auth/mask.js";
import { maskPolicyText, maskSecret, maskSecretsIn } from "../../src/output/mask.js";
import { work } from "../../src/policy/work.js";

describe("maskSecret", () => {
  const module = { enabled: true, provider: "github", secret: "whsec_abcdef" };

  it("shows the secret as ******** by default", () => {
    expect(maskSecret(module, false)).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(MASK).toBe("********");
  });

  it("does not change the object it was given", () => {
    maskSecret(module, false);
    expect(module.secret).toBe("whsec_abcdef");
  });

  it("shows the secret with --show-secret", () => {
    expect(maskSecret(module, true).secret).toBe("whsec_abcdef");
  });

  it("leaves a missing, null or empty secret as it is", () => {
    const noSecret: { provider: string; secret?: string } = { provider: "sns" };
    expect(maskSecret(noSecret, false)).toEqual({ provider: "sns" });
    expect(maskSecret({ provider: "sns", secret: null }, false)).toEqual({ provider: "sns", secret: null });
    expect(maskSecret({ provider: "sns", secret: "" }, false)).toEqual({ provider: "sns", secret: "" });
  });
});

describe("maskKey", () => {
  it("shows only the last four characters of a long key", () => {
    const out = maskKey("2abcdefghijklmnopWXYZ");
    expect(out).toBe(`${MASK}WXYZ`);
    expect(out).not.toContain("abcdefgh");
  });

  it("shows nothing of a short key", () => {
    expect(maskKey("short_key12")).toBe(MASK);
    expect(maskKey("123456789012")).toBe(MASK);
  });
});

describe("maskSecretsIn (data from `edgectl api`)", () => {
  it("masks every non-empty secret field, at any depth, and keeps the key order", async () => {
    const data = {
      routes: [{ id: "r1", webhook_verification: { provider: "github", secret: "whsec_1" } }],
      secret: "top",
      z: 1,
      a: 2,
    };
    const out = (await maskSecretsIn(data)) as typeof data;
    expect(out).toEqual({
      routes: [{ id: "r1", webhook_verification: { provider: "github", secret: MASK } }],
      secret: MASK,
      z: 1,
      a: 2,
    });
    expect(Object.keys(out)).toEqual(["routes", "secret", "z", "a"]);
  });

  it("leaves an empty secret (sns) empty, and other values as sent", async () => {
    expect(await maskSecretsIn({ provider: "sns", secret: "", description: "secret sauce" })).toEqual({
      provider: "sns",
      secret: "",
      description: "secret sauce",
    });
  });

  it("keeps a __proto__ key from the API as a plain key", async () => {
    const out = (await maskSecretsIn(JSON.parse('{"__proto__":{"secret":"x1"},"id":"a"}'))) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "id"]);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"secret":"${MASK}"},"id":"a"}`);
  });

  it("masks the secret inside a JSON traffic_policy text, keeping its layout", async () => {
    const policy =
      '{\n  "on_http_request": [{"actions": [{"type": "verify-webhook", "config": {"provider": "github", "secret": "whsec_\\"q"}}]}]\n}';
    const out = (await maskSecretsIn({ id: "ep_1", traffic_policy: policy })) as { traffic_policy: string };
    expect(out.traffic_policy).toBe(policy.replace('"whsec_\\"q"', `"${MASK}"`));
    expect(out.traffic_policy).not.toContain("whsec_");
  });

  it("masks OAuth and OIDC client secrets, and the secrets in a traffic_policy module's value", async () => {
    const route = {
      oauth: { provider: { github: null, google: { client_id: "gid", client_secret: "gcs" } }, cookie_prefix: "" },
      oidc: { issuer: "https://idp.example", client_id: "oid", client_secret: "ocs" },
      traffic_policy: {
        enabled: true,
        value: '{"on_http_request":[{"actions":[{"type":"oauth","config":{"client_secret":"pcs"}}]}]}',
      },
    };
    const out = (await maskSecretsIn(route)) as typeof route;
    expect(out.oauth.provider.google).toEqual({ client_id: "gid", client_secret: MASK });
    expect(out.oidc).toEqual({ issuer: "https://idp.example", client_id: "oid", client_secret: MASK });
    expect(out.traffic_policy).toEqual({
      enabled: true,
      value: route.traffic_policy.value.replace('"pcs"', `"${MASK}"`),
    });
    expect(await maskPolicyText("actions:\n  - config:\n      client_secret: yaml_cs\n")).not.toContain("yaml_cs");
  });

  it("masks the secret inside a YAML traffic_policy text, keeping comments", async () => {
    const policy =
      "# from edge edghts_1\non_http_request:\n  - actions:\n      - type: verify-webhook\n        config:\n          provider: stripe\n          secret: whsec_yaml\n";
    const out = await maskPolicyText(policy);
    expect(out).not.toContain("whsec_yaml");
    expect(out).toContain("# from edge edghts_1");
    expect(out).toContain(`secret: "${MASK}"`);
  });

  it("shows a policy text that does not parse as a policy as ******** whole", async () => {
    expect(await maskPolicyText("on_http_request: [\n  secret: whsec_broken\n")).toBe(MASK);
    expect(await maskPolicyText("just text")).toBe(MASK);
    expect(await maskPolicyText("[1, 2]")).toBe(MASK);
  });

  it("keeps an empty text, and a YAML text of comments alone, as they are", async () => {
    expect(await maskPolicyText("")).toBe("");
    expect(await maskPolicyText("# nothing yet\n")).toBe("# nothing yet\n");
  });

  it("masks OAuth and OpenID Connect client secrets, and only the secret fields of those actions", async () => {
    const policy =
      "on_http_request:\n  - actions:\n      - type: oauth\n        config: {provider: google, client_id: id1, client_secret: cs1}\n      - type: openid-connect\n        config:\n          issuer_url: https://idp.example.com\n          client_secret: 'cs2' # quoted\n      - type: set-vars\n        config: {vars: [{secret: not-a-secret}]}\n";
    expect(await maskPolicyText(policy)).toBe(policy.replace("cs1", `"${MASK}"`).replace("'cs2'", `"${MASK}"`));
  });

  it("masks a secret that comes through a YAML anchor where the anchor stands", async () => {
    const policy =
      "x-base: &hook {provider: github, secret: s-anchored}\non_http_request:\n  - actions:\n      - type: verify-webhook\n        config: *hook\n";
    expect(await maskPolicyText(policy)).toBe(policy.replace("s-anchored", `"${MASK}"`));
  });

  it("shows a policy whose aliases make its text a huge tree as ******** whole, without walking the tree", async () => {
    // 200 rules, each an alias of a rule of 200 actions, each an alias of a verify-webhook: the
    // walk meets over 100,000 nodes (the bound for a document of a few hundred), and stops.
    const list = (alias: string) => `[${Array.from({ length: 200 }, () => alias).join(", ")}]`;
    const text = [
      "x-act: &act {type: verify-webhook, config: {provider: github, secret: s-laugh}}",
      `x-rule: &rule {actions: ${list("*act")}}`,
      `on_http_request: ${list("*rule")}`,
      "",
    ].join("\n");
    const before = work.steps;
    expect(await maskPolicyText(text)).toBe(MASK);
    expect(work.steps - before).toBeLessThan(1_000_000);
  });

  it("shows a policy whose merge keys make the walk resolve one action over and over as ******** whole, alias or not", async () => {
    // One action whose merge key brings 400 mappings, each a `type`: the walk reads the
    // action's entries once for each type it finds (src/secrets/walk.ts), 400 × 400 resolves
    // and more, with no alias anywhere to start the bound early; it stops at the bound.
    const types = Array.from({ length: 400 }, () => "{type: verify-webhook}").join(", ");
    const text = `on_http_request:\n  - actions:\n      - <<: [${types}, {config: {provider: github, secret: s-merged}}]\n`;
    const before = work.steps;
    expect(await maskPolicyText(text)).toBe(MASK);
    expect(work.steps - before).toBeLessThan(1_000_000);
  });

  it("masks client secrets of OAuth providers and OIDC modules in API objects, and route traffic_policy values", async () => {
    const route = {
      oauth: { enabled: true, provider: { google: { client_id: "id", client_secret: "cs" } } },
      oidc: { enabled: true, client_id: "id", client_secret: "cs2" },
      traffic_policy: {
        enabled: true,
        value:
          '{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{"provider":"github","secret":"id"}}]}]}',
      },
    };
    expect(await maskSecretsIn(route)).toEqual({
      oauth: { enabled: true, provider: { google: { client_id: "id", client_secret: MASK } } },
      oidc: { enabled: true, client_id: "id", client_secret: MASK },
      traffic_policy: {
        enabled: true,
        value: route.traffic_policy.value.replace('"secret":"id"', `"secret":"${MASK}"`),
      },
    });
  });
});

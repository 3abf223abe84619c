// Issue 25 item 2: every secret place of every action (src/secrets' one table, from ngrok's
// action reference) is masked, in a policy text (JSON and YAML), in a policy as data, in an
// API answer (endpoints, routes' and TLS/TCP edges' traffic_policy modules, a route's legacy
// `policy`), and in a --debug body; the places the table does not name are left as they are.
import { describe, expect, it } from "vitest";
import { redactBody } from "../../src/api/redact.js";
import { maskPolicyText, maskSecretsIn } from "../../src/output/mask.js";
import { maskPolicy } from "../../src/migrate/policy.js";
import { MASK, SECRET_PLACES, placeName } from "../../src/secrets/index.js";
import { maskPolicyData, policySecretValues } from "../../src/secrets/walk.js";

/** One action per secret place, each secret distinct, and where it stands. */
const CASES: { type: string; config: Record<string, unknown>; secrets: string[] }[] = [
  { type: "verify-webhook", config: { provider: "github", secret: "whsecQ1x" }, secrets: ["whsecQ1x"] },
  { type: "oauth", config: { provider: "google", client_id: "cid", client_secret: "oaSecQ2x" }, secrets: ["oaSecQ2x"] },
  {
    type: "openid-connect",
    config: { issuer_url: "https://id.example.com", client_id: "cid", client_secret: "oidcQ3x" },
    secrets: ["oidcQ3x"],
  },
  {
    type: "basic-auth",
    config: { realm: "admin", credentials: ["admin:Sup3rS3cret", "ops:0psPassw0rd"], enforce: true },
    secrets: ["admin:Sup3rS3cret", "ops:0psPassw0rd"],
  },
  {
    type: "terminate-tls",
    config: {
      min_version: "1.2",
      server_private_key: "-----BEGIN PRIVATE KEY-----\nMIIEvQkeyQ4x\n-----END PRIVATE KEY-----",
      server_certificate: "-----BEGIN CERTIFICATE-----\nMIIDcert\n-----END CERTIFICATE-----",
    },
    secrets: ["-----BEGIN PRIVATE KEY-----\nMIIEvQkeyQ4x\n-----END PRIVATE KEY-----"],
  },
  {
    type: "add-headers",
    config: { headers: { Authorization: "Bearer tokQ5x", "x-request-source": "edge", COOKIE: "sid=ckQ6x" } },
    secrets: ["Bearer tokQ5x", "sid=ckQ6x"],
  },
  {
    type: "http-request",
    config: {
      url: "https://audit.internal",
      method: "POST",
      headers: { "proxy-Authorization": "Basic prxQ7x", accept: "text/plain" },
    },
    secrets: ["Basic prxQ7x"],
  },
];

const policyOf = (c: (typeof CASES)[number]) => {
  const phase = c.type === "terminate-tls" ? "on_tcp_connect" : "on_http_request";
  return { [phase]: [{ name: `r-${c.type}`, actions: [{ type: c.type, config: c.config }] }] };
};

/** The policy with the case's secrets replaced by the mask, every other value kept. */
function masked(c: (typeof CASES)[number]): Record<string, unknown> {
  const text = JSON.stringify(policyOf(c));
  return JSON.parse(c.secrets.reduce((t, s) => t.split(JSON.stringify(s)).join(JSON.stringify(MASK)), text)) as Record<
    string,
    unknown
  >;
}

describe("the table of secret places", () => {
  it("names every secret of ngrok's action reference, and those places only", () => {
    const names = Object.fromEntries(
      Object.entries(SECRET_PLACES).map(([type, places]) => [type, places.map(placeName)]),
    );
    expect(names).toEqual({
      "verify-webhook": ["secret"],
      oauth: ["client_secret"],
      "openid-connect": ["client_secret"],
      "basic-auth": ["credentials[*]"],
      "terminate-tls": ["server_private_key"],
      "add-headers": ["headers.<authorization|proxy-authorization|cookie>"],
      "http-request": ["headers.<authorization|proxy-authorization|cookie>"],
    });
  });
});

describe.each(CASES)("$type: its secrets are masked", (c) => {
  it("in a JSON policy text (every other byte kept)", async () => {
    const text = JSON.stringify(policyOf(c), null, 2);
    const out = await maskPolicyText(text);
    for (const s of c.secrets) expect(out).not.toContain(JSON.stringify(s).slice(1, -1));
    expect(out).toBe(JSON.stringify(masked(c), null, 2));
  });

  it("in a YAML policy text (comments kept)", async () => {
    const { stringify, parse } = await import("yaml");
    const text = `# the ${c.type} rule\n${stringify(policyOf(c))}`;
    const out = await maskPolicyText(text);
    for (const s of c.secrets) for (const line of s.split("\n")) expect(out).not.toContain(line.slice(-8));
    expect(out.startsWith(`# the ${c.type} rule\n`)).toBe(true);
    expect(parse(out)).toEqual(masked(c));
  });

  it("in a policy as data (migrate's plans), the original left as it is", () => {
    const policy = policyOf(c);
    const before = structuredClone(policy);
    expect(maskPolicyData(policy)).toEqual(masked(c));
    expect(maskPolicy(policy as never)).toEqual(masked(c));
    expect(policy).toEqual(before);
  });

  it("known as the policy's secrets (what --debug and messages redact)", () => {
    expect(policySecretValues(policyOf(c))).toEqual(c.secrets);
  });

  it("in every API answer that carries the policy, by structure", async () => {
    const text = JSON.stringify(policyOf(c));
    const answer = {
      endpoints: [{ id: "ep_1", traffic_policy: text }],
      routes: [{ id: "edghtsrt_1", traffic_policy: { enabled: true, value: text } }],
      tls_edges: [{ id: "edgtls_1", traffic_policy: { enabled: true, value: text } }],
      legacy: [{ id: "edghtsrt_2", policy: { enabled: true, inbound: policyOf(c).on_http_request ?? [] } }],
    };
    const out = JSON.stringify(await maskSecretsIn(answer));
    for (const s of c.secrets) expect(out).not.toContain(JSON.stringify(s).slice(1, -1));
    const back = JSON.parse(out) as typeof answer;
    expect(JSON.parse(back.endpoints[0]!.traffic_policy)).toEqual(masked(c));
    expect(JSON.parse(back.routes[0]!.traffic_policy.value)).toEqual(masked(c));
    expect(JSON.parse(back.tls_edges[0]!.traffic_policy.value)).toEqual(masked(c));
  });

  it("in a --debug body (with the structure's masker, and without it, by lines)", async () => {
    for (const body of [
      JSON.stringify({ traffic_policy: JSON.stringify(policyOf(c)) }),
      JSON.stringify({ traffic_policy: (await import("yaml")).stringify(policyOf(c)) }),
    ]) {
      for (const opts of [{ maskPolicy: maskPolicyText }, {}]) {
        const out = await redactBody(body, [], opts);
        for (const s of c.secrets)
          for (const part of s.split("\n")) expect(out, JSON.stringify(opts)).not.toContain(part.slice(-8));
      }
    }
  });
});

describe("places the table does not name stay as they are", () => {
  it("other headers, a custom response's headers, an Authorization-like name, a secret key elsewhere", async () => {
    const policy = {
      on_http_request: [
        {
          actions: [
            { type: "add-headers", config: { headers: { "x-authorization": "keep1", "authorization-hint": "keep2" } } },
            { type: "http-request", config: { url: "https://a.internal", body: "authorization: keep3" } },
            { type: "set-vars", config: { vars: [{ secret: "keep4" }, { credentials: "keep5" }] } },
            { type: "custom-response", config: { headers: { Authorization: "keep6" }, body: "cookie" } },
          ],
        },
      ],
    };
    const text = JSON.stringify(policy, null, 2);
    expect(await maskPolicyText(text)).toBe(text);
    expect(maskPolicyData(policy)).toEqual(policy);
  });

  it("a value where a list or map of secrets belongs is masked whole", async () => {
    const policy = {
      on_http_request: [
        {
          actions: [
            { type: "basic-auth", config: { credentials: "admin:Sup3rS3cret" } },
            { type: "add-headers", config: { headers: "Authorization: Bearer tokQ5x" } },
          ],
        },
      ],
    };
    const out = await maskPolicyText(JSON.stringify(policy));
    expect(out).not.toContain("Sup3rS3cret");
    expect(out).not.toContain("tokQ5x");
  });
});

describe("a reference to a secret is no secret (contract: the whole value one interpolation)", () => {
  it("isReference: one interpolation, whole, read to its end", async () => {
    const { isReference } = await import("../../src/secrets/index.js");
    for (const ref of [
      '${secrets.get("vault", "name")}',
      "${secrets.get('v', 'n}')}",
      "${vars.token}",
      "${ vars['a}'] }",
    ])
      expect(isReference(ref), ref).toBe(true);
    for (const not of [
      'gh${"${"}x}',
      "${a}${b}",
      "${a} and more}",
      "prefix ${secrets.get('v','n')}",
      "${}",
      '${"open}',
      '${"\\"}secret"}',
      '${"hunter2"}',
      "${r'x'}",
      '${("x")}',
      '${{"a": "b"}["a"]}',
      "${",
      "plain",
      42,
    ])
      expect(isReference(not), String(not)).toBe(false);
  });

  it("is shown as written in every format; the secret beside it is masked", async () => {
    const ref = '${secrets.get("vault", "gh")}';
    const policy = {
      on_http_request: [
        {
          actions: [
            { type: "verify-webhook", config: { provider: "github", secret: ref } },
            { type: "basic-auth", config: { credentials: [ref, "admin:Sup3rS3cret"] } },
          ],
        },
      ],
    };
    const text = JSON.stringify(policy);
    const out = await maskPolicyText(text);
    expect(out).toBe(text.replace('"admin:Sup3rS3cret"', `"${MASK}"`));
    const yaml = (await import("yaml")).stringify(policy);
    expect(await maskPolicyText(yaml)).toBe(yaml.replace("admin:Sup3rS3cret", `"${MASK}"`));
    expect(policySecretValues(policy)).toEqual(["admin:Sup3rS3cret"]);
  });
});

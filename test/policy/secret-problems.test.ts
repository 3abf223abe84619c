// Issue 25 item 3: a problem message never quotes a secret. For every secret place of
// src/secrets' table, a wrong-typed secret (a number, a boolean, a list or an object holding
// one) and a wrong-valued one (a secret where the validator refuses the value, or a value of
// the wrong shape where a list or map of secrets belongs): no problem's message names the
// value, only its kind. Other places keep quoting numbers (they are no secret).
import { describe, expect, it } from "vitest";
import { checkPolicy, type Target } from "../../src/policy/index.js";
import { SECRET_PLACES } from "../../src/secrets/index.js";

const NUMBER = 86753091234567;
const TEXT = "Zz9SecretValueQ";
const HTTPS: Target = { protocol: "https", internal: false };

type Make = (secret: unknown) => { type: string; config: unknown };
/** Each secret place, with the secret put there (and, for a map or list of secrets, its container). */
const PLACES: [string, Make][] = [
  ["verify-webhook secret", (s) => ({ type: "verify-webhook", config: { provider: "github", secret: s } })],
  ["oauth client_secret", (s) => ({ type: "oauth", config: { provider: "google", client_secret: s } })],
  [
    "openid-connect client_secret",
    (s) => ({ type: "openid-connect", config: { issuer_url: "https://id.example.com", client_secret: s } }),
  ],
  ["basic-auth credentials entry", (s) => ({ type: "basic-auth", config: { credentials: ["a:b12345678", s] } })],
  ["basic-auth credentials (not a list)", (s) => ({ type: "basic-auth", config: { credentials: s } })],
  ["terminate-tls server_private_key", (s) => ({ type: "terminate-tls", config: { server_private_key: s } })],
  ["add-headers Authorization", (s) => ({ type: "add-headers", config: { headers: { Authorization: s } } })],
  [
    "add-headers COOKIE among too many headers",
    (s) => ({
      type: "add-headers",
      config: { headers: { COOKIE: s, ...Object.fromEntries([...Array(10).keys()].map((i) => [`x-${i}`, "v"])) } },
    }),
  ],
  [
    "http-request Proxy-Authorization",
    (s) => ({ type: "http-request", config: { url: "https://a.internal", headers: { "Proxy-Authorization": s } } }),
  ],
  ["the config itself", (s) => ({ type: "verify-webhook", config: s })],
];

const policyWith = (action: { type: string; config: unknown }) => {
  const phase = action.type === "terminate-tls" ? "on_tcp_connect" : "on_http_request";
  return {
    ...(phase === "on_tcp_connect" ? { on_tcp_connect: [{ actions: [action] }] } : {}),
    on_http_request: [...(phase === "on_http_request" ? [{ actions: [action] }] : []), { actions: [{ type: "deny" }] }],
  };
};

const WRONG: [string, unknown][] = [
  ["a number", NUMBER],
  ["a negative fraction", -NUMBER / 1000],
  ["a list holding a number", [NUMBER]],
  ["an object holding a number", { value: NUMBER }],
  ["an object holding a string", { value: TEXT }],
  ["a list holding a string", [TEXT]],
  ["a string", TEXT],
];

describe("a problem message never quotes a secret", () => {
  it("the cases cover every action of the table", () => {
    expect(new Set(PLACES.map(([, make]) => make(1).type))).toEqual(new Set(Object.keys(SECRET_PLACES)));
  });

  describe.each(PLACES)("%s", (_name, make) => {
    it.each(WRONG)("holding %s", (_kind, value) => {
      const problems = checkPolicy(policyWith(make(value)), HTTPS);
      const text = JSON.stringify(problems);
      for (const secret of [String(NUMBER), String(-NUMBER / 1000), TEXT, "8675309"])
        expect(text).not.toContain(secret);
    });

    it("holding true: named a boolean, not quoted", () => {
      for (const p of checkPolicy(policyWith(make(true)), HTTPS)) expect(p.message).not.toMatch(/\btrue\)/);
    });
  });

  it("a wrong-typed secret is named by its kind", () => {
    const problems = checkPolicy(policyWith(PLACES[0]![1](NUMBER)), HTTPS);
    expect(problems).toEqual([
      {
        path: "on_http_request[0].actions[0].config.secret",
        message: "must be a string (got a number)",
        code: "ERR_NGROK_2201",
      },
    ]);
    const headers = checkPolicy(policyWith(PLACES[6]![1](true)), HTTPS);
    expect(headers.map((p) => p.message)).toEqual(["must be a string (got a boolean)"]);
  });

  it("a place that holds no secret still shows the value it refuses", () => {
    const problems = checkPolicy(
      {
        on_http_request: [
          { actions: [{ type: "add-headers", config: { headers: { "x-count": 42 } } }, { type: "deny" }] },
        ],
      },
      HTTPS,
    );
    expect(problems.map((p) => p.message)).toEqual(["must be a string (got number 42)"]);
  });
});

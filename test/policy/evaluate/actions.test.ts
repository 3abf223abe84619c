// The evaluator, one table of cases per action, each row citing the line of ngrok's docs it
// holds (ngrok/ngrok-docs @ 56a5f99, snippets/traffic-policy/actions/<action>/behavior.mdx or
// config.mdx, unless named otherwise).
import { generateKeyPairSync, sign as signWith } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createState,
  evaluateRequest,
  evaluateResponse,
  maskTrace,
  type EvalContext,
  type EvalRequest,
} from "../../../src/policy/evaluate/index.js";
import { context, oneRule, request, signature, T0 } from "./support.js";

interface Row {
  cite: string;
  policy: unknown;
  req?: EvalRequest;
  ctx?: Partial<EvalContext>;
  outcome: Record<string, unknown>;
  then?: (r: ReturnType<typeof evaluateRequest>) => void;
}

const GET = request("GET https://shop.example.com/products?id=7");
const forward = { kind: "forward", url: "https://app.internal" };
const resultOf = (r: ReturnType<typeof evaluateRequest>, rule = 0, action = 0) =>
  r.trace[rule]!.actions[action]!.result;

function table(name: string, rows: Row[]) {
  describe(name, () => {
    it.each(rows.map((r) => [r.cite, r] as const))("%s", (_cite, row) => {
      const r = evaluateRequest(row.policy, row.req ?? GET, context(row.ctx));
      expect(r.outcome).toMatchObject(row.outcome);
      row.then?.(r);
    });
  });
}

table("add-headers", [
  {
    cite: "add-headers/behavior.mdx:4 'add the specified headers to incoming http requests'; :17 names lower-cased",
    policy: oneRule([{ type: "add-headers", config: { headers: { "X-Shop": "a", "x-client": "${conn.client_ip}" } } }]),
    outcome: forward,
    then: (r) => {
      expect(r.request.headers["x-shop"]).toEqual(["a"]);
      expect(r.request.headers["x-client"]).toEqual(["192.0.2.10"]);
      expect(resultOf(r)).toEqual({ headers_added: { "x-shop": "a", "x-client": "192.0.2.10" } });
    },
  },
  {
    cite: "add-headers/behavior.mdx:10 'If the header already exists it will append another header with the same key'",
    policy: oneRule([{ type: "add-headers", config: { headers: { "x-a": "2" } } }]),
    req: request("GET https://shop.example.com/", { headers: { "x-a": "1" } }),
    outcome: forward,
    then: (r) => expect(r.request.headers["x-a"]).toEqual(["1", "2"]),
  },
  {
    cite: "add-headers/behavior.mdx:10, with headers named as an object's prototype members (review: a plain {} threw)",
    policy: oneRule([{ type: "add-headers", config: { headers: { constructor: "2", "x-b": "1" } } }]),
    req: request("GET https://shop.example.com/", { headers: { constructor: "1", tostring: "t" } }),
    outcome: forward,
    then: (r) => {
      expect(r.request.headers.constructor).toEqual(["1", "2"]);
      expect(r.request.headers.tostring).toEqual(["t"]);
    },
  },
  {
    cite: "add-headers/behavior.mdx:27 'Adding the host header override the existing value'",
    policy: oneRule([{ type: "add-headers", config: { headers: { Host: "other.example.com" } } }]),
    outcome: forward,
    then: (r) => expect(r.request.headers.host).toEqual(["other.example.com"]),
  },
]);

table("remove-headers", [
  {
    cite: "remove-headers/behavior.mdx:5 'remove the specified headers from incoming HTTP requests'",
    policy: oneRule([{ type: "remove-headers", config: { headers: ["X-Secret", "x-absent"] } }]),
    req: request("GET https://shop.example.com/", { headers: { "x-secret": "s", "x-keep": "k" } }),
    outcome: forward,
    then: (r) => {
      expect(r.request.headers["x-secret"]).toBeUndefined();
      expect(r.request.headers["x-keep"]).toEqual(["k"]);
      expect(resultOf(r)).toEqual({ headers_removed: ["x-secret"] });
    },
  },
]);

table("url-rewrite", [
  {
    cite: "url-rewrite/examples/1-basic-example.mdx: from /products to /products.php",
    policy: oneRule([{ type: "url-rewrite", config: { from: "/products", to: "/products.php" } }]),
    outcome: forward,
    then: (r) => expect(r.request.url).toBe("https://shop.example.com/products.php?id=7"),
  },
  {
    cite: "url-rewrite/behavior.mdx:3 'replaces all occurrences of the from regular expression'; Go's $1",
    policy: oneRule([{ type: "url-rewrite", config: { from: "/a/([0-9]+)", to: "/b/$1" } }]),
    req: request("GET https://x.example.com/a/1/a/2"),
    outcome: forward,
    then: (r) => {
      expect(r.request.url).toBe("https://x.example.com/b/1/b/2");
      expect(resultOf(r)).toEqual({ url: "https://x.example.com/b/1/b/2", matches: ["/a/1", "/a/2"] });
    },
  },
  {
    cite: "url-rewrite/behavior.mdx:7 'Matching is performed against the entire URL' and CEL interpolation first (:15)",
    policy: oneRule([
      {
        type: "url-rewrite",
        config: { from: "^https://${req.url.authority}/products", to: "https://${req.url.authority}/store" },
      },
    ]),
    outcome: forward,
    then: (r) => expect(r.request.url).toBe("https://shop.example.com/store?id=7"),
  },
  {
    cite: "url-rewrite: RE2's leading (?i) and named groups (?P<name>), Go's $name replacement (${…} is CEL: url-rewrite/behavior.mdx:15 interpolates first)",
    policy: oneRule([{ type: "url-rewrite", config: { from: "(?i)/PRODUCTS/(?P<id>[0-9]+)", to: "/p/$id" } }]),
    req: request("GET https://x.example.com/products/42"),
    outcome: forward,
    then: (r) => expect(r.request.url).toBe("https://x.example.com/p/42"),
  },
  {
    cite: "url-rewrite: a pattern with no JavaScript equivalent is never run with another meaning",
    policy: oneRule([{ type: "url-rewrite", config: { from: "(?U)a+", to: "b" } }]),
    outcome: { kind: "unknown", reason: expect.stringContaining("ungreedy") },
  },
]);

table("redirect", [
  {
    cite: "redirect/examples/1-basic-example.mdx: /products → 302, location https://example.ngrok.app/store/products",
    policy: oneRule([{ type: "redirect", config: { from: "/products", to: "/store/products" } }]),
    req: request("GET https://example.ngrok.app/products"),
    outcome: {
      kind: "redirect",
      status: 302,
      url: "https://example.ngrok.app/store/products",
      by: { phase: "on_http_request", rule: "under test", action: "redirect" },
    },
  },
  {
    cite: "redirect/examples/2-with-regex.mdx: /api/v1/users?id=([0-9]+) → /api/v2/users/$1/, 301, x-redirected",
    policy: oneRule([
      {
        type: "redirect",
        config: {
          from: "/api/v1/users\\?id=([0-9]+)",
          to: "/api/v2/users/$1/",
          status_code: 301,
          headers: { "x-redirected": "true" },
        },
      },
    ]),
    req: request("GET https://example.ngrok.app/api/v1/users?id=123"),
    outcome: {
      kind: "redirect",
      status: 301,
      url: "https://example.ngrok.app/api/v2/users/123/",
      headers: { "x-redirected": ["true"], location: ["https://example.ngrok.app/api/v2/users/123/"] },
    },
  },
  {
    cite: "redirect/behavior.mdx:11 'If the request URL is not changed, the action will take no further action'",
    policy: oneRule([{ type: "redirect", config: { from: "/nowhere", to: "/elsewhere" } }]),
    outcome: forward,
  },
]);

table("custom-response", [
  {
    cite: "custom-response/behavior.mdx:8 returns the configured response; config.mdx status default 200; body interpolated",
    policy: oneRule([
      { type: "custom-response", config: { body: "hi ${req.url.path}", headers: { "Content-Type": "text/plain" } } },
    ]),
    outcome: { kind: "response", status: 200, body: "hi /products", headers: { "content-type": ["text/plain"] } },
  },
  {
    cite: "custom-response/config.mdx status_code",
    policy: oneRule([{ type: "custom-response", config: { status_code: 503 } }]),
    outcome: { kind: "response", status: 503, body: "" },
  },
]);

table("deny", [
  {
    cite: "deny/http/config.mdx:5 'Default is 403'",
    policy: oneRule([{ type: "deny" }]),
    outcome: { kind: "deny", status: 403, by: { rule: "under test", action: "deny" } },
  },
  {
    cite: "deny/http/examples/http-basic-example.mdx: status_code 404",
    policy: oneRule([{ type: "deny", config: { status_code: 404 } }]),
    outcome: { kind: "deny", status: 404 },
  },
  {
    cite: "deny/tcp/behavior.mdx: on_tcp_connect closes the connection",
    policy: { on_tcp_connect: [{ actions: [{ type: "deny" }] }] },
    ctx: { protocol: "tcp" },
    outcome: { kind: "close", by: { phase: "on_tcp_connect", rule: "on_tcp_connect[0]" } },
  },
]);

table("close-connection", [
  {
    cite: "close-connection/behavior.mdx:3 'connection to the endpoint is closed immediately'",
    policy: oneRule([{ type: "close-connection" }]),
    outcome: { kind: "close" },
  },
]);

table("set-vars", [
  {
    cite: "set-vars/behavior.mdx:9 a value exactly ${…} keeps its type; others become strings; later items see earlier ones",
    policy: {
      on_http_request: [
        {
          actions: [
            {
              type: "set-vars",
              config: {
                vars: [
                  { n: "${size(req.url.path)}" },
                  { s: "path ${req.url.path}" },
                  { twice: "${vars.n * 2}" },
                  { l: [1, "${vars.s}"] },
                ],
              },
            },
          ],
        },
        { expressions: ["vars.twice == 18"], actions: [{ type: "custom-response", config: { body: "${vars.s}" } }] },
      ],
    },
    outcome: { kind: "response", body: "path /products" },
    then: (r) => expect(r.vars).toEqual({ n: 9, s: "path /products", twice: 18, l: [1, "path /products"] }),
  },
]);

table("restrict-ips", [
  {
    cite: "restrict-ips/behavior.mdx:13 allowed when in an allowed CIDR and no denied one",
    policy: oneRule([
      { type: "restrict-ips", config: { enforce: true, allow: ["192.0.2.0/24"], deny: ["192.0.2.99/32"] } },
    ]),
    outcome: forward,
    then: (r) => expect(resultOf(r)).toEqual({ action: "allow", matched_cidr: "192.0.2.0/24" }),
  },
  {
    cite: "restrict-ips/behavior.mdx:27 denied in on_http_request: 'An HTTP 403 response is returned'",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, allow: ["10.0.0.0/8"] } }]),
    outcome: { kind: "deny", status: 403 },
  },
  {
    cite: "restrict-ips/behavior.mdx:13 a denied CIDR wins over an allowed one",
    policy: oneRule([
      { type: "restrict-ips", config: { enforce: true, allow: ["0.0.0.0/0"], deny: ["192.0.2.10/32"] } },
    ]),
    outcome: { kind: "deny", status: 403 },
  },
  {
    cite: "restrict-ips/behavior.mdx:36 IPv6 supported ('::/0')",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, allow: ["2001:db8::/32"] } }]),
    req: request("GET https://x.example.com/", { clientIp: "2001:db8::1" }),
    outcome: forward,
  },
  {
    cite: "restrict-ips/config.mdx enforce: 'If false, continue to the next action even if the IP is not permitted'",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: false, allow: ["10.0.0.0/8"] } }]),
    outcome: forward,
  },
  {
    cite: "restrict-ips/tcp/behavior.mdx 'The connection is immediately closed'",
    policy: {
      on_tcp_connect: [{ actions: [{ type: "restrict-ips", config: { enforce: true, allow: ["10.0.0.0/8"] } }] }],
    },
    ctx: { protocol: "tcp", kind: "agent" },
    outcome: { kind: "close" },
  },
  {
    cite: "restrict-ips/behavior.mdx:13 a deny list alone: a client in it is refused",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, deny: ["192.0.2.0/24"] } }]),
    outcome: { kind: "deny", status: 403 },
  },
  {
    cite: "restrict-ips/behavior.mdx:13 a deny list alone and a client in none of it: 'allowed only if … matches at least one of the allowed CIDRs' leaves it open",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, deny: ["10.0.0.0/8"] } }]),
    outcome: { kind: "unknown", reason: expect.stringContaining("no allow list") },
  },
  {
    cite: "restrict-ips: ip_policies' CIDRs live at ngrok, so the outcome is unknown",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_1"] } }]),
    outcome: { kind: "unknown", reason: expect.stringContaining("ip_policies") },
  },
  {
    cite: "restrict-ips: an IP policy whose rules the caller gives (migrate --verify) is worked out as its CIDRs",
    policy: oneRule([{ type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_1"] } }]),
    ctx: { ipPolicies: new Map([["ipp_1", { allow: ["10.1.0.0/16"], deny: [] }]]) },
    outcome: { kind: "deny", status: 403 },
  },
]);

const body = Buffer.from('{"action":"opened"}');
const hook = (sig?: string) =>
  request("POST https://hooks.example.com/github", {
    body,
    headers: sig === undefined ? {} : { "x-test-signature": sig },
  });
table("verify-webhook", [
  {
    cite: "verify-webhook/behavior.mdx:3 'If verification succeeds, the request proceeds through the action chain'",
    policy: oneRule([{ type: "verify-webhook", config: { provider: "github", secret: "s3cret" } }]),
    req: hook(signature("s3cret", body)),
    outcome: forward,
    then: (r) => expect(resultOf(r)).toEqual({ verified: true }),
  },
  {
    cite: "verify-webhook/behavior.mdx:3 'If it fails, the request is terminated with a 403 Forbidden response'",
    policy: oneRule([{ type: "verify-webhook", config: { provider: "github", secret: "s3cret" } }]),
    req: hook(signature("other", body)),
    outcome: { kind: "deny", status: 403, by: { action: "verify-webhook" } },
  },
  {
    cite: "verify-webhook/behavior.mdx:9 'enforce: false allows unverified requests to proceed'; variables.mdx verified, error.*",
    policy: {
      on_http_request: [
        { actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s3cret", enforce: false } }] },
        {
          expressions: ["!actions.ngrok.verify_webhook.verified"],
          actions: [
            {
              type: "custom-response",
              config: { status_code: 401, body: "${actions.ngrok.verify_webhook.error.code}" },
            },
          ],
        },
      ],
    },
    req: hook(),
    outcome: { kind: "response", status: 401, body: "missing-header" },
  },
  {
    cite: "verify-webhook: a provider edgectl has no scheme for is unknown, never a guess",
    policy: oneRule([{ type: "verify-webhook", config: { provider: "zoom", secret: "s" } }]),
    req: hook(),
    outcome: { kind: "unknown", reason: expect.stringContaining("zoom") },
  },
]);

const basic = (pair: string) =>
  request("GET https://x.example.com/", {
    headers: { authorization: `Basic ${Buffer.from(pair).toString("base64")}` },
  });
table("basic-auth", [
  {
    cite: "basic-auth/behavior.mdx:19 'Authorization: Basic <credentials>'; the first colon splits (:13)",
    policy: oneRule([{ type: "basic-auth", config: { credentials: ["ann:pass:word1"] } }]),
    req: basic("ann:pass:word1"),
    outcome: forward,
    then: (r) => expect(resultOf(r)).toEqual({ credentials: { presented: true, username: "ann", authorized: true } }),
  },
  {
    cite: "basic-auth/behavior.mdx:20 'If the authentication fails, it will return to user a 401'; realm default ngrok (config.mdx)",
    policy: oneRule([{ type: "basic-auth", config: { credentials: ["ann:password1"] } }]),
    req: basic("ann:wrong-one"),
    outcome: { kind: "deny", status: 401, headers: { "www-authenticate": ['Basic realm="ngrok"'] } },
  },
  {
    cite: "basic-auth/behavior.mdx:21 'setting enforce: false allows unauthenticated requests to proceed'",
    policy: oneRule([{ type: "basic-auth", config: { credentials: ["ann:password1"], enforce: false } }]),
    outcome: forward,
    then: (r) => expect(resultOf(r)).toEqual({ credentials: { presented: false, username: "", authorized: false } }),
  },
]);

table("oauth and openid-connect", [
  {
    cite: "oauth/behavior.mdx:17 an unauthenticated request 'returns a redirect response that begins an authentication flow'",
    policy: oneRule([{ type: "oauth", config: { provider: "google" } }]),
    outcome: { kind: "redirect", status: 302, by: { action: "oauth" } },
  },
  {
    cite: "oauth/variables.mdx actions.ngrok.oauth.identity.email, with the identity signed in",
    policy: oneRule([
      { type: "oauth", config: { provider: "google" } },
      { type: "custom-response", config: { body: "${actions.ngrok.oauth.identity.email}" } },
    ]),
    ctx: { identity: { email: "ann@example.com" } },
    outcome: { kind: "response", body: "ann@example.com" },
  },
  {
    cite: "oidc/behavior.mdx: the same flow with the OpenID provider; actions.ngrok.oidc.identity",
    policy: oneRule([
      { type: "openid-connect", config: { issuer_url: "https://id.example.com" } },
      { type: "custom-response", config: { body: "${actions.ngrok.oidc.identity.email}" } },
    ]),
    ctx: { identity: { email: "bo@example.com" } },
    outcome: { kind: "response", body: "bo@example.com" },
  },
]);

// ES256 (RFC 7518 §3.4: P-256, SHA-256, the signature as R || S).
const ec = () => generateKeyPairSync("ec", { namedCurve: "P-256" });
const { privateKey, publicKey } = ec();
const jwk = { ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "ES256", use: "sig" };
function jwt(payload: object, key = privateKey): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const head = `${enc({ alg: "ES256", typ: "JWT", kid: "k1" })}.${enc(payload)}`;
  return `${head}.${signWith("sha256", Buffer.from(head), { key, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}
const JWT_POLICY = oneRule([
  {
    type: "jwt-validation",
    config: {
      issuer: { allow_list: [{ value: "https://issuer.example.com/" }] },
      audience: { allow_list: [{ value: "api" }] },
      http: { tokens: [{ type: "jwt", method: "header", name: "Authorization", prefix: "Bearer " }] },
      jws: {
        allowed_algorithms: ["ES256"],
        keys: [{ sources: [{ additional_jkus: ["https://issuer.example.com/jwks"] }] }],
      },
    },
  },
]);
const bearer = (token: string) =>
  request("GET https://api.example.com/", { headers: { authorization: `Bearer ${token}` } });
const claims = { iss: "https://issuer.example.com/", aud: "api", exp: T0.getTime() / 1000 + 60 };
table("jwt-validation", [
  {
    cite: "jwt-validation/behavior.mdx:5 'allowed only if it has been correctly signed by the issuer and the defined claims match'",
    policy: JWT_POLICY,
    req: bearer(jwt(claims)),
    ctx: { jwtKeys: { "https://issuer.example.com/jwks": { keys: [jwk] } } },
    outcome: forward,
    then: (r) => expect((resultOf(r)!.tokens as { verified: boolean }[])[0]!.verified).toBe(true),
  },
  {
    cite: "jwt-validation/behavior.mdx:41 'If all tokens are not present, a 401 Unauthorized status code will be returned'",
    policy: JWT_POLICY,
    ctx: { jwtKeys: { keys: [jwk] } },
    outcome: { kind: "deny", status: 401 },
  },
  {
    cite: "jwt-validation/behavior.mdx:21 the issuer 'must exactly match' (trailing slash included); an invalid token is 403 (gateway/api-gateway/get-started.mdx:328)",
    policy: JWT_POLICY,
    req: bearer(jwt({ ...claims, iss: "https://issuer.example.com" })),
    ctx: { jwtKeys: { keys: [jwk] } },
    outcome: { kind: "deny", status: 403 },
    then: (r) => expect((resultOf(r)!.error as { message: string }).message).toContain("issuer"),
  },
  {
    cite: "jwt-validation: a token signed by another key does not verify: 403 (gateway/api-gateway/get-started.mdx:328)",
    policy: JWT_POLICY,
    req: bearer(jwt(claims, ec().privateKey)),
    ctx: { jwtKeys: { keys: [jwk] } },
    outcome: { kind: "deny", status: 403 },
    then: (r) => expect((resultOf(r)!.error as { message: string }).message).toContain("signature"),
  },
  {
    cite: "jwt-validation: `keys` and `sources` written as one object, as ngrok's examples do (gateway/api-gateway/get-started.mdx:356-359), with keys given per jku URL",
    policy: oneRule([
      {
        type: "jwt-validation",
        config: {
          issuer: { allow_list: [{ value: "https://issuer.example.com/" }] },
          audience: { allow_list: [{ value: "api" }] },
          http: { tokens: [{ type: "jwt", method: "header", name: "Authorization", prefix: "Bearer " }] },
          jws: {
            allowed_algorithms: ["ES256"],
            keys: { sources: { additional_jkus: ["https://issuer.example.com/jwks"] } },
          },
        },
      },
    ]),
    req: bearer(jwt(claims)),
    ctx: { jwtKeys: { "https://issuer.example.com/jwks": { keys: [jwk] } } },
    outcome: forward,
  },
  {
    cite: "jwt-validation: keys come from jku URLs, never fetched: none given is unknown",
    policy: JWT_POLICY,
    req: bearer(jwt(claims)),
    outcome: { kind: "unknown", reason: expect.stringContaining("no keys") },
  },
]);

table("forward-internal and http-request", [
  {
    cite: "forward-internal/behavior.mdx:3 'forwards a request to an internal endpoint'; url interpolated (config.mdx cel)",
    policy: {
      on_http_request: [
        { actions: [{ type: "forward-internal", config: { url: "https://${req.url.path.split('/')[1]}.internal" } }] },
      ],
    },
    outcome: {
      kind: "forward",
      url: "https://products.internal",
      by: { rule: "on_http_request[0]", action: "forward-internal" },
    },
  },
  {
    cite: "http-request/behavior.mdx:3 an outbound request: its answer comes from the case, or the outcome is unknown",
    policy: oneRule([{ type: "http-request", config: { url: "https://auth.internal/check" } }]),
    outcome: { kind: "unknown", reason: expect.stringContaining("GET https://auth.internal/check") },
  },
  {
    cite: "http-request/variables.mdx actions.ngrok.http_request.res.status_code",
    policy: {
      on_http_request: [
        { actions: [{ type: "http-request", config: { url: "https://auth.internal/check", method: "POST" } }] },
        { expressions: ["actions.ngrok.http_request.res.status_code != 200"], actions: [{ type: "deny" }] },
        { actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
      ],
    },
    ctx: { httpResponses: [{ method: "POST", url: "https://auth.internal/check", status: 403 }] },
    outcome: { kind: "deny", status: 403, by: { rule: "on_http_request[1]" } },
  },
]);

table("log, terminate-tls, compress-response, circuit-breaker, owasp-crs-*", [
  {
    cite: "log/variables.mdx actions.ngrok.log.metadata; the request goes on",
    policy: oneRule([{ type: "log", config: { metadata: { path: "${req.url.path}" } } }]),
    outcome: forward,
    then: (r) => expect(resultOf(r)).toEqual({ metadata: { path: "/products" } }),
  },
  {
    cite: "terminate-tls/behavior.mdx: TLS ends at ngrok (on_tcp_connect); 100 units (traffic-policy-unit-pricing.mdx)",
    policy: {
      on_tcp_connect: [{ actions: [{ type: "terminate-tls", config: { min_version: "1.3" } }] }],
      ...oneRule([{ type: "log", config: { metadata: {} } }]),
    },
    outcome: forward,
    then: (r) => expect(r.units).toBe(100),
  },
  {
    cite: "compress-response/behavior.mdx:3 compresses only 'When an HTTP request includes an Accept-Encoding header'",
    policy: { on_http_response: [{ actions: [{ type: "compress-response" }] }] },
    ctx: { kind: "agent" },
    outcome: { kind: "forward" },
  },
  {
    cite: "circuit-breaker/behavior.mdx: with no upstream errors seen it cannot have tripped",
    policy: oneRule([{ type: "circuit-breaker", config: { error_threshold: 0.5 } }]),
    outcome: forward,
  },
  {
    cite: "owasp-crs-request: the rule set's verdict is not worked out, so unknown",
    policy: oneRule([{ type: "owasp-crs-request" }]),
    outcome: { kind: "unknown", reason: expect.stringContaining("owasp-crs-request") },
  },
]);

describe("compress-response and circuit-breaker on the upstream's answer", () => {
  it("leaves an answer alone without Accept-Encoding and says unknown with it; circuit-breaker is unknown once errors were seen", () => {
    const policy = { on_http_response: [{ actions: [{ type: "compress-response" }] }] };
    const res = { status: 200, headers: {}, body: Buffer.from("x") };
    expect(evaluateResponse(policy, GET, res, context()).outcome).toBeUndefined();
    const gzip = request("GET https://shop.example.com/", { headers: { "accept-encoding": "gzip" } });
    expect(evaluateResponse(policy, gzip, res, context()).outcome?.kind).toBe("unknown");
    const ctx = context();
    evaluateResponse({}, GET, { status: 502, headers: {}, body: Buffer.alloc(0) }, ctx);
    const breaker = oneRule([{ type: "circuit-breaker", config: { error_threshold: 0.5 } }]);
    expect(evaluateRequest(breaker, GET, ctx).outcome.kind).toBe("unknown");
  });
});

describe("rate-limit", () => {
  // rate-limit/behavior.mdx:30 over capacity: 429 with retry-after; config.mdx sliding_window, capacity, rate, bucket_key.
  const policy = oneRule([
    {
      type: "rate-limit",
      config: {
        name: "per key",
        algorithm: "sliding_window",
        capacity: 2,
        rate: "60s",
        bucket_key: ["getReqHeader('x-api-key')"],
      },
    },
  ]);
  it("lets `capacity` requests of a bucket through within `rate`, then answers 429 with retry-after, by the request's time", () => {
    const state = createState();
    const at = (s: number, key = "a") =>
      evaluateRequest(
        policy,
        request("GET https://api.example.com/", {
          headers: { "x-api-key": key },
          time: new Date(T0.getTime() + s * 1000),
        }),
        context({ state }),
      ).outcome;
    expect(at(0).kind).toBe("forward");
    expect(at(10).kind).toBe("forward");
    expect(at(20)).toMatchObject({ kind: "deny", status: 429, headers: { "retry-after": ["40"] } });
    expect(at(20, "b").kind).toBe("forward"); // rate-limit/behavior.mdx:13 one bucket per key
    expect(at(61).kind).toBe("forward"); // the first request left the window
    expect(at(62)).toMatchObject({ kind: "deny", status: 429 });
  });
});

describe("phases, rules and expressions (traffic-policy/how-it-works.mdx)", () => {
  it("runs a rule only when all its expressions are true, and shows each expression's value", () => {
    const r = evaluateRequest(
      {
        on_http_request: [
          {
            name: "admin",
            expressions: ["req.url.path.startsWith('/admin')", "req.method == 'POST'"],
            actions: [{ type: "deny" }],
          },
          {
            name: "get",
            expressions: ["req.method == 'GET'", "req.url.path.matches('(?i)^/PRODUCTS')"],
            actions: [{ type: "add-headers", config: { headers: { "x-get": "1" } } }],
          },
          { name: "rest", actions: [{ type: "custom-response", config: { status_code: 204 } }] },
          { name: "after", actions: [{ type: "deny" }] },
        ],
      },
      GET,
      context(),
    );
    expect(r.trace.map((t) => [t.rule, t.ran, t.reached])).toEqual([
      ["admin", false, true],
      ["get", true, true],
      ["rest", true, true],
      ["after", false, false],
    ]);
    expect(r.trace[0]!.expressions).toEqual([
      { expression: "req.url.path.startsWith('/admin')", value: false },
      { expression: "req.method == 'POST'", skipped: true },
    ]);
    expect(r.trace[1]!.expressions.map((e) => e.value)).toEqual([true, true]);
    expect(r.outcome).toMatchObject({ kind: "response", status: 204, by: { rule: "rest", action: "custom-response" } });
  });

  it("makes an expression error or a non-bool value an unknown outcome with the place", () => {
    const r = evaluateRequest(oneRule([{ type: "deny" }], ["req.nope == 1"]), GET, context());
    expect(r.outcome).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/^on_http_request\[0\]\.expressions\[0\]: /),
    });
    const n = evaluateRequest(oneRule([{ type: "deny" }], ["req.method"]), GET, context());
    expect(n.outcome).toMatchObject({ kind: "unknown", reason: expect.stringContaining("not a bool") });
  });

  it("forwards to the agent when an agent endpoint's policy ends in no terminating action, and says unknown for a Cloud Endpoint", () => {
    const policy = { on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] };
    expect(evaluateRequest(policy, GET, context({ kind: "agent" })).outcome).toEqual({ kind: "forward" });
    expect(evaluateRequest(policy, GET, context()).outcome.kind).toBe("unknown");
  });

  it("runs on_http_response over the upstream's answer (add-headers/behavior.mdx:5; custom-response/behavior.mdx:13)", () => {
    const policy = {
      on_http_response: [
        { actions: [{ type: "add-headers", config: { headers: { "x-status": "${string(res.status_code)}" } } }] },
        {
          expressions: ["res.status_code >= 500"],
          actions: [{ type: "custom-response", config: { status_code: 503, body: "sorry" } }],
        },
      ],
    };
    const ok = evaluateResponse(
      policy,
      GET,
      { status: 200, headers: { "x-up": ["1"] }, body: Buffer.from("hi") },
      context(),
    );
    expect(ok.outcome).toBeUndefined();
    expect(ok.response.headers).toEqual({ "x-up": ["1"], "x-status": ["200"] });
    const bad = evaluateResponse(policy, GET, { status: 502, headers: {}, body: Buffer.alloc(0) }, context());
    expect(bad.outcome).toMatchObject({ kind: "response", status: 503, body: "sorry" });
  });

  it("counts Traffic Policy units of the actions that ran (pricing-limits/traffic-policy-unit-pricing.mdx: restrict-ips 10, remove-headers 1, url-rewrite 10, forward-internal free)", () => {
    const policy = {
      on_http_request: [
        {
          actions: [
            { type: "restrict-ips", config: { enforce: true, allow: ["0.0.0.0/0"] } },
            { type: "remove-headers", config: { headers: ["x"] } },
          ],
        },
        { expressions: ["false"], actions: [{ type: "redirect", config: { to: "/x" } }] },
        {
          actions: [
            { type: "url-rewrite", config: { from: "a", to: "b" } },
            { type: "forward-internal", config: { url: "https://a.internal" } },
          ],
        },
      ],
    };
    expect(evaluateRequest(policy, GET, context()).units).toBe(21);
  });

  it("masks each action's secret places in the trace it prints (src/secrets)", () => {
    const r = evaluateRequest(
      oneRule([
        { type: "basic-auth", config: { credentials: ["ann:password1"], enforce: false } },
        { type: "add-headers", config: { headers: { Authorization: "Bearer t0ken", x: "y" } } },
      ]),
      GET,
      context(),
    );
    const masked = maskTrace(r.trace)[0]!.actions.map((a) => a.config);
    expect(masked).toEqual([
      { credentials: ["********"], enforce: false },
      { headers: { Authorization: "********", x: "y" } },
    ]);
    expect(r.trace[0]!.actions[0]!.config).toEqual({ credentials: ["ann:password1"], enforce: false });
    const call = evaluateRequest(
      oneRule([
        { type: "http-request", config: { url: "https://auth.internal/", headers: { authorization: "Bearer s3" } } },
      ]),
      GET,
      context({ httpResponses: [{ url: "https://auth.internal/", status: 200 }] }),
    );
    const shown = maskTrace(call.trace)[0]!.actions[0]!;
    expect(shown.config).toEqual({ url: "https://auth.internal/", headers: { authorization: "********" } });
    expect(shown.result!.req).toMatchObject({ header: { authorization: "********" } });
    expect(JSON.stringify(maskTrace(call.trace))).not.toContain("s3");
  });
});

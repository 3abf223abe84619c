// Every action of ngrok's action reference, as a table: configs its page takes and configs it
// refuses, each row citing the doc line that decides it (ngrok/ngrok-docs @ 56a5f99,
// traffic-policy/actions/<type>.mdx unless named). Problems are `place: message` fragments,
// the place below the action's `config` ("" for the config itself).
import fc from "fast-check";
import { beforeAll, describe, expect, test, vi } from "vitest";
import {
  ACTIONS,
  SSE_PHASE,
  deprecatedIn,
  expressionsOf,
  templatesOf,
  type ActionPhase,
} from "../../src/policy/actions.js";
import { headerNameProblem } from "../../src/policy/actions/fields.js";
import { checkPolicy, loadCel, type Protocol } from "../../src/policy/index.js";

// Every `${…}` and config expression is checked as CEL (src/policy/cel), as for a parsed text.
beforeAll(() => loadCel());

type Row = [type: string, config: unknown, problems: string[], doc: string, phase?: ActionPhase, protocol?: Protocol];

/** The problems of one action standing alone, on an endpoint where nothing else is asked of it. */
function problemsOf(type: string, config: unknown, phase?: ActionPhase, protocol?: Protocol): string[] {
  const phases = ACTIONS[type]!.phases;
  const at = phase ?? (phases.includes("on_http_request") ? "on_http_request" : phases[0]!);
  const tcp = at === "on_tcp_connect";
  const rule = { actions: [config === undefined ? { type } : { type, config }] };
  // The vars.* the config reads, set first by a set-vars rule (in on_tcp_connect, which runs
  // before every other phase), so that a row is about its action, not about CEL's scope.
  const vars = [...new Set([...JSON.stringify(config ?? {}).matchAll(/vars\.(\w+)/g)].map((m) => m[1]!))];
  const setVars = { actions: [{ type: "set-vars", config: { vars: vars.map((v) => ({ [v]: "x" })) } }] };
  const document: Record<string, unknown[]> = vars.length === 0 ? {} : { on_tcp_connect: [setVars] };
  document[at] = [...(document[at] ?? []), rule];
  // A fragment: an agent endpoint's, which need not end in a terminating action.
  return checkPolicy(document, { protocol: protocol ?? (tcp ? "tls" : "https"), internal: false, kind: "agent" }).map(
    (p) => `${p.path.replace(/^on_\w+\[\d+\]\.actions\[0\]\.config\.?/, "")}: ${p.message}`,
  );
}

const headers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, "v"]));
const RATE = { name: "r", algorithm: "sliding_window", capacity: 1, rate: "60s", bucket_key: ["conn.client_ip"] };
const JWT = {
  issuer: { allow_list: [{ value: "https://id.example.com" }] },
  http: { tokens: [{ type: "access_token", method: "header", name: "Authorization", prefix: "Bearer " }] },
  jws: { allowed_algorithms: ["RS256"], keys: { sources: { additional_jkus: ["https://id.example.com/jwks"] } } },
};
const PEM = "-----BEGIN CERTIFICATE-----\n... certificate ...\n-----END CERTIFICATE-----";

const VALID: Row[] = [
  ["add-headers", { headers: { "x-client-ip": "${conn.client_ip}" } }, [], "add-headers.mdx:29-33"],
  ["add-headers", { headers: headers(10) }, [], "add-headers.mdx:32 maximum 10"],
  ["remove-headers", { headers: ["x-a", "X-B"] }, [], "remove-headers.mdx:32-36"],
  [
    "basic-auth",
    { credentials: ["user:password1", "admin:password2"], realm: "API", enforce: false },
    [],
    "basic-auth.mdx:28-41",
  ],
  [
    "basic-auth",
    { credentials: ["$U:${secrets.get('v', 'k')}", "${vars.whole}", "a${vars.x}:pw"] },
    [],
    "basic-auth.mdx:79-84",
  ],
  [
    "basic-auth",
    { credentials: [{ username: "user1", password: "password123" }] },
    [],
    "examples/add-authentication.mdx:35-45",
  ],
  ["basic-auth", { credentials: ["u:a:b:c:d:e:f"] }, [], "basic-auth.mdx:55-56 the first colon splits"],
  [
    "circuit-breaker",
    {
      error_threshold: 0.5,
      volume_threshold: 10,
      window_duration: "10s",
      tripped_duration: "2m",
      num_buckets: 10,
      enforce: true,
    },
    [],
    "circuit-breaker.mdx:31-68",
  ],
  [
    "circuit-breaker",
    { error_threshold: 0.1, tripped_duration: 120_000_000_000 },
    [],
    "ngrok-operator testdata/policy-2.json",
  ],
  ["close-connection", {}, [], "close-connection.mdx:31", "on_tcp_connect"],
  ["compress-response", { algorithms: ["gzip", "br"] }, [], "compress-response.mdx:29-39"],
  [
    "custom-response",
    { status_code: 503, body: "${req.url}", headers: { "content-type": "text/plain" } },
    [],
    "custom-response.mdx:29-41",
  ],
  [
    "custom-response",
    { status_code: 404, content: "Not Found" },
    [],
    "custom-response/config.mdx@2a3f9942a:15 (deprecated)",
  ],
  ["deny", { status_code: 404 }, [], "deny.mdx:36"],
  ["deny", undefined, [], "deny.mdx:32 no fields on TCP", "on_tcp_connect"],
  ["forward-internal", { url: "https://${vars.service}.internal" }, [], "forward-internal.mdx:29 cel={true}"],
  [
    "forward-internal",
    { url: "http://a.internal:8080", on_error: "continue", binding: "internal" },
    [],
    "forward-internal/config.mdx@79b67ba3e:15",
  ],
  ["forward-internal", { url: "tls://db.internal:443" }, [], "forward-internal.mdx:75 same protocol", "on_tcp_connect"],
  [
    "http-request",
    {
      url: "https://httpbin.internal/post",
      method: "POST",
      query_params: [{ key: "user", value: "${req.headers['x']}" }],
      headers: { "content-type": "application/json", "is-ngrok": 1 },
      body: "{}",
      max_redirects: 2,
      timeout: "5s",
      retry_condition: "last_attempt.res.status_code == 500",
      on_error: "halt",
    },
    [],
    "http-request.mdx:37-98; snippets/examples/agent-cli/http-request-headers.mdx:7",
  ],
  ["http-request", { url: "https://upstream.internal/ping" }, [], "http-request.mdx:204-211", "on_http_response"],
  ["jwt-validation", JWT, [], "snippets/traffic-policy/actions/jwt-validation/examples/basic-example.mdx:10-36"],
  [
    "jwt-validation",
    {
      ...JWT,
      audience: { allow_list: [{ value: "urn:api" }, {}] },
      jws: { ...JWT.jws, keys: [{ identification: [{ token_claims: ["kid"] }], sources: [{ additional_jkus: [] }] }] },
    },
    [],
    "jwt-validation.mdx:127-151 (arrays, as the table says)",
  ],
  ["log", { metadata: { message: "hi", endpoint_id: "${endpoint.id}", n: 1 } }, [], "log.mdx:71-79", "on_tcp_connect"],
  ["oauth", { provider: "google" }, [], "oauth.mdx:152 managed app"],
  [
    "oauth",
    {
      provider: "amazon",
      client_id: "id",
      client_secret: "s",
      scopes: ["profile"],
      idle_session_timeout: "15m",
      max_session_duration: "1h",
      userinfo_refresh_interval: "1h",
      allow_cors_preflight: true,
      auth_id: "a",
      authz_url_params: { prompt: "login" },
      auth_cookie_domain: "example.com",
    },
    [],
    "oauth.mdx:40-91",
  ],
  [
    "openid-connect",
    { issuer_url: "{your issuer url}", client_id: "i", client_secret: "s", scopes: ["openid"] },
    [],
    "oidc.mdx:228-236",
  ],
  [
    "openid-connect",
    { issuer_url: "https://id", idle_session_duration: "30m", idle_session_timeout: "30m" },
    [],
    "oidc.mdx:63; ngrok-operator OIDCConfig",
  ],
  [
    "owasp-crs-request",
    { on_error: "halt", process_body: true, exclude_rule_ids: [920350, 999999] },
    [],
    "owasp-crs-request.mdx:52-65",
  ],
  ["owasp-crs-response", { on_error: "continue" }, [], "owasp-crs-response.mdx:158-162"],
  ["rate-limit", RATE, [], "rate-limit.mdx:34-69"],
  [
    "rate-limit",
    {
      ...RATE,
      name: "n".repeat(1023),
      capacity: 2_000_000_000,
      rate: "24h",
      enforce: false,
      bucket_key: Object.keys(headers(10)).map((h) => `req.headers["${h}"]`),
    },
    [],
    "rate-limit.mdx:35, :52, :57, :68 limits",
  ],
  ["rate-limit", { ...RATE, rate: "1m" }, [], "gateway/examples/paas-alternative-gateway.mdx:105"],
  [
    "redirect",
    {
      from: "^(https?://[^/]+)/products(.*)$",
      to: "$1/store/products$2",
      status_code: 301,
      headers: { "x-redirected": true },
    },
    [],
    "redirect.mdx:197-203",
  ],
  ["redirect", { from: "^${req.url.scheme}://${req.url.authority}/api/v1/", to: "/v2" }, [], "redirect.mdx:108"],
  [
    "request-body-find-replace",
    { replacements: [{ from: "<!--.*?-->", to: "" }, { from: "api_key=([a-zA-Z0-9]+)" }] },
    [],
    "request-body-find-replace.mdx:205-211",
  ],
  [
    "response-body-find-replace",
    { replacements: [{ from: "${vars.p}", to: "[x ${req.headers['id']}]" }] },
    [],
    "response-body-find-replace.mdx:73-74",
  ],
  [
    "restrict-ips",
    { enforce: true, allow: ["1.1.1.1/32"], deny: ["e680:5791:be4c:5739:d959:7b94:6d54:d4b4/128"] },
    [],
    "restrict-ips.mdx:178-188",
  ],
  [
    "restrict-ips",
    { ip_policies: ["ipp_1yjqdrIBwgciY2I9zH2EelgBbJF"] },
    [],
    "ngrok-operator NewRestricIPsActionFromIPPolicies",
    "on_tcp_connect",
  ],
  ["restrict-ips", { allow: ["${vars.cidr}"] }, [], "restrict-ips.mdx:45 cel={true}", "on_http_response"],
  ["set-vars", { vars: [{ a: "Hello," }, { b: { c: [1] } }, { n: null }] }, [], "set-vars.mdx:182-200"],
  ["set-vars", { vars: { live: "blue", test: "green" } }, [], "gateway/examples/blue-green-deployments.mdx:48-54"],
  [
    "sse-find-replace",
    {
      replacements: [
        { field: "retry", from: "\\d+", to: "5000" },
        { field: "${vars.f}", from: "x" },
      ],
    },
    [],
    "sse-find-replace.mdx:238-248, :90",
    SSE_PHASE,
  ],
  [
    "terminate-tls",
    {
      min_version: "1.3",
      max_version: "1.3",
      server_private_key: "-----BEGIN PRIVATE KEY-----",
      server_certificate: PEM,
      mutual_tls_certificate_authorities: [PEM, "ca_abc"],
      mutual_tls_verification_strategy: "require-any",
    },
    [],
    "terminate-tls.mdx:24-52",
    "on_tcp_connect",
  ],
  [
    "terminate-tls",
    { mutual_tls_certificate_authorities: PEM },
    [],
    "snippets/examples/agent-cli/tls-mtls-at-edge.mdx:9-13",
    "on_tcp_connect",
  ],
  ["url-rewrite", { from: "/products/?([.*]+)?", to: "/products.php?query=$1" }, [], "url-rewrite.mdx:142-151"],
  ["url-rewrite", { from: "${req.url.authority}/products/?([.*]+)?", to: "/p" }, [], "url-rewrite.mdx:216"],
  ["verify-webhook", { provider: "gitlab", secret: "secret!", enforce: false }, [], "verify-webhook.mdx:165-171"],
];

const INVALID: Row[] = [
  [
    "http-request",
    { url: "https://a.internal", retry_condition: "attempts" },
    ["retry_condition: column 1: an expression must be a bool (this one is int)"],
    "http-request.mdx:80-84: a condition; attempts is an int",
  ],
  [
    "rate-limit",
    { ...RATE, bucket_key: ["req.headrs['x']"] },
    ["bucket_key[0]: column 1: unknown name req.headrs; did you mean req.headers?"],
    "rate-limit.mdx:62: each bucket key is a CEL expression",
  ],
  [
    "jwt-validation",
    { ...JWT, audience: { allow_list: [], extra: 1 } },
    ["audience.allow_list: at least 1 entries (got 0)", "audience.extra: unknown field"],
    "jwt-validation.mdx:60 minimum 1",
  ],
  ["add-headers", { headers: headers(11) }, ["headers: at most 10 headers (got 11)"], "add-headers.mdx:32"],
  [
    "add-headers",
    { headers: { "User-Agent": "x" } },
    ["headers: must not name the user-agent header"],
    "add-headers.mdx:61",
  ],
  [
    "add-headers",
    { headers: { "x y": "1", "x:z": "2" } },
    ['headers["x y"]: not a header name', 'headers["x:z"]: not a header name'],
    "RFC 9110 §5.1",
  ],
  [
    "add-headers",
    { headers: { x: "a\r\nb" } },
    ["headers.x: a header value must not contain CR, LF or NUL"],
    "RFC 9110 §5.5",
  ],
  [
    "remove-headers",
    { headers: ["user-agent", "bad name"] },
    ["headers[1]: not a header name", "headers: must not name the user-agent"],
    "remove-headers.mdx:62",
  ],
  ["remove-headers", { headers: [] }, ["headers: at least 1 headers (got 0)"], "remove-headers.mdx:35"],
  [
    "basic-auth",
    { credentials: Array.from({ length: 11 }, (_, i) => `u${i}:password`) },
    ["credentials: at most 10 credentials (got 11)"],
    "basic-auth.mdx:29",
  ],
  [
    "basic-auth",
    { credentials: ["nocolon", "u:short", `u:${"p".repeat(129)}`] },
    [
      "credentials[0]: must be username:password",
      "credentials[1]: the password must be 8 to 128 characters (got 5)",
      "credentials[2]: the password must be 8 to 128 characters (got 129)",
    ],
    "basic-auth.mdx:29-30, :54-55",
  ],
  [
    "basic-auth",
    { credentials: ["${vars.u}password", "user-prefix${vars.u}password-suffix"] },
    ["credentials[0]: a credential with ${…} must still write the :", "credentials[1]: a credential with ${…}"],
    "basic-auth.mdx:86-89",
  ],
  [
    "basic-auth",
    { credentials: [{ username: "u", password: "short" }] },
    ["credentials[0].password: the password must be 8 to 128"],
    "basic-auth.mdx:30",
  ],
  ["basic-auth", { credentials: ["u:password1"], realm: "ünï" }, ["realm: must be ASCII"], "basic-auth.mdx:57"],
  ["basic-auth", {}, ["credentials: is required"], "basic-auth.mdx:28 required"],
  [
    "circuit-breaker",
    { error_threshold: 1.5, enforce: "yes" },
    ["error_threshold: must be a fraction from 0 to 1", "enforce: must be true or false"],
    "circuit-breaker.mdx:35, :64",
  ],
  ["close-connection", { status_code: 400 }, ["status_code: unknown field"], "close-connection.mdx:31"],
  [
    "compress-response",
    { algorithms: ["gzip", "gzip"] },
    ["algorithms: each algorithm at most once"],
    "compress-response.mdx:31",
  ],
  [
    "custom-response",
    { status_code: 200, headers: { "bad header": "x" }, html: "<p>" },
    ['headers["bad header"]: not a header name', "html: unknown field"],
    "custom-response.mdx:29-41",
  ],
  ["deny", { status_code: 403 }, ["status_code: unknown field"], "deny.mdx:32", "on_tcp_connect"],
  [
    "forward-internal",
    { url: "https://api.example.com" },
    ["url: an internal URL's host must end in .internal"],
    "forward-internal.mdx:73",
  ],
  [
    "forward-internal",
    { url: "https://a.internal", binding: "public" },
    ['binding: must be "internal"'],
    "forward-internal/config.mdx@79b67ba3e:15",
  ],
  [
    "forward-internal",
    { url: "https://a.internal", on_error: "retry" },
    ["on_error: must be one of"],
    "forward-internal.mdx:39-42",
  ],
  [
    "http-request",
    { url: "https://x.internal", method: "FETCH" },
    ["method: must be one of"],
    "http-request.mdx:44-49, :105",
  ],
  [
    "http-request",
    { url: "x.internal/ping", headers: headers(11) },
    ["url: must be an http:// or https:// URL", "headers: at most 10 headers (got 11)"],
    "http-request.mdx:37, :65",
  ],
  [
    "http-request",
    {
      url: "https://x.internal",
      query_params: [{ key: "k".repeat(129), value: "v" }],
      max_redirects: 101,
      timeout: "31s",
    },
    [
      "query_params[0].key: must be at most 128 characters",
      "max_redirects: must be a whole number from 0 to 100",
      "timeout: must be from 1s to 30s",
    ],
    "http-request.mdx:60, :73, :78",
  ],
  [
    "http-request",
    { url: "https://x.internal", query_params: Array.from({ length: 33 }, () => ({ key: "k", value: "v" })) },
    ["query_params: at most 32 query parameters (got 33)"],
    "http-request.mdx:60",
  ],
  ["http-request", {}, ["url: is required"], "http-request.mdx:37 required"],
  [
    "jwt-validation",
    { ...JWT, jws: { ...JWT.jws, allowed_algorithms: ["none"] } },
    ["jws.allowed_algorithms[0]: none is not allowed"],
    "jwt-validation.mdx:124",
  ],
  [
    "jwt-validation",
    { ...JWT, http: { tokens: [{ type: "saml", method: "query", name: "t" }] } },
    ["http.tokens[0].type: must be one of", "http.tokens[0].method: must be one of"],
    "jwt-validation.mdx:83-98, :104",
  ],
  [
    "jwt-validation",
    { http: JWT.http, jws: { allowed_algorithms: [], keys: { sources: { additional_jkus: ["ftp://x"] } } } },
    [
      "issuer: is required",
      "jws.allowed_algorithms: at least 1 algorithms (got 0)",
      "jws.keys.sources.additional_jkus[0]: must be an http:// or https:// URL",
    ],
    "jwt-validation.mdx:39, :124, :146",
  ],
  [
    "jwt-validation",
    { ...JWT, jws: { ...JWT.jws, keys: { identification: [{ token_claims: ["sub"] }], sources: {} } } },
    ['jws.keys.identification[0].token_claims[0]: must be "kid"', "jws.keys.sources.additional_jkus: is required"],
    "jwt-validation.mdx:136, :145",
  ],
  ["log", {}, ["metadata: is required"], "log.mdx:32 required", "on_http_response"],
  ["log", { metadata: "x" }, ["metadata: must be an object"], "log.mdx:32 map[string]any"],
  ["oauth", { provider: "amazon" }, ["client_id: ngrok has no managed application for amazon"], "oauth.mdx:148, :223"],
  [
    "oauth",
    { provider: "github", scopes: ["repo"] },
    ["scopes: custom scopes need your own OAuth application"],
    "oauth.mdx:224",
  ],
  ["oauth", { provider: "okta", client_id: "i" }, ["provider: must be one of"], "oauth.mdx:146-155"],
  [
    "oauth",
    { provider: "google", idle_session_timeout: "15 minutes" },
    ["idle_session_timeout: must be a Go duration"],
    "oauth.mdx:76 duration",
  ],
  ["openid-connect", { issuer_url: "" }, ["issuer_url: must not be empty"], "oidc.mdx:30 required"],
  ["owasp-crs-request", {}, ["on_error: is required"], "owasp-crs-request.mdx:52 required"],
  [
    "owasp-crs-request",
    { on_error: "halt", exclude_rule_ids: [899999, 1_000_000] },
    [
      "exclude_rule_ids[0]: must be a whole number from 900000 to 999999",
      "exclude_rule_ids[1]: must be a whole number from 900000",
    ],
    "owasp-crs-request.mdx:64",
  ],
  [
    "owasp-crs-response",
    { on_error: "stop", process_body: "yes" },
    ["on_error: must be one of", "process_body: must be true or false"],
    "owasp-crs-response.mdx:52, :56",
  ],
  [
    "rate-limit",
    { algorithm: "sliding_window", capacity: 0, rate: "60s", bucket_key: ["req.host"] },
    ["name: is required", "capacity: must be a whole number from 1 to 2000000000"],
    "rate-limit.mdx:34, :52",
  ],
  [
    "rate-limit",
    { ...RATE, algorithm: "token_bucket", rate: "30s" },
    ['algorithm: must be "sliding_window"', "rate: must be from 60s to 24h"],
    "rate-limit.mdx:46, :57",
  ],
  [
    "rate-limit",
    { ...RATE, name: "n".repeat(1024), rate: "95s", bucket_key: Array.from({ length: 11 }, () => "req.host") },
    [
      "name: must be less than 1024 characters",
      "rate: must be a multiple of ten seconds",
      "bucket_key: at most 10 bucket keys (got 11)",
    ],
    "rate-limit.mdx:35, :56, :68",
  ],
  [
    "redirect",
    { to: "/x", status_code: 200 },
    ["status_code: must be a whole number from 300 to 399"],
    "redirect.mdx:42",
  ],
  [
    "redirect",
    { from: "a(b", location: "/x" },
    ["from: not an RE2 regular expression: missing closing )", "to: is required", "location: unknown field"],
    "redirect.mdx:33-39",
  ],
  ["redirect", { to: "/x", headers: headers(11) }, ["headers: at most 10 headers (got 11)"], "redirect.mdx:47"],
  [
    "request-body-find-replace",
    { replacements: [] },
    ["replacements: at least 1 replacements (got 0)"],
    "request-body-find-replace.mdx:33",
  ],
  [
    "response-body-find-replace",
    { replacements: [{ from: "(?=x)", to: 1 }] },
    [
      "replacements[0].from: not an RE2 regular expression: invalid or unsupported Perl syntax",
      "replacements[0].to: must be a string",
    ],
    "response-body-find-replace.mdx:36 RE2",
  ],
  [
    "sse-find-replace",
    { replacements: [{ field: "event", from: "x" }] },
    ['replacements[0].field: must be one of "data", "retry"'],
    "sse-find-replace.mdx:36",
    SSE_PHASE,
  ],
  [
    "restrict-ips",
    { allow: ["1.2.3.4"], enforce: "true" },
    ["enforce: must be true or false", "allow[0]: must be a CIDR"],
    "restrict-ips.mdx:41, :46",
  ],
  ["restrict-ips", { enforce: true }, ["give at least one of allow, deny or ip_policies"], "restrict-ips.mdx:73-77"],
  ["set-vars", { vars: [{ a: 1, b: 2 }] }, ["vars[0]: each item sets exactly one variable (got 2)"], "set-vars.mdx:35"],
  ["set-vars", { allowed: ["a"] }, ["vars: is required", "allowed: unknown field"], "set-vars.mdx:31 required"],
  [
    "terminate-tls",
    { min_version: "1.1" },
    ['min_version: must be one of "1.2", "1.3"'],
    "terminate-tls.mdx:25",
    "on_tcp_connect",
  ],
  [
    "terminate-tls",
    { server_certificate: PEM },
    ["server_private_key: server_private_key and server_certificate go together"],
    "terminate-tls.mdx:37 must be specified with server_private_key",
    "on_tcp_connect",
  ],
  [
    "terminate-tls",
    { mutual_tls_certificate_authorities: ["CACert"] },
    ["mutual_tls_certificate_authorities[0]: must be a PEM certificate"],
    "terminate-tls.mdx:41",
    "on_tcp_connect",
  ],
  [
    "url-rewrite",
    { from: "(a)\\1", to: "x" },
    ["from: not an RE2 regular expression: invalid escape sequence"],
    "url-rewrite.mdx:34 (RE2: no backreferences)",
  ],
  ["url-rewrite", { from: "/a" }, ["to: is required"], "url-rewrite.mdx:38 required"],
  [
    "verify-webhook",
    { provider: "GitHub", secret: "" },
    ["provider: must be a supported provider", "secret: must not be empty"],
    "verify-webhook.mdx:31-39",
  ],
];

describe("configs each action's reference takes", () => {
  test.each(VALID)("%s %j (%s)", (type, config, expected, _doc, phase, protocol) => {
    expect(problemsOf(type, config, phase, protocol)).toEqual(expected);
  });
});

describe("configs each action's reference refuses, every problem at its place", () => {
  test.each(INVALID)("%s %j (%s)", (type, config, expected, _doc, phase, protocol) => {
    expect(problemsOf(type, config, phase, protocol)).toEqual(expected.map((e) => expect.stringContaining(e)));
  });
});

test("every action of the reference has rows of both tables", () => {
  const types = Object.keys(ACTIONS).sort();
  expect(types).toHaveLength(26); // snippets/ActionHub.jsx lists these 26 (saml and ai-gateway have no reference)
  expect([...new Set(VALID.map((r) => r[0]))].sort()).toEqual(types);
  expect([...new Set(INVALID.map((r) => r[0]))].sort()).toEqual(types);
});

describe("data for the CEL checker and the warnings", () => {
  test("templates: each string of a CEL-capable field, at its place", () => {
    expect(
      templatesOf("http-request", {
        url: "u",
        headers: { a: "1" },
        query_params: [{ key: "k", value: "v" }],
        body: "b",
        method: "GET",
      }),
    ).toEqual([
      { path: ["url"], text: "u" },
      { path: ["headers", "a"], text: "1" },
      { path: ["query_params", 0, "value"], text: "v" },
      { path: ["body"], text: "b" },
    ]);
    expect(templatesOf("log", { metadata: { a: "x", b: { c: ["y"] }, n: 1 } })).toEqual([
      { path: ["metadata", "a"], text: "x" },
      { path: ["metadata", "b", "c", 0], text: "y" },
    ]);
    // jwt-validation's keys and sources as single objects (its examples) or lists (its table).
    expect(templatesOf("jwt-validation", JWT).map((t) => t.path.join("."))).toEqual([
      "issuer.allow_list.0.value",
      "http.tokens.0.name",
      "http.tokens.0.prefix",
      "jws.keys.sources.additional_jkus.0",
    ]);
    expect(templatesOf("deny", { status_code: 403 })).toEqual([]);
    expect(templatesOf("no-such-action", { url: "x" })).toEqual([]);
  });

  test("expressions: rate-limit bucket_key (rate-limit.mdx:62), http-request retry_condition (http-request.mdx:81)", () => {
    expect(expressionsOf("rate-limit", RATE)).toEqual([{ path: ["bucket_key", 0], text: "conn.client_ip" }]);
    expect(expressionsOf("http-request", { url: "u", retry_condition: "attempts < 2" })).toEqual([
      { path: ["retry_condition"], text: "attempts < 2" },
    ]);
  });

  test("deprecated fields: custom-response content, forward-internal binding, each with its warning", () => {
    expect(deprecatedIn("custom-response", { content: "x", status_code: 200 })).toEqual([
      { path: ["content"], message: expect.stringContaining("deprecated: use body") },
    ]);
    expect(deprecatedIn("forward-internal", { url: "https://a.internal", binding: "internal" })).toEqual([
      { path: ["binding"], message: expect.stringContaining("deprecated") },
    ]);
    expect(deprecatedIn("custom-response", { body: "x" })).toEqual([]);
    expect(deprecatedIn("openid-connect", { issuer_url: "i", idle_session_timeout: "1h" })).toEqual([
      { path: ["idle_session_timeout"], message: expect.stringContaining("idle_session_duration") },
    ]);
  });

  test("authentication actions: the four methods of add-authentication.mdx:19-22 that are actions (ERR_NGROK_2239)", () => {
    // How two of them are worded (one rule: a problem; two rules: a warning) is test/policy/validator.test.ts's.
    expect(
      Object.keys(ACTIONS)
        .filter((t) => ACTIONS[t]!.authentication)
        .sort(),
    ).toEqual(["basic-auth", "jwt-validation", "oauth", "openid-connect"]);
  });
});

test("retry_condition's names (attempts, last_attempt.*) are set only there (http-request.mdx:80-87)", () => {
  const document = {
    on_http_request: [{ expressions: ["attempts > 1"], actions: [{ type: "deny" }] }],
  };
  expect(checkPolicy(document, { protocol: "https", internal: false, kind: "agent" }).map((p) => p.message)).toEqual([
    expect.stringContaining("attempts is set only in an http-request retry_condition"),
  ]);
});

describe("properties", () => {
  const TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  test("a header name is refused exactly when it is not an RFC 9110 token", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 12 }), (name) => {
        const token = name.length > 0 && [...name].every((c) => TCHAR.includes(c));
        expect(headerNameProblem(name) === undefined).toBe(token);
      }),
      { numRuns: 200 },
    );
  });

  test("a literal credential passes exactly when its password is 8 to 128 characters (basic-auth.mdx:30)", () => {
    const part = fc.string({ unit: fc.constantFrom(..."ab:$9"), maxLength: 140 }).filter((s) => !s.includes("${"));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."uv1"), maxLength: 5 }), part, (user, password) => {
        const ok = password.length >= 8 && password.length <= 128;
        expect(problemsOf("basic-auth", { credentials: [`${user}:${password}`] })).toHaveLength(ok ? 0 : 1);
      }),
      { numRuns: 60 },
    );
  });

  test("any value holding ${ skips the literal checks of a CEL-capable field", () => {
    // Literal text of any kind around one interpolation that is valid CEL (its CEL is cel.test.ts's).
    const cel = fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("req.host", "conn.client_ip", "endpoint.id"))
      .filter(([s]) => !s.includes("$") && !s.includes("}"))
      .map(([s, name]) => `x${s}${"${"}${name}}`);
    fc.assert(
      fc.property(cel, (text) => {
        expect(problemsOf("forward-internal", { url: text })).toEqual([]);
        expect(problemsOf("url-rewrite", { from: `(${text}`, to: text })).toEqual([]);
        expect(problemsOf("restrict-ips", { allow: [text] })).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  test("a quoted literal is always RE2; an unclosed group never is", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }).filter((s) => !s.includes("${")),
        (s) => {
          const quoted = s.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
          expect(problemsOf("url-rewrite", { from: quoted, to: "/" })).toEqual([]);
          expect(problemsOf("url-rewrite", { from: `(${quoted}`, to: "/" })).toHaveLength(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});

// RE2 is bundled with the CEL checker (dist/cel.cjs), loaded by loadCel for a policy whose
// action has a pattern to check (ActionSpec.regex): in a fresh copy of the validator, nothing
// else loads it. The five actions whose pattern is RE2: url-rewrite.mdx:33-36 and
// redirect.mdx:33-35 (`from`), request-body-find-replace.mdx:36, response-body-find-replace.mdx:36
// and sse-find-replace.mdx:41-44 ("Supports RE2 syntax").
describe("RE2, loaded for the actions whose patterns it checks", () => {
  const REGEX: [type: string, config: unknown, phase: ActionPhase][] = [
    ["url-rewrite", { from: "(?=x)", to: "/" }, "on_http_request"],
    ["redirect", { from: "(?=x)", to: "/" }, "on_http_request"],
    ["request-body-find-replace", { replacements: [{ from: "(?=x)" }] }, "on_http_request"],
    ["response-body-find-replace", { replacements: [{ from: "(?=x)" }] }, "on_http_response"],
    ["sse-find-replace", { replacements: [{ from: "(?=x)" }] }, SSE_PHASE],
  ];
  const policy = ([type, config, phase]: (typeof REGEX)[number]) => ({ [phase]: [{ actions: [{ type, config }] }] });
  const agent = { protocol: "https", internal: false, kind: "agent" } as const;
  const fresh = async () => {
    vi.resetModules();
    return import("../../src/policy/index.js");
  };

  test("the actions marked regex are those five", () => {
    expect(
      Object.keys(ACTIONS)
        .filter((t) => ACTIONS[t]!.regex)
        .sort(),
    ).toEqual(REGEX.map((r) => r[0]).sort());
  });

  test.each(REGEX)("%s: its pattern is checked once loadCel has seen the policy", async (...row) => {
    const v = await fresh();
    await v.loadCel(policy(row));
    expect(v.checkPolicy(policy(row), agent).map((p) => p.message)).toEqual([
      "not an RE2 regular expression: invalid or unsupported Perl syntax: `(?=`",
    ]);
  });

  test("a policy without CEL or a pattern loads none, and a pattern checked without it is a bug, never passed", async () => {
    const v = await fresh();
    await v.loadCel({ on_http_request: [{ actions: [{ type: "deny" }] }] });
    expect(() => v.checkPolicy(policy(REGEX[0]!), agent)).toThrow("RE2 is not loaded");
  });
});

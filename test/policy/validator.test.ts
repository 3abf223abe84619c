// The validator as a table: documents, the endpoint they are checked for, and every problem
// expected (`code path: message`, the message as a fragment).
import { beforeAll, describe, expect, test } from "vitest";
import { checkEndpointUrl, checkPolicy, loadCel, type Protocol, type Target } from "../../src/policy/index.js";
import { parseDuration } from "../../src/policy/index.js";
import { parsePolicyText } from "../../src/policy/parse.js";

const PUBLIC: Target = { protocol: "https", internal: false };
const INTERNAL: Target = { protocol: "https", internal: true };
const AGENT: Target = { protocol: "https", internal: false, kind: "agent" };
const on = (protocol: Protocol, internal = false): Target => ({ protocol, internal });

const end = { actions: [{ type: "deny" }] };
/** An HTTP policy whose request phase ends as a public endpoint's must. */
const req = (...rules: unknown[]) => ({ on_http_request: [...rules, end] });
const act = (type: string, config?: unknown) => ({ actions: [config === undefined ? { type } : { type, config }] });
const headers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, "v"]));

type Row = [name: string, document: unknown, target: Target, expected: string[]];

const VALID: Row[] = [
  ["a deny-all public endpoint", req(), PUBLIC, []],
  [
    "forward-internal ends the phase",
    { on_http_request: [act("forward-internal", { url: "https://api.internal" })] },
    PUBLIC,
    [],
  ],
  [
    "forward-internal with on_error: continue, then a fallback",
    {
      on_http_request: [
        { actions: [{ type: "forward-internal", config: { url: "http://a.b.internal:8080", on_error: "continue" } }] },
        act("custom-response", { status_code: 503, body: "down", headers: { "content-type": "text/plain" } }),
      ],
    },
    PUBLIC,
    [],
  ],
  [
    "all three phases on https",
    {
      on_tcp_connect: [act("restrict-ips", { allow: ["10.0.0.0/8"] })],
      ...req(),
      on_http_response: [act("compress-response")],
    },
    PUBLIC,
    [],
  ],
  [
    "a tcp endpoint ends in on_tcp_connect",
    { on_tcp_connect: [act("forward-internal", { url: "tcp://db.internal:5432" })] },
    on("tcp"),
    [],
  ],
  [
    "a tls endpoint terminates TLS first",
    {
      on_tcp_connect: [
        {
          actions: [
            { type: "terminate-tls", config: { min_version: "1.3" } },
            { type: "forward-internal", config: { url: "tls://svc.internal:443" } },
          ],
        },
      ],
    },
    on("tls"),
    [],
  ],
  // The contract, "Endpoint kinds": an agent endpoint forwards what its policy lets through.
  [
    "an agent endpoint need not end in a terminating action",
    { on_http_request: [act("add-headers", { headers: { "x-a": "1" } })] },
    AGENT,
    [],
  ],
  ["an empty document for an agent endpoint", {}, AGENT, []],
  ["a null phase (YAML `on_http_response:`) is empty", { ...req(), on_http_response: null }, PUBLIC, []],
  [
    "verify-webhook for sns with a secret",
    req(act("verify-webhook", { provider: "sns", secret: "s", enforce: true })),
    PUBLIC,
    [],
  ],
  [
    "restrict-ips with IPv6 and policies",
    req(
      act("restrict-ips", { enforce: false, deny: ["2001:db8::/32", "::ffff:1.2.3.4/128"], ip_policies: ["ipp_1abc"] }),
    ),
    PUBLIC,
    [],
  ],
  [
    "circuit-breaker at the limits",
    req(
      act("circuit-breaker", {
        error_threshold: 1,
        volume_threshold: 2_000_000_000,
        window_duration: "1s",
        tripped_duration: "2m",
        num_buckets: 10,
      }),
    ),
    PUBLIC,
    [],
  ],
  [
    "circuit-breaker with 1m30s",
    req(act("circuit-breaker", { error_threshold: 0.5, window_duration: "1m30s", tripped_duration: "1500ms" })),
    PUBLIC,
    [],
  ],
  [
    "oauth with every field",
    req(
      act("oauth", {
        provider: "google",
        client_id: "a",
        client_secret: "b",
        scopes: ["email"],
        allow_cors_preflight: true,
        idle_session_timeout: "1h30m",
        max_session_duration: "24h",
        userinfo_refresh_interval: "15m",
        auth_id: "x",
        authz_url_params: { prompt: "consent" },
      }),
    ),
    PUBLIC,
    [],
  ],
  [
    "openid-connect",
    req(act("openid-connect", { issuer_url: "https://id.example.com", idle_session_duration: "30m" })),
    PUBLIC,
    [],
  ],
  ["set-vars, one key an item", req(act("set-vars", { vars: [{ a: 1 }, { b: { c: [1] } }] })), PUBLIC, []],
  [
    "add-headers with 10 names and remove-headers with 10",
    req(act("add-headers", { headers: headers(10) }), act("remove-headers", { headers: Object.keys(headers(10)) })),
    PUBLIC,
    [],
  ],
  [
    "the actions once passed through, each with a config its reference takes",
    req(
      act("rate-limit", {
        name: "r",
        algorithm: "sliding_window",
        capacity: 10,
        rate: "60s",
        bucket_key: ["conn.client_ip"],
      }),
      act("url-rewrite", { to: "/x" }),
      act("jwt-validation", {
        issuer: { allow_list: [{ value: "https://id.example.com" }] },
        http: { tokens: [{ type: "jwt", method: "header", name: "Authorization" }] },
        jws: { allowed_algorithms: ["RS256"], keys: { sources: { additional_jkus: ["https://id.example.com/jwks"] } } },
      }),
      act("basic-auth", { credentials: ["a:b12345678"] }),
      act("log", { metadata: {} }),
    ),
    PUBLIC,
    [],
  ],
  [
    "http-request in the response phase",
    { ...req(), on_http_response: [act("http-request", { url: "https://x.internal" })] },
    PUBLIC,
    [],
  ],
  [
    "expressions with quotes, escapes and brackets",
    req({
      expressions: [
        `req.url.path == "/a(\\"b"`,
        "req.headers['x'].exists(v, v.matches('[a-z]+'))",
        `r"\\d+" != '''a'b'''`,
      ],
      actions: [{ type: "log", config: { metadata: {} } }],
    }),
    PUBLIC,
    [],
  ],
  ["deny with a status code", { on_http_request: [act("deny", { status_code: 404 })] }, PUBLIC, []],
  ["close-connection ends the phase", { on_http_request: [act("close-connection")] }, on("http"), []],
  [
    "custom-response in the response phase",
    { ...req(), on_http_response: [act("custom-response", { status_code: 500 })] },
    PUBLIC,
    [],
  ],
  [
    "terminate-tls with mTLS",
    {
      on_tcp_connect: [
        act("terminate-tls", {
          mutual_tls_certificate_authorities: ["ca_1"],
          mutual_tls_verification_strategy: "require-any",
          max_version: "1.2",
        }),
      ],
      ...req(),
    },
    PUBLIC,
    [],
  ],
  ["an internal tcp endpoint", { on_tcp_connect: [act("set-vars", { vars: [{ a: 1 }] }), end] }, on("tcp", true), []],
];

const INVALID: Row[] = [
  ["not an object", ["on_http_request"], PUBLIC, ["2201 : a Traffic Policy must be an object"]],
  ["a scalar", "deny", PUBLIC, ["2201 : a Traffic Policy must be an object"]],
  ["an unknown phase", { on_request: [], ...req() }, PUBLIC, ["2201 on_request: unknown phase"]],
  [
    "a phase that is not a list",
    { on_http_request: { actions: [] } },
    PUBLIC,
    ["2201 on_http_request: must be a list of rules", "2235 on_http_request: not guaranteed to handle traffic"],
  ],
  [
    "HTTP phases on a tcp endpoint",
    { on_http_request: [end], on_http_response: [], on_tcp_connect: [end] },
    on("tcp"),
    [
      "2230 on_http_request: a public tcp endpoint takes no on_http_request phase",
      "2230 on_http_response: a public tcp endpoint takes no on_http_response",
    ],
  ],
  [
    "on_http_request on a tls endpoint",
    { on_http_request: [end], on_tcp_connect: [end] },
    on("tls"),
    ["2230 on_http_request:"],
  ],
  [
    "on_tcp_connect on an internal https endpoint",
    { on_tcp_connect: [end] },
    INTERNAL,
    [
      "2230 on_tcp_connect: an internal https endpoint takes no on_tcp_connect phase",
      "2235 on_http_request: not guaranteed to handle traffic: an internal https endpoint's on_http_request",
    ],
  ],
  [
    "on_tcp_connect on an internal http endpoint",
    { on_tcp_connect: [], ...req() },
    on("http", true),
    ["2230 on_tcp_connect:"],
  ],
  [
    "a rule that is not an object",
    { on_http_request: ["deny", end] },
    PUBLIC,
    ["2201 on_http_request[0]: a rule must be an object"],
  ],
  [
    "a rule's unknown field",
    req({ ...end, expression: ["true"] }),
    PUBLIC,
    ["2201 on_http_request[0].expression: unknown field of a rule"],
  ],
  ["a rule without actions", req({ name: "x" }), PUBLIC, ["2201 on_http_request[0].actions: must be a non-empty list"]],
  ["empty actions", req({ actions: [] }), PUBLIC, ["2201 on_http_request[0].actions: must be a non-empty list"]],
  ["a name that is not a string", req({ ...end, name: 3 }), PUBLIC, ["2201 on_http_request[0].name: must be a string"]],
  [
    "expressions not a list",
    req({ ...end, expressions: "true" }),
    PUBLIC,
    ["2201 on_http_request[0].expressions: must be a list"],
  ],
  [
    "an expression that is not a string",
    req({ ...end, expressions: [true] }),
    PUBLIC,
    ["2201 on_http_request[0].expressions[0]: must be a string"],
  ],
  [
    "an unbalanced bracket",
    req({ ...end, expressions: ["req.url.path.startsWith('/a'"] }),
    PUBLIC,
    ["2200 on_http_request[0].expressions[0]: column 24: syntax error: unbalanced bracket: this ( is never closed"],
  ],
  [
    "a stray closing bracket",
    req({ ...end, expressions: ["a)"] }),
    PUBLIC,
    ["2200 on_http_request[0].expressions[0]: column 2: syntax error: unbalanced bracket: this ) closes nothing open"],
  ],
  [
    "an unbalanced quote",
    req({ ...end, expressions: [`req.host == "a`] }),
    PUBLIC,
    ["2200 on_http_request[0].expressions[0]: column 13: syntax error: unbalanced quote"],
  ],
  [
    "an escaped quote does not close",
    req({ ...end, expressions: [`"a\\"`] }),
    PUBLIC,
    ["2200 on_http_request[0].expressions[0]: column 1: syntax error: unbalanced quote"],
  ],
  [
    "an action that is not an object",
    req({ actions: ["deny"] }),
    PUBLIC,
    ["2201 on_http_request[0].actions[0]: an action must be an object"],
  ],
  [
    "an action without a type",
    req({ actions: [{ config: {} }] }),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].type: is required"],
  ],
  [
    "an action's unknown field",
    req({ actions: [{ type: "log", config: { metadata: {} }, enabled: true }] }),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].enabled: unknown field of an action"],
  ],
  [
    "an unknown action type",
    req(act("oidc", {})),
    PUBLIC,
    ['2201 on_http_request[0].actions[0].type: unknown action type "oidc"; did you mean openid-connect?'],
  ],
  [
    "a config that is not an object",
    req(act("add-headers", ["x"])),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config: must be an object"],
  ],
  [
    "verify-webhook in the response phase",
    { ...req(), on_http_response: [act("verify-webhook", { provider: "github", secret: "s" })] },
    PUBLIC,
    ["2202 on_http_response[0].actions[0].type: verify-webhook is not allowed in on_http_response"],
  ],
  [
    "compress-response in the request phase",
    req(act("compress-response")),
    PUBLIC,
    ["2202 on_http_request[0].actions[0].type: compress-response is not allowed in on_http_request"],
  ],
  [
    "terminate-tls in the request phase",
    req(act("terminate-tls")),
    PUBLIC,
    ["2202 on_http_request[0].actions[0].type:"],
  ],
  [
    "terminate-tls on a tcp endpoint",
    { on_tcp_connect: [{ actions: [{ type: "terminate-tls" }, { type: "deny" }] }] },
    on("tcp"),
    ["2202 on_tcp_connect[0].actions[0].type: terminate-tls is not allowed on a tcp endpoint"],
  ],
  [
    "custom-response in on_tcp_connect",
    { on_tcp_connect: [act("custom-response")] },
    on("tcp"),
    ["2202 on_tcp_connect[0].actions[0].type:"],
  ],
  [
    "url-rewrite in the response phase",
    { ...req(), on_http_response: [act("url-rewrite", { to: "/" })] },
    PUBLIC,
    ["2202 on_http_response[0].actions[0].type:"],
  ],
  [
    "an action after deny",
    { on_http_request: [{ actions: [{ type: "deny" }, { type: "log", config: { metadata: {} } }, { type: "deny" }] }] },
    PUBLIC,
    [
      "2207 on_http_request[0].actions[1]: unreachable: the deny (actions[0]) action before it ends the phase",
      "2207 on_http_request[0].actions[2]: unreachable",
    ],
  ],
  [
    "an action after forward-internal",
    req({
      actions: [
        { type: "forward-internal", config: { url: "https://a.internal" } },
        { type: "add-headers", config: { headers: { a: "b" } } },
      ],
    }),
    PUBLIC,
    ["2207 on_http_request[0].actions[1]: unreachable"],
  ],
  [
    "no action after forward-internal with on_error: continue is unreachable",
    req({
      actions: [
        { type: "forward-internal", config: { url: "https://a.internal", on_error: "continue" } },
        { type: "deny" },
      ],
    }),
    PUBLIC,
    [],
  ],
  [
    "a public endpoint without on_http_request",
    { on_http_response: [] },
    PUBLIC,
    [
      "2235 on_http_request: not guaranteed to handle traffic: a public https endpoint's on_http_request must end in a terminating action",
    ],
  ],
  ["an empty public document", {}, on("http"), ["2235 on_http_request:"]],
  ["a public tcp endpoint with nothing in on_tcp_connect", { on_tcp_connect: [] }, on("tcp"), ["2235 on_tcp_connect:"]],
  [
    "a last action that does not end the phase",
    { on_http_request: [act("redirect", { to: "https://x" })] },
    PUBLIC,
    ["2235 on_http_request[0].actions[0]: not guaranteed to handle traffic: redirect does not end the phase"],
  ],
  [
    "a tcp endpoint's last action that does not end on_tcp_connect: the actions that can end it named",
    { on_tcp_connect: [act("restrict-ips", { allow: ["10.0.0.0/8"] })] },
    on("tcp"),
    [
      "2235 on_tcp_connect[0].actions[0]: not guaranteed to handle traffic: restrict-ips does not end the phase; a public endpoint's on_tcp_connect must end in forward-internal, deny or close-connection",
    ],
  ],
  [
    "forward-internal with on_error: continue last",
    { on_http_request: [act("forward-internal", { url: "https://a.internal", on_error: "continue" })] },
    PUBLIC,
    ["2235 on_http_request[0].actions[0]: not guaranteed to handle traffic: forward-internal with on_error: continue"],
  ],
  [
    "verify-webhook: unknown provider, no secret",
    req(act("verify-webhook", { provider: "GitHub" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.provider: must be a supported provider",
      "2201 on_http_request[0].actions[0].config.secret: is required",
    ],
  ],
  [
    "verify-webhook: sns without a secret",
    req(act("verify-webhook", { provider: "sns" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.secret: is required"],
  ],
  [
    "verify-webhook: enforce not a boolean",
    req(act("verify-webhook", { provider: "github", secret: "s", enforce: "yes" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.enforce: must be true or false (got a string)"],
  ],
  [
    "forward-internal without a config",
    { on_http_request: [act("forward-internal")] },
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: is required"],
  ],
  [
    "forward-internal to a public URL",
    req(act("forward-internal", { url: "https://example.com", on_error: "ignore" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.url: an internal URL's host must end in .internal",
      '2201 on_http_request[0].actions[0].config.on_error: must be one of "halt", "continue"',
    ],
  ],
  [
    "forward-internal to another protocol family",
    req(act("forward-internal", { url: "tcp://a.internal:1" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: an internal URL here must start with https:// or http://"],
  ],
  [
    "forward-internal from tcp to a tcp URL without port",
    { on_tcp_connect: [act("forward-internal", { url: "tcp://a.internal" })] },
    on("tcp"),
    ["2201 on_tcp_connect[0].actions[0].config.url: a tcp internal URL needs a port"],
  ],
  [
    "forward-internal to a URL with a path",
    req(act("forward-internal", { url: "https://a.internal/x" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: not an internal URL: must be only a scheme, host and port"],
  ],
  [
    "forward-internal with 6 labels",
    req(act("forward-internal", { url: "https://a.b.c.d.e.f.internal" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.url: an internal URL's host has at most 5 labels before .internal (got 6)",
    ],
  ],
  [
    "forward-internal with a bad label",
    req(act("forward-internal", { url: "https://-a.internal" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: each label of an internal host"],
  ],
  [
    "forward-internal with upper case",
    req(act("forward-internal", { url: "https://API.internal" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: each label"],
  ],
  [
    "forward-internal with a user",
    req(act("forward-internal", { url: "https://u@a.internal" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: not an internal URL: must not carry a user"],
  ],
  [
    "forward-internal with a line break",
    req(act("forward-internal", { url: "https://a.internal\n" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: not an internal URL: must not contain control characters"],
  ],
  [
    "forward-internal with port 0",
    req(act("forward-internal", { url: "https://a.internal:0" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.url: not an internal URL: the port must be a number from 1 to 65535"],
  ],
  [
    "custom-response: 11 headers",
    req(act("custom-response", { headers: headers(11) })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.headers: at most 10 headers (got 11)"],
  ],
  [
    "custom-response: status 600 and a body that is not text",
    { on_http_request: [act("custom-response", { status_code: 600, body: 1 })] },
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.status_code: must be a whole number from 100 to 599",
      "2201 on_http_request[0].actions[0].config.body: must be a string (got number 1)",
    ],
  ],
  [
    "custom-response: a status as text",
    { on_http_request: [act("custom-response", { status_code: "404" })] },
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.status_code: must be a number (got a string)"],
  ],
  [
    "custom-response: a header name that is not a plain word is quoted",
    { on_http_request: [act("custom-response", { headers: { "x a": 1 } })] },
    PUBLIC,
    ['2201 on_http_request[0].actions[0].config.headers["x a"]: must be a string'],
  ],
  [
    "custom-response: a header value that is not text",
    { on_http_request: [act("custom-response", { headers: { "x-a": true } })] },
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.headers.x-a: must be a string (got boolean true)"],
  ],
  [
    "deny: status 99",
    { on_http_request: [act("deny", { status_code: 99 })] },
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.status_code: must be a whole number from 100 to 599"],
  ],
  [
    "deny: a status code on a TCP connection",
    { on_tcp_connect: [act("deny", { status_code: 403 })] },
    on("tcp"),
    ["2201 on_tcp_connect[0].actions[0].config.status_code: unknown field"],
  ],
  [
    "close-connection takes no config",
    { on_http_request: [act("close-connection", { status_code: 400 })] },
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.status_code: unknown field"],
  ],
  [
    "restrict-ips: no list",
    req(act("restrict-ips", { enforce: true })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config: give at least one of allow, deny or ip_policies"],
  ],
  [
    "restrict-ips: a bare IP, a bad prefix and a bad policy id",
    req(act("restrict-ips", { allow: ["1.2.3.4", "10.0.0.0/33"], ip_policies: ["ip_1"] })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.allow[0]: must be a CIDR",
      "2201 on_http_request[0].actions[0].config.allow[1]: must be a CIDR",
      "2201 on_http_request[0].actions[0].config.ip_policies[0]: must be an IP policy id",
    ],
  ],
  [
    "terminate-tls: version 1.1 and a number",
    { on_tcp_connect: [act("terminate-tls", { min_version: "1.1", max_version: 1.3 })], ...req() },
    PUBLIC,
    [
      '2201 on_tcp_connect[0].actions[0].config.min_version: must be one of "1.2", "1.3"',
      "2201 on_tcp_connect[0].actions[0].config.max_version: must be one of",
    ],
  ],
  [
    "terminate-tls: an unknown strategy",
    { on_tcp_connect: [act("terminate-tls", { mutual_tls_verification_strategy: "none" })], ...req() },
    PUBLIC,
    ["2201 on_tcp_connect[0].actions[0].config.mutual_tls_verification_strategy: must be one of"],
  ],
  [
    "add-headers: none",
    req(act("add-headers", { headers: {} })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.headers: at least 1 headers (got 0)"],
  ],
  [
    "add-headers: 11",
    req(act("add-headers", { headers: headers(11) })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.headers: at most 10 headers (got 11)"],
  ],
  [
    "add-headers: no config",
    req(act("add-headers")),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.headers: is required"],
  ],
  [
    "remove-headers: 11, and not a list",
    req(act("remove-headers", { headers: Object.keys(headers(11)) }), act("remove-headers", { headers: "x" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.headers: at most 10 headers (got 11)",
      "2201 on_http_request[1].actions[0].config.headers: must be a list (got a string)",
    ],
  ],
  [
    "compress-response: an unknown algorithm",
    { ...req(), on_http_response: [act("compress-response", { algorithms: ["gzip", "zstd"] })] },
    PUBLIC,
    ["2201 on_http_response[0].actions[0].config.algorithms[1]: must be one of"],
  ],
  [
    "circuit-breaker: no threshold, out of range",
    req(
      act("circuit-breaker", { volume_threshold: 0, window_duration: "500ms", tripped_duration: "3m", num_buckets: 5 }),
    ),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.error_threshold: is required",
      "2201 on_http_request[0].actions[0].config.volume_threshold: must be a whole number from 1 to 2000000000",
      "2201 on_http_request[0].actions[0].config.window_duration: must be from 1s to 2m",
      "2201 on_http_request[0].actions[0].config.tripped_duration: must be from 1s to 2m",
      "2201 on_http_request[0].actions[0].config.num_buckets: must be 10",
    ],
  ],
  [
    "circuit-breaker: a threshold as a percentage, a duration in seconds as a number",
    req(act("circuit-breaker", { error_threshold: 50, window_duration: 60 })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.error_threshold: must be a fraction from 0 to 1",
      "2201 on_http_request[0].actions[0].config.window_duration: must be from 1s to 2m (a number counts nanoseconds",
    ],
  ],
  [
    "circuit-breaker: not a Go duration",
    req(act("circuit-breaker", { error_threshold: 0.5, window_duration: "1 minute", tripped_duration: "10" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.window_duration: must be a Go duration",
      "2201 on_http_request[0].actions[0].config.tripped_duration: must be a Go duration",
    ],
  ],
  [
    "oauth: no provider, an unknown field, a bad duration",
    req(act("oauth", { inactivity_timeout: 3600, max_session_duration: "1d" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.provider: is required",
      "2201 on_http_request[0].actions[0].config.max_session_duration: must be a Go duration",
      "2201 on_http_request[0].actions[0].config.inactivity_timeout: unknown field",
    ],
  ],
  [
    "oauth: an unknown provider",
    req(act("oauth", { provider: "okta" })),
    PUBLIC,
    ['2201 on_http_request[0].actions[0].config.provider: must be one of "amazon"'],
  ],
  [
    "openid-connect: no issuer",
    req(act("openid-connect", { client_id: "a" })),
    PUBLIC,
    ["2201 on_http_request[0].actions[0].config.issuer_url: is required"],
  ],
  [
    "set-vars: two keys in an item, neither a list nor a map",
    req(act("set-vars", { vars: [{ a: 1, b: 2 }] }), act("set-vars", { vars: "a" })),
    PUBLIC,
    [
      "2201 on_http_request[0].actions[0].config.vars[0]: each item sets exactly one variable (got 2)",
      "2201 on_http_request[1].actions[0].config.vars: must be an object (got a string)",
    ],
  ],
  [
    "problems everywhere, in document order",
    {
      on_http_response: [act("deny")],
      on_http_request: [{ actions: [{ type: "deny" }, { type: "deny" }] }, act("nope")],
    },
    PUBLIC,
    [
      "2202 on_http_response[0].actions[0].type:",
      "2207 on_http_request[0].actions[1]:",
      "2201 on_http_request[1].actions[0].type: unknown action type",
    ],
  ],
];

// The CEL checker, as parsePolicyText loads it for a text with expressions (src/policy/index.ts loadCel).
beforeAll(() => loadCel());

describe("valid documents", () => {
  test.each(VALID)("%s", (_, document, target) => {
    expect(checkPolicy(document, target)).toEqual([]);
  });
});

describe("invalid documents: every problem, with its place and code", () => {
  test.each(INVALID)("%s", (_, document, target, expected) => {
    const problems = checkPolicy(document, target);
    expect(problems.map((p) => `${p.code.slice(-4)} ${p.path}: ${p.message}`)).toEqual(
      expected.map((e) => expect.stringContaining(e)),
    );
  });
});

test("words problems the same once zod's English messages are loaded (as in the emulator, which loads zod classic)", async () => {
  await import("zod"); // classic zod sets its English locale for every schema, mini ones included
  for (const [, document, target, expected] of INVALID)
    expect(checkPolicy(document, target).map((p) => `${p.code.slice(-4)} ${p.path}: ${p.message}`)).toEqual(
      expected.map((e) => expect.stringContaining(e)),
    );
});

test("a problem's place is a path into the document, as in the contract's example", () => {
  const doc = req(end, act("log", { metadata: {} }), {
    actions: [{ type: "custom-response", config: { headers: headers(11) } }],
  });
  expect(checkPolicy(doc, PUBLIC)).toEqual([
    {
      path: "on_http_request[2].actions[0].config.headers",
      message: "at most 10 headers (got 11)",
      code: "ERR_NGROK_2201",
    },
  ]);
});

describe("Go durations", () => {
  test.each([
    ["30s", 30_000],
    ["2m", 120_000],
    ["1h30m", 5_400_000],
    ["1.5h", 5_400_000],
    ["1500ms", 1500],
    ["0", 0],
    ["-1s", -1000],
  ])("%s is %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));
  test.each(["", "1", "s", "1 s", "1d", "1s ", "1.s.", "PT1S"])("%j is not a duration", (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe("endpoint URLs", () => {
  test.each([
    ["https://example.com", "public", { protocol: "https", internal: false }],
    ["https://example.com:443", "public", { protocol: "https", internal: false }],
    ["https://*.example.com", "public", { protocol: "https", internal: false }],
    ["http://example.com:80", "public", { protocol: "http", internal: false }],
    ["tls://example.com", "public", { protocol: "tls", internal: false }],
    ["tcp://1.tcp.ngrok.io:12345", "public", { protocol: "tcp", internal: false }],
    ["https://api.internal", "internal", { protocol: "https", internal: true }],
    ["tls://a.b.internal:8443", "internal", { protocol: "tls", internal: true }],
    ["tcp://db.internal:5432", "internal", { protocol: "tcp", internal: true }],
  ] as const)("%s (%s) is valid", (url, binding, target) => {
    expect(checkEndpointUrl(url, binding)).toEqual({ target, problems: [] });
  });
  test.each([
    ["https://example.com:8443", "public", "a public https endpoint listens on port 443 only (got 8443)"],
    ["tls://example.com:444", "public", "port 443 only"],
    ["http://example.com:8080", "public", "a public http endpoint listens on port 80 only"],
    ["tcp://1.tcp.ngrok.io", "public", "a tcp endpoint needs a port"],
    ["https://api.internal", "public", "a .internal host needs the internal binding"],
    ["ftp://example.com", "public", "the scheme must be https, http, tls or tcp"],
    ["https://example.com/path", "public", "no path, query or fragment"],
    ["https://example.com?q=1", "public", "no path, query or fragment"],
    ["https://user:pw@example.com", "public", "must not carry a user or password"],
    ["https://exa mple.com", "public", "the host must be a domain name"],
    ["https://", "public", "the host must be a domain name"],
    ["example.com", "public", "must be scheme://host[:port]"],
    ["https://example.com\t", "public", "must not contain control characters"],
    ["https://example.com", "internal", "an internal URL's host must end in .internal"],
    ["tcp://db.internal", "internal", "a tcp internal URL needs a port"],
    ["ws://a.internal", "internal", "must start with https://, http://, tls:// or tcp://"],
  ] as const)("%j (%s) is refused", (url, binding, message) => {
    const { target, problems } = checkEndpointUrl(url, binding);
    expect(target).toBeUndefined();
    expect(problems).toEqual([{ path: "url", message: expect.stringContaining(message), code: "ERR_NGROK_2201" }]);
  });
});

describe("policy text", () => {
  test("JSON and YAML read the same", async () => {
    const json = await parsePolicyText('{"on_http_request": [{"actions": [{"type": "deny"}]}]}');
    const yaml = await parsePolicyText("on_http_request:\n  - actions:\n      - type: deny\n");
    expect(json).toEqual(yaml);
    expect(json).toEqual({ ok: true, document: { on_http_request: [{ actions: [{ type: "deny" }] }] } });
  });
  test.each([
    ["", "the policy is empty"],
    ["  \n", "the policy is empty"],
    ["a: [1\n", "not valid JSON or YAML:"],
    ["a: 1\na: 2\n", "not valid JSON or YAML: Map keys must be unique"],
    ["a: 1\n---\nb: 2\n", "one YAML document expected (got 2)"],
  ])("%j is not parsed", async (text, message) => {
    expect(await parsePolicyText(text)).toEqual({
      ok: false,
      problems: [{ path: "", message: expect.stringContaining(message), code: "ERR_NGROK_2201" }],
    });
  });
  test.each([
    ["a: " + "[".repeat(20_000) + "]".repeat(20_000), "nested more than 100 levels deep in [ ] or { }"],
    ["a: " + "{".repeat(101), "nested more than 100 levels deep in [ ] or { }"],
    [Array.from({ length: 500 }, (_, i) => `${" ".repeat(i)}k:`).join("\n"), "indented more than 400 columns"],
    ["- ".repeat(5000) + "x", "indented more than 400 columns"],
  ])("YAML nested past the parser's stack is refused, not parsed (%#)", async (text, message) => {
    expect(await parsePolicyText(text)).toEqual({
      ok: false,
      problems: [{ path: "", message: `not valid JSON or YAML: ${message}`, code: "ERR_NGROK_2201" }],
    });
  });
  test("JSON nested past 64 levels is refused as YAML is (the contract's limit; no stack is spent on it)", async () => {
    const deep = JSON.stringify({
      on_http_request: [
        { actions: [{ type: "log", config: { metadata: { a: JSON.parse("[".repeat(5000) + "]".repeat(5000)) } } }] },
      ],
    });
    expect(await parsePolicyText(deep)).toEqual({
      ok: false,
      problems: [{ path: "", message: "nested more than 64 levels deep", code: "ERR_NGROK_2201" }],
    });
  });
  test("a byte-order mark is skipped", async () => {
    expect(await parsePolicyText('\ufeff{"on_http_request": []}')).toEqual({
      ok: true,
      document: { on_http_request: [] },
    });
  });
});

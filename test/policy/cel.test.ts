// ngrok's CEL as edgectl checks and evaluates it (src/policy/cel): a table of expressions, each
// with the findings expected (severity, column, message) and the doc line that decides it
// (ngrok-docs 56a5f9960f4e7c7e134fbc0412f74b51b2df5eca), then templates, the policy-level rules
// (phases, earlier actions, set-vars, one authentication action, warnings and --strict) and
// evaluation with ngrok's functions. In-process, no I/O.
import { beforeAll, describe, expect, test } from "vitest";
import {
  checkExpression,
  checkTemplate,
  evaluateExpression,
  hasInterpolation,
  renderTemplate,
  type CelScope,
} from "../../src/policy/cel/index.js";
import { loadCel, validatePolicy, type Target } from "../../src/policy/index.js";

const REQ: CelScope = { phase: "on_http_request", protocol: "https", tlsAtNgrok: true, actionsBefore: new Set() };
const at = (over: Partial<CelScope>): CelScope => ({ ...REQ, ...over });

type Row = [expression: string, scope: CelScope, expected: string[], source: string];
const ok = (e: string, source: string, scope = REQ): Row => [e, scope, [], source];
// expected: "problem 12: message fragment" / "warning 1: fragment"
const EXPRESSIONS: Row[] = [
  ok("req.url.path.startsWith('/api')", "snippets/traffic-policy/variables/req.mdx:27 (req.url.path: string)"),
  ok("req.method == 'POST' && req.content_length > 10000000", "snippets/traffic-policy/variables/req.mdx:20, :10"),
  ok("req.headers['user-agent'].exists(v, v.contains('bot'))", "req.mdx:17 (map[string][]string)"),
  ok("getReqHeader('User-Agent').exists(v, v.matches('(?i)google-images'))", "traffic-policy/macros/index.mdx:129"),
  ok("req.cookies['session'][0].value == 'x'", "req.mdx:15 (req.cookies[k][i].value)"),
  ok("conn.geo.country_code in ['US', 'CA']", "snippets/traffic-policy/variables/conn.geo.mdx:11"),
  ok("inCidrRanges(conn.client_ip, ['10.0.0.0/8'])", "macros/index.mdx:1975"),
  ok("'proxy.anonymous.tor' in conn.client_ip.categories", "conn.ip-intel.mdx:16 (list)"),
  ok("timestamp(time.now).getHours('America/New_York') >= 9", "time.mdx:9 (string), macros/index.mdx:1764"),
  ok("hash.sha256(req.host) != '' && base64.encode(b'x') == 'eA=='", "macros/index.mdx:486, :31"),
  ok("req.url.query_params['a'].sortBy(x, x).size() > 0", "macros/index.mdx:765 (sortBy binds x)"),
  ok("has(req.headers.foo) || req.user_agent.is_bot", "macros/index.mdx:1934, req.mdx:37"),
  ok("has(req.headers['x-custom-header'])", "macros/index.mdx:1941 (ngrok's has() of a map entry)"),
  ok("res.status_code >= 500", "res.mdx (res.* in on_http_response)", at({ phase: "on_http_response" })),
  ok(
    "conn.client_ip == '1.2.3.4'",
    "conn-tcptls.mdx:9 (conn.* in on_tcp_connect)",
    at({ phase: "on_tcp_connect", protocol: "tcp", tlsAtNgrok: false }),
  ),
  ok(
    "actions.ngrok.verify_webhook.verified",
    "actions/verify-webhook/variables.mdx:4",
    at({ actionsBefore: new Set(["verify-webhook"]) }),
  ),
  ok(
    "actions.ngrok.oidc.identity.email.endsWith('@example.com')",
    "actions/oidc/variables.mdx (openid-connect's namespace is oidc)",
    at({ actionsBefore: new Set(["openid-connect"]) }),
  ),
  ok("vars.tier == 'gold'", "traffic-policy/actions/set-vars.mdx", at({ vars: new Set(["tier"]) })),
  // syntax
  [
    "req.method = 'GET'",
    REQ,
    ['problem 12: syntax error: unexpected "=" (CEL compares with ==)'],
    "cel-spec langdef.md syntax: == compares",
  ],
  ["req.url.path ==", REQ, ["problem 14: syntax error"], "cel-spec langdef.md syntax"],
  [
    "(req.url.path == '/a'",
    REQ,
    ["problem 1: syntax error: unbalanced bracket: this ( is never closed"],
    "cel-spec syntax",
  ],
  // unknown names, with a did-you-mean
  ["req.methd == 'GET'", REQ, ["problem 1: unknown name req.methd; did you mean req.method?"], "req.mdx:20"],
  ["rq.method == 'GET'", REQ, ["problem 1: unknown name rq; did you mean req?"], "variables/index.mdx"],
  ["req.url.pth == '/'", REQ, ["problem 1: unknown name req.url.pth; did you mean req.url.path?"], "req.mdx:27"],
  ["req.cookies['a'][0].valu == 'x'", REQ, ["problem 20: cookie has no field valu; did you mean value?"], "req.mdx:16"],
  [
    "hash.sha265('a') == ''",
    REQ,
    ["problem 5: unknown function hash.sha265; did you mean hash.sha256?"],
    "macros/index.mdx:486",
  ],
  [
    "req.url.path.startswith('/a')",
    REQ,
    ["problem 13: unknown function startswith; did you mean startsWith?"],
    "macros/index.mdx:1108",
  ],
  // types
  [
    "req.content_length == '5'",
    REQ,
    ["problem 20: == compares values of one type (got int, string)"],
    "req.mdx:10 (int64)",
  ],
  [
    "req.url.path.startsWith(1)",
    REQ,
    ["problem 13: no overload of startsWith takes string.startsWith(int)"],
    "macros/index.mdx:1114",
  ],
  [
    "req.method",
    REQ,
    ["problem 1: an expression must be a bool (this one is string)"],
    "traffic-policy/concepts/expressions: a rule runs when its expressions are true",
  ],
  ["req.url.path.matches('(?=a)')", REQ, ["problem 22: not an RE2 regular expression"], "macros/index.mdx:1085 (RE2)"],
  // phase and protocol rules
  [
    "res.status_code == 200",
    REQ,
    ["problem 1: res.status_code is not set in on_http_request"],
    "the contract: res.* only in on_http_response",
  ],
  [
    "req.method == 'GET'",
    at({ phase: "on_tcp_connect", protocol: "tcp", tlsAtNgrok: false }),
    ["problem 1: req.method is not set in on_tcp_connect"],
    "the contract: req.* not in on_tcp_connect",
  ],
  [
    "conn.tls.version == '1.3'",
    at({ phase: "on_tcp_connect", protocol: "tls", tlsAtNgrok: false }),
    ["problem 1: conn.tls.version is not set here"],
    "the contract: conn.tls.* where TLS ends at ngrok",
  ],
  [
    "actions.ngrok.verify_webhook.verified",
    REQ,
    ["problem 1: actions.ngrok.verify_webhook.verified is not set here"],
    "the contract: actions.ngrok.<action>.* after that action",
  ],
  [
    "vars.tire == 'gold'",
    at({ vars: new Set(["tier"]) }),
    [
      "problem 1: vars.tire is not set before this point (a set-vars action sets vars.*: vars.tier); did you mean vars.tier?",
    ],
    "set-vars.mdx",
  ],
  // what ngrok's examples use and its reference does not define
  [
    "req.path.startsWith('/api/auth')",
    REQ,
    [
      "warning 1: req.path is not in ngrok's variable reference (its own example uses it: gateway/examples/blue-green-deployments.mdx:96)",
    ],
    "gateway/examples/blue-green-deployments.mdx:96",
  ],
  [
    "req.url.includes('/one')",
    REQ,
    ["warning 8: string.includes() is not in ngrok's macro reference"],
    "gateway/examples/front-door-pattern.mdx:75",
  ],
];

const shown = (f: { severity: string; column?: number; message: string }) => `${f.severity} ${f.column}: ${f.message}`;

describe("expressions", () => {
  test.each(EXPRESSIONS)("%s", (expression, scope, expected) => {
    expect(checkExpression(expression, scope).map(shown)).toEqual(expected.map((e) => expect.stringContaining(e)));
  });
});

describe("templates", () => {
  test.each([
    // traffic-policy/actions/forward-internal.mdx: a url with an interpolation is a template, not a literal.
    ["https://${vars.service}.internal", [] as string[]],
    ["no interpolation at all, {braces} kept", []],
    ["${req.methd} and ${conn.client_ip}", ["problem 3: unknown name req.methd; did you mean req.method?"]],
    ["${ {'a': 'b'}['a'] }", []],
    ["x ${", ["problem 3: this ${ is never closed by a }"]],
    ["${}", ["problem 1: an empty ${}"]],
  ])("%j", (text, expected) => {
    expect(checkTemplate(text, REQ).map(shown)).toEqual(expected.map((e) => expect.stringContaining(e)));
  });

  test("hasInterpolation", () => {
    expect([hasInterpolation("a ${b}"), hasInterpolation("a {b}")]).toEqual([true, false]);
  });
});

const PUBLIC: Target = { protocol: "https", internal: false };
const deny = { type: "deny" };
const rows = (v: {
  problems: { code: string; path: string; message: string }[];
  warnings: { path: string; message: string }[];
}) => [
  ...v.problems.map((p) => `${p.code.slice(-4)} ${p.path}: ${p.message}`),
  ...v.warnings.map((w) => `warning ${w.path}: ${w.message}`),
];

describe("in a policy", () => {
  beforeAll(() => loadCel());

  test.each<[string, unknown, Target, string[]]>([
    [
      "actions.ngrok.* after the action, in a later rule; vars after set-vars",
      {
        on_http_request: [
          { actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s", enforce: false } }] },
          { actions: [{ type: "set-vars", config: { vars: [{ service: "api" }, { next: "${vars.service}" }] } }] },
          { expressions: ["!actions.ngrok.verify_webhook.verified"], actions: [deny] },
          { actions: [{ type: "custom-response", config: { status_code: 200, body: "to ${vars.service}" } }] },
        ],
      },
      PUBLIC,
      [],
    ],
    [
      "res.* in the request phase; an unknown vars name",
      {
        on_http_request: [
          { expressions: ["res.status_code == 200", "vars.x == 'y'"], actions: [deny] },
          { actions: [deny] },
        ],
      },
      PUBLIC,
      [
        "2200 on_http_request[0].expressions[0]: column 1: res.status_code is not set in on_http_request",
        "2200 on_http_request[0].expressions[1]: column 1: vars.x is not set before this point",
      ],
    ],
    [
      // errors/err_ngrok_2239.mdx:9, traffic-policy/examples/add-authentication.mdx:17-21
      "two authentication actions in one rule",
      {
        on_http_request: [
          {
            actions: [
              { type: "basic-auth", config: { credentials: ["user:password1"] } },
              { type: "oauth", config: { provider: "google" } },
              deny,
            ],
          },
        ],
      },
      PUBLIC,
      [
        "2239 on_http_request[0].actions[1].type: only one authentication action per endpoint (basic-auth, jwt-validation, oauth, openid-connect); the first is basic-auth at on_http_request[0].actions[0]",
      ],
    ],
    [
      // gateway/examples/paas-alternative-gateway.mdx:132, :156: ngrok's own example does it.
      "two authentication actions in two rules: a warning",
      {
        on_http_request: [
          {
            expressions: ["req.url.path.startsWith('/api')"],
            actions: [{ type: "basic-auth", config: { credentials: ["user:password1"] } }],
          },
          { actions: [{ type: "oauth", config: { provider: "google" } }, deny] },
        ],
      },
      PUBLIC,
      [
        "warning on_http_request[1].actions[0].type: only one authentication action per endpoint (basic-auth, jwt-validation, oauth, openid-connect); the first is basic-auth at on_http_request[0].actions[0], in another rule",
      ],
    ],
    [
      // traffic-policy/how-it-works.mdx: the first terminating action ends the phase.
      "an action after a terminating action",
      { on_http_request: [{ actions: [deny, { type: "add-headers", config: { headers: { a: "b" } } }] }] },
      { ...PUBLIC, kind: "agent" },
      ["2207 on_http_request[0].actions[1]: unreachable: the deny (actions[0]) action before it ends the phase"],
    ],
    [
      // The contract, "Handling all traffic": a warning (a problem with --strict).
      "a conditional last rule",
      { on_http_request: [{ expressions: ["req.method == 'GET'"], actions: [deny] }] },
      PUBLIC,
      [
        "warning on_http_request[0].expressions: not guaranteed to handle traffic: the last rule of a public endpoint's on_http_request has expressions",
      ],
    ],
    [
      "a conditional last rule on an agent endpoint: nothing",
      { on_http_request: [{ expressions: ["req.method == 'GET'"], actions: [deny] }] },
      { ...PUBLIC, kind: "agent" },
      [],
    ],
    [
      "conn.tls.* on a tls endpoint after terminate-tls (and not before)",
      {
        on_tcp_connect: [
          { expressions: ["conn.tls.sni == 'a'"], actions: [{ type: "terminate-tls", config: {} }] },
          { expressions: ["conn.tls.sni == 'a'"], actions: [{ type: "close-connection" }] },
          { actions: [{ type: "forward-internal", config: { url: "tls://svc.internal:443" } }] },
        ],
      },
      { protocol: "tls", internal: false },
      ["2200 on_tcp_connect[0].expressions[0]: column 1: conn.tls.sni is not set here"],
    ],
  ])("%s", (_, document, target, expected) => {
    expect(rows(validatePolicy(document, target))).toEqual(expected.map((e) => expect.stringContaining(e)));
  });

  test("--strict makes warnings problems, with their code", () => {
    const document = {
      on_http_request: [{ expressions: ["req.path == '/'"], actions: [deny] }, { actions: [deny] }],
    };
    expect(rows(validatePolicy(document, PUBLIC))).toEqual([
      expect.stringContaining("warning on_http_request[0].expressions[0]: column 1: req.path"),
    ]);
    expect(rows(validatePolicy(document, PUBLIC, { strict: true }))).toEqual([
      expect.stringContaining("2200 on_http_request[0].expressions[0]: column 1: req.path"),
    ]);
  });
});

describe("evaluation with ngrok's functions", () => {
  const activation = {
    "req.url": "https://shop.example.com/api?a=1",
    req: {
      method: "GET",
      url: { path: "/api", query_params: { a: ["1"] } },
      headers: { "user-agent": ["Google-Images/1.0"] },
      cookies: { session: [{ name: "session", value: "s1" }] },
    },
    conn: { client_ip: "10.1.2.3", ts: { start: new Date("2026-11-25T03:04:05Z") } },
    vars: { service: "api" },
  };
  test.each([
    ["req.url.path.startsWith('/api') && req.url == 'https://shop.example.com/api?a=1'", true],
    ["getReqHeader('User-Agent').exists(v, v.matches('(?i)google-images'))", true], // macros/index.mdx:129, RE2 (?i)
    ["getQueryParam('a') == ['1'] && hasQueryParam('a') && !hasReqHeader('x')", true],
    ["getReqCookie('session').value", "s1"],
    ["has(req.headers['user-agent']) && !has(req.headers['x-none'])", true], // macros/index.mdx:1941
    ["inCidrRange(conn.client_ip, '10.0.0.0/8') && conn.client_ip.isPrivateIp()", true], // macros/index.mdx:1944, :1352
    ["hash.md5('a')", "0cc175b9c0f1b6a831c399e269772661"],
    ["basic_auth.encode('username', 'password1')", "Basic dXNlcm5hbWU6cGFzc3dvcmQx"], // macros/index.mdx:52
    ["base64.encode(b'hello')", "aGVsbG8="], // macros/index.mdx:40
    ["json.decode('{\"a\":\"b\"}')['a']", "b"],
    ["'abc'.reverse() + 'X'.lower() + 'a,b'.split(',').join('-')", "cbax" + "a-b"],
    ["lists.range(3)", [0, 1, 2]],
    ["'a b'.escapeUrl()", "a%20b"],
    ["conn.ts.start > timestamp('2026-01-01T00:00:00Z') && conn.ts.start.getHours() == 3", true], // conn.mdx:16 (timestamp)
    ["conn.ts.start", "2026-11-25T03:04:05Z"],
  ])("%s", (expression, value) => {
    expect(evaluateExpression(expression, activation)).toEqual({ value });
  });

  test("an error is the result, not a throw", () => {
    expect(evaluateExpression("base64.decode('aGVsbG8')", {})).toEqual({ error: expect.any(String) });
    expect(evaluateExpression("req.method ==", {})).toEqual({ error: expect.stringContaining("column") });
  });

  test("dotted names answered by the activation give what the field selections give", () => {
    const plain = { req: { url: { path: "/a" }, headers: { x: ["1"] }, list: [1] }, vars: { n: null } };
    // A comprehension variable named like a root is its own value, not the activation's.
    expect(evaluateExpression("[{'url': {'path': 'mine'}}].exists(req, req.url.path == 'mine')", plain)).toEqual({
      value: true,
    });
    expect(evaluateExpression("req.url.path == '/a' && vars.n == null", plain)).toEqual({ value: true });
    // No such key, a selection on a list, has(): CEL's own answers, the same before and after a hit.
    for (let i = 0; i < 2; i++) {
      expect(evaluateExpression("req.url.nope", plain)).toEqual({ error: expect.stringContaining("nope") });
      expect(evaluateExpression("req.list.x", plain)).toEqual({ error: expect.any(String) });
      expect(evaluateExpression("has(req.url.path) && !has(req.url.q) && req.headers.x == ['1']", plain)).toEqual({
        value: true,
      });
      expect(evaluateExpression("toString == 1", plain)).toEqual({ error: expect.any(String) });
    }
    // ngrok's roots are converted on their first read (src/policy/cel/index.ts `roots`): an
    // activation whose first expression binds a root's name still gives the other roots their
    // values, and a root it does not have is CEL's own error, as before any read.
    const fresh = { req: { url: { path: "/b" } }, vars: { n: 2 } };
    expect(evaluateExpression("[1].exists(req, req == 1) && vars.n == 2 && size(req) == 1", fresh)).toEqual({
      value: true,
    });
    expect(evaluateExpression("req.url.path == '/b'", fresh)).toEqual({ value: true });
    expect(evaluateExpression("res.status_code == 200", fresh)).toEqual({ error: expect.any(String) });
    expect(evaluateExpression("res.status_code == 200", { ...fresh })).toEqual({ error: expect.any(String) });
  });

  test("renderTemplate", () => {
    expect(renderTemplate("https://${vars.service}.internal${req.url.path}", activation)).toEqual({
      value: "https://api.internal/api",
    });
    expect(renderTemplate("${1 + 1} and ${req.method.lower()}", activation)).toEqual({ value: "2 and get" });
    expect(renderTemplate("${nope.x}", activation)).toEqual({ error: expect.any(String) });
  });
});

describe("deprecated fields: the action's data words a warning", () => {
  test("a field an action marks deprecated is a warning, a problem with --strict", async () => {
    const { ACTIONS } = await import("../../src/policy/actions.js");
    const spec = ACTIONS["custom-response"] as { deprecated?: Record<string, string> };
    const had = spec.deprecated;
    // The actions' own data (another module's) may not mark any yet: this test marks one.
    spec.deprecated = { status_code: "status_code is deprecated (a test's)" };
    try {
      const document = { on_http_request: [{ actions: [{ type: "custom-response", config: { status_code: 404 } }] }] };
      expect(rows(validatePolicy(document, PUBLIC))).toEqual([
        "warning on_http_request[0].actions[0].config.status_code: status_code is deprecated (a test's)",
      ]);
      expect(rows(validatePolicy(document, PUBLIC, { strict: true }))).toEqual([
        "2201 on_http_request[0].actions[0].config.status_code: status_code is deprecated (a test's)",
      ]);
    } finally {
      if (had === undefined) delete spec.deprecated;
      else spec.deprecated = had;
    }
  });
});

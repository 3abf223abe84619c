// `edgectl policy check`: (a) the command line → options, (b) the whole CLI in-process
// (test/helpers/app.ts) on files and stdin, against a fault server that must hear nothing: it
// needs no key or settings and sends nothing; the problems are its result, on stdout. Each
// rule of "Traffic Policy and Cloud Endpoints" (the contract) is held by one policy and the
// whole line it prints, with its place (see /work/research/audit-policy.md). That it loads
// zod only for an action's config is in e2e/zod-on-demand.test.ts (a probe in a real process).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { check } from "../../../src/commands/policy/check.js";
import { appSandbox } from "../../helpers/app.js";
import { useFaultServer, useScratch } from "../../e2e/support.js";
import { parse, refusal } from "../parse.js";

describe("policy check argv → options", () => {
  it.each([
    [["p.yml"], { file: "p.yml", protocol: "https", internal: false, agent: false, strict: false }],
    [
      ["-", "--protocol", "tcp", "--internal"],
      { file: "-", protocol: "tcp", internal: true, agent: false, strict: false },
    ],
    [["p.yml", "--agent"], { file: "p.yml", protocol: "https", internal: false, agent: true, strict: false }],
    [["p.yml", "--strict"], { file: "p.yml", protocol: "https", internal: false, agent: false, strict: true }],
  ])("reads %j", async (argv, options) => {
    expect((await parse(check, argv)).options).toEqual(options);
  });

  it.each([[["p.yml", "--protocol", "ftp"], /^--protocol: .*must be https, http, tls or tcp/]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(check, argv)).message).toMatch(message);
    },
  );
});

const suite = useFaultServer("key_policy", appSandbox);
const FIXTURES = fileURLToPath(new URL("../../fixtures/policy/", import.meta.url));
const { dir, file } = useScratch("edgectl-policy-check-");
// With neither key nor base URL: policy check needs neither.
const bare = (args: string[], input?: string) =>
  suite.cli.run(["policy", "check", ...args], input === undefined ? {} : { input });

const BROKEN = `on_http_request:
  - actions:
      - type: deny
      - type: log
        config: {metadata: {}}
  - actions:
      - type: custom-response
        config:
          headers: {h0: a, h1: a, h2: a, h3: a, h4: a, h5: a, h6: a, h7: a, h8: a, h9: a, h10: a}
on_http_response:
  - actions:
      - type: verify-webhook
        config: {provider: github, secret: s}
`;

describe("edgectl policy check (in-process)", () => {
  it("prints ok and exits 0 for a valid policy, with no key, settings or request", async () => {
    const r = await bare([join(FIXTURES, "verify-webhook-1.yaml")]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok");
    expect(r.exitCode).toBe(0);
    const j = await bare([join(FIXTURES, "deny-2.yaml"), "-o", "json"]);
    expect(JSON.parse(j.stdout as string)).toEqual({ valid: true, warnings: [] });
    expect(j.exitCode).toBe(0);
  });

  it("prints every problem, one a line with its place, and exits 2", async () => {
    const r = await suite.run(["policy", "check", file("broken.yml", BROKEN)]);
    expect(r.stdout.split("\n")).toEqual([
      "on_http_request[0].actions[1]: unreachable: the deny (actions[0]) action before it ends the phase",
      "on_http_request[1].actions[0].config.headers: at most 10 headers (got 11)",
      "on_http_response[0].actions[0].type: verify-webhook is not allowed in on_http_response (only in on_http_request)",
    ]);
    expect(r.stderr).toBe(`error: ${join(dir, "broken.yml")}: the policy has 3 problems (for a public https endpoint)`);
    expect(r.exitCode).toBe(2);
    expect(suite.server.requests).toEqual([]);
  });

  it("prints {valid: false, problems} with -o json", async () => {
    const r = await bare([
      file(
        "broken.json",
        JSON.stringify({
          on_http_request: [
            { expressions: ["true"], actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] },
          ],
        }),
      ),
      "--json",
    ]);
    expect(JSON.parse(r.stdout as string)).toEqual({
      valid: false,
      problems: [
        {
          path: "on_http_request[0].actions[0]",
          message: expect.stringContaining("not guaranteed to handle traffic"),
        },
      ],
      warnings: [],
    });
    expect(JSON.parse(r.stderr as string).error.kind).toBe("usage");
    expect(r.exitCode).toBe(2);
  });

  // Issue 27 items 1, 3 and 4: endpoint kinds, CEL, warnings and --strict.
  const CONDITIONAL = JSON.stringify({
    on_http_request: [{ expressions: ["req.url.path.startsWith('/api')"], actions: [{ type: "deny" }] }],
  });
  const WARN =
    "on_http_request[0].expressions: not guaranteed to handle traffic: the last rule of a public endpoint's on_http_request has expressions, so some requests may reach no terminating action";
  it.each([
    // [argv after the file, file text, stdout, stderr, exit code]
    [[], CONDITIONAL, "ok", `warning: ${WARN}`, 0],
    [["--strict"], CONDITIONAL, WARN, "error: FILE: the policy has 1 problem (for a public https endpoint)", 2],
    [["--agent"], CONDITIONAL, "ok", "", 0],
    [
      ["--agent"],
      JSON.stringify({ on_http_request: [{ expressions: ["req.methd == 'GET'"], actions: [{ type: "deny" }] }] }),
      "on_http_request[0].expressions[0]: column 1: unknown name req.methd; did you mean req.method?",
      "error: FILE: the policy has 1 problem (for an agent https endpoint)",
      2,
    ],
    [
      ["--agent"],
      JSON.stringify({ on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] }),
      "ok",
      "",
      0,
    ],
    [
      ["--internal", "--agent"],
      CONDITIONAL,
      "",
      "error: --internal and --agent: give one (an endpoint is of one kind)",
      2,
    ],
  ])("policy check %j", async (argv, text, stdout, stderr, code) => {
    const path = file("kinds.json", text as string);
    const r = await bare([path, ...(argv as string[])]);
    expect([r.stdout, r.stderr, r.exitCode]).toEqual([stdout, (stderr as string).replace("FILE", path), code]);
  });

  it("gives the warnings in -o json, beside valid and beside the problems", async () => {
    const ok = await bare([file("w.json", CONDITIONAL), "-o", "json"]);
    expect(JSON.parse(ok.stdout as string)).toEqual({
      valid: true,
      warnings: [{ path: "on_http_request[0].expressions", message: WARN.split(": ").slice(1).join(": ") }],
    });
    expect(ok.stderr).toBe(`warning: ${WARN}`);
    const r = await bare([
      file(
        "wp.json",
        JSON.stringify({
          on_http_request: [
            { expressions: ["req.method = 'GET'"], actions: [{ type: "deny" }] },
            { expressions: ["true"], actions: [{ type: "deny" }] },
          ],
        }),
      ),
      "-o",
      "json",
    ]);
    expect(JSON.parse(r.stdout as string)).toEqual({
      valid: false,
      problems: [
        {
          path: "on_http_request[0].expressions[0]",
          message: 'column 12: syntax error: unexpected "=" (CEL compares with ==)',
        },
      ],
      warnings: [{ path: "on_http_request[1].expressions", message: expect.stringContaining("not guaranteed") }],
    });
  });

  it("reads the policy from stdin with -", async () => {
    const r = await bare(["-", "--protocol", "tcp"], '{"on_tcp_connect": [{"actions": [{"type": "deny"}]}]}');
    expect(r.stdout).toBe("ok");
    expect(r.exitCode).toBe(0);
    const bad = await bare(["-"], "on_http_request: [\n");
    expect(bad.stdout).toMatch(/^\(policy\): not valid JSON or YAML: /);
    expect(bad.stderr).toBe("error: stdin: the policy has 1 problem (for a public https endpoint)");
    expect(bad.exitCode).toBe(2);
  });

  it("checks for the protocol and binding given", async () => {
    const tcp = file(
      "tcp.yml",
      "on_tcp_connect:\n  - actions:\n      - type: restrict-ips\n        config: {allow: [10.0.0.0/8]}\n",
    );
    const pub = await bare([tcp, "--protocol", "tcp"]);
    expect(pub.stdout).toContain("on_tcp_connect[0].actions[0]: not guaranteed to handle traffic");
    expect(pub.exitCode).toBe(2);
    // An internal endpoint follows the same rule; an agent endpoint has none (the contract, "Endpoint kinds").
    expect((await bare([tcp, "--protocol", "tcp", "--internal"])).exitCode).toBe(2);
    expect((await bare([tcp, "--protocol", "tcp", "--agent"])).exitCode).toBe(0);
    const asHttps = await bare([tcp, "--internal"]);
    expect(asHttps.stdout).toContain("on_tcp_connect: an internal https endpoint takes no on_tcp_connect phase");
    expect(asHttps.exitCode).toBe(2);
  });

  it("escapes control characters that a message quotes", async () => {
    const r = await bare([
      file("ctl.json", JSON.stringify({ on_http_request: [{ actions: [{ type: "de\u001b[2Jny" }] }] })),
    ]);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).toContain("\\u001b");
    expect(r.exitCode).toBe(2);
  });

  it("refuses a file it cannot read and an unknown protocol (exit 2)", async () => {
    const missing = await bare([join(dir, "nope.yml")]);
    expect(missing.stderr).toBe(`error: <file>: cannot read ${join(dir, "nope.yml")}: ENOENT`);
    expect(missing.stdout).toBe("");
    expect(missing.exitCode).toBe(2);
    const proto = await bare([join(FIXTURES, "deny-2.yaml"), "--protocol", "ftp"]);
    expect(proto.stderr).toContain("--protocol");
    expect(proto.stderr).toContain("must be https, http, tls or tcp");
    expect(proto.exitCode).toBe(2);
  });

  it("refuses YAML whose aliases expand past the bound (exit 2, one problem), not an internal error", async () => {
    const laughs = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "on_http_request: [*d]",
      "",
    ].join("\n");
    const r = await bare([file("laughs.yml", laughs)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain("internal error");
    expect(String(r.stdout).split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stdout).toMatch(/^\(policy\): not valid JSON or YAML: .*alias/i);
  });
});

let n = 0;
const policyFile = (doc: unknown) => file(`p${++n}.json`, typeof doc === "string" ? doc : JSON.stringify(doc));
/** A request-phase rule holding `actions`, then a last rule that ends every other request. */
const R = (actions: object[]) => ({ on_http_request: [{ actions }, { actions: [{ type: "deny" }] }] });

// [rule, flags, policy, the line `policy check` prints ("ok" when valid)]
const RULES: [string, string[], unknown, string][] = [
  [
    "phases: a TLS endpoint takes only on_tcp_connect",
    ["--protocol", "tls"],
    { on_tcp_connect: [{ actions: [{ type: "deny" }] }], on_http_request: [{ actions: [{ type: "deny" }] }] },
    "on_http_request: a public tls endpoint takes no on_http_request phase (it takes on_tcp_connect)",
  ],
  [
    "phases: an HTTP endpoint takes all three",
    ["--protocol", "http"],
    {
      on_tcp_connect: [{ actions: [{ type: "restrict-ips", config: { allow: ["10.0.0.0/8"] } }] }],
      on_http_request: [{ actions: [{ type: "deny" }] }],
      on_http_response: [{ actions: [{ type: "compress-response" }] }],
    },
    "ok",
  ],
  [
    "verify-webhook: provider from the list",
    [],
    R([{ type: "verify-webhook", config: { provider: "nope", secret: "s" } }]),
    "on_http_request[0].actions[0].config.provider: must be a supported provider in lower case (see `edgectl webhook-verification replace --help`)",
  ],
  [
    "verify-webhook: secret required, for sns too",
    [],
    R([{ type: "verify-webhook", config: { provider: "sns" } }]),
    "on_http_request[0].actions[0].config.secret: is required",
  ],
  [
    "verify-webhook: enforce a bool",
    [],
    R([{ type: "verify-webhook", config: { provider: "github", secret: "s", enforce: "yes" } }]),
    "on_http_request[0].actions[0].config.enforce: must be true or false (got a string)",
  ],
  [
    "forward-internal: url required",
    [],
    R([{ type: "forward-internal", config: {} }]),
    "on_http_request[0].actions[0].config.url: is required",
  ],
  [
    "forward-internal: url an internal URL",
    [],
    R([{ type: "forward-internal", config: { url: "https://example.com" } }]),
    "on_http_request[0].actions[0].config.url: an internal URL's host must end in .internal (e.g. https://api.internal)",
  ],
  [
    "forward-internal: url of the endpoint's protocol family",
    [],
    R([{ type: "forward-internal", config: { url: "tcp://db.internal:5432" } }]),
    "on_http_request[0].actions[0].config.url: an internal URL here must start with https:// or http:// (the https endpoint's protocol)",
  ],
  [
    "forward-internal: on_error halt or continue",
    [],
    R([{ type: "forward-internal", config: { url: "https://a.internal", on_error: "retry" } }]),
    'on_http_request[0].actions[0].config.on_error: must be one of "halt", "continue"',
  ],
  [
    "forward-internal: not terminating with on_error continue",
    [],
    {
      on_http_request: [
        { actions: [{ type: "forward-internal", config: { url: "https://a.internal", on_error: "continue" } }] },
      ],
    },
    "on_http_request[0].actions[0]: not guaranteed to handle traffic: forward-internal with on_error: continue does not end the phase; a public endpoint's on_http_request must end in forward-internal, custom-response, deny or close-connection",
  ],
  [
    "custom-response: status_code 100-599",
    [],
    R([{ type: "custom-response", config: { status_code: 600 } }]),
    "on_http_request[0].actions[0].config.status_code: must be a whole number from 100 to 599",
  ],
  [
    "custom-response: body a string",
    [],
    R([{ type: "custom-response", config: { status_code: 200, body: 5 } }]),
    "on_http_request[0].actions[0].config.body: must be a string (got number 5)",
  ],
  [
    "custom-response: request and response phases only",
    [],
    {
      on_tcp_connect: [{ actions: [{ type: "custom-response", config: { status_code: 200 } }] }],
      on_http_request: [{ actions: [{ type: "deny" }] }],
    },
    "on_tcp_connect[0].actions[0].type: custom-response is not allowed in on_tcp_connect (only in on_http_request, on_http_response)",
  ],
  [
    "deny: status_code 100-599 on HTTP",
    [],
    R([{ type: "deny", config: { status_code: 99 } }]),
    "on_http_request[0].actions[0].config.status_code: must be a whole number from 100 to 599",
  ],
  [
    "close-connection: tcp_connect and request phases only",
    [],
    {
      on_http_request: [{ actions: [{ type: "deny" }] }],
      on_http_response: [{ actions: [{ type: "close-connection" }] }],
    },
    "on_http_response[0].actions[0].type: close-connection is not allowed in on_http_response (only in on_tcp_connect, on_http_request)",
  ],
  [
    "restrict-ips: at least one of the three lists",
    [],
    R([{ type: "restrict-ips", config: { enforce: true } }]),
    "on_http_request[0].actions[0].config: give at least one of allow, deny or ip_policies",
  ],
  [
    "restrict-ips: CIDR lists",
    [],
    R([{ type: "restrict-ips", config: { allow: ["10.0.0.0/33"] } }]),
    "on_http_request[0].actions[0].config.allow[0]: must be a CIDR such as 10.0.0.0/8 or 2001:db8::/32",
  ],
  [
    "restrict-ips: ip_policies ipp_ ids",
    [],
    R([{ type: "restrict-ips", config: { ip_policies: ["pol_1"] } }]),
    "on_http_request[0].actions[0].config.ip_policies[0]: must be an IP policy id: ipp_ + 1–64 letters or digits",
  ],
  [
    "terminate-tls: on https/tls only",
    ["--protocol", "tcp"],
    { on_tcp_connect: [{ actions: [{ type: "terminate-tls" }] }, { actions: [{ type: "deny" }] }] },
    "on_tcp_connect[0].actions[0].type: terminate-tls is not allowed on a tcp endpoint (only on https, tls)",
  ],
  [
    "terminate-tls: min_version 1.2 or 1.3",
    [],
    {
      on_tcp_connect: [{ actions: [{ type: "terminate-tls", config: { min_version: "1.1" } }] }],
      on_http_request: [{ actions: [{ type: "deny" }] }],
    },
    'on_tcp_connect[0].actions[0].config.min_version: must be one of "1.2", "1.3"',
  ],
  [
    "terminate-tls: mutual_tls_verification_strategy",
    [],
    {
      on_tcp_connect: [{ actions: [{ type: "terminate-tls", config: { mutual_tls_verification_strategy: "maybe" } }] }],
      on_http_request: [{ actions: [{ type: "deny" }] }],
    },
    'on_tcp_connect[0].actions[0].config.mutual_tls_verification_strategy: must be one of "require-and-verify", "require-any", "request"',
  ],
  [
    "add-headers: 1-10 names",
    [],
    R([{ type: "add-headers", config: { headers: {} } }]),
    "on_http_request[0].actions[0].config.headers: at least 1 headers (got 0)",
  ],
  [
    "remove-headers: 1-10 names",
    [],
    R([{ type: "remove-headers", config: { headers: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"] } }]),
    "on_http_request[0].actions[0].config.headers: at most 10 headers (got 11)",
  ],
  [
    "compress-response: algorithms",
    [],
    {
      on_http_request: [{ actions: [{ type: "deny" }] }],
      on_http_response: [{ actions: [{ type: "compress-response", config: { algorithms: ["zip"] } }] }],
    },
    'on_http_response[0].actions[0].config.algorithms[0]: must be one of "br", "compress", "deflate", "gzip"',
  ],
  [
    "compress-response: response phase only",
    [],
    R([{ type: "compress-response" }]),
    "on_http_request[0].actions[0].type: compress-response is not allowed in on_http_request (only in on_http_response)",
  ],
  [
    "circuit-breaker: error_threshold 0-1",
    [],
    R([{ type: "circuit-breaker", config: { error_threshold: 1.5 } }]),
    "on_http_request[0].actions[0].config.error_threshold: must be a fraction from 0 to 1",
  ],
  [
    "circuit-breaker: error_threshold required",
    [],
    R([{ type: "circuit-breaker", config: {} }]),
    "on_http_request[0].actions[0].config.error_threshold: is required",
  ],
  [
    "circuit-breaker: volume_threshold 1-2e9",
    [],
    R([{ type: "circuit-breaker", config: { error_threshold: 0.5, volume_threshold: 0 } }]),
    "on_http_request[0].actions[0].config.volume_threshold: must be a whole number from 1 to 2000000000",
  ],
  [
    "circuit-breaker: durations 1s-2m",
    [],
    R([{ type: "circuit-breaker", config: { error_threshold: 0.5, window_duration: "3m" } }]),
    "on_http_request[0].actions[0].config.window_duration: must be from 1s to 2m",
  ],
  [
    "circuit-breaker: num_buckets 10",
    [],
    R([{ type: "circuit-breaker", config: { error_threshold: 0.5, num_buckets: 5 } }]),
    "on_http_request[0].actions[0].config.num_buckets: must be 10",
  ],
  [
    "a duration is a Go duration string",
    [],
    R([{ type: "circuit-breaker", config: { error_threshold: 0.5, tripped_duration: "30x" } }]),
    "on_http_request[0].actions[0].config.tripped_duration: must be a Go duration such as 30s, 2m or 1h30m",
  ],
  [
    "oauth: provider required",
    [],
    R([{ type: "oauth", config: { client_id: "x" } }]),
    "on_http_request[0].actions[0].config.provider: is required",
  ],
  [
    "openid-connect: issuer_url required",
    [],
    R([{ type: "openid-connect", config: { client_id: "x" } }]),
    "on_http_request[0].actions[0].config.issuer_url: is required",
  ],
  [
    "set-vars: a list of one-key objects",
    [],
    R([{ type: "set-vars", config: { vars: [{ a: 1, b: 2 }] } }]),
    "on_http_request[0].actions[0].config.vars[0]: each item sets exactly one variable (got 2)",
  ],
  [
    "config passed through, phase checked (url-rewrite)",
    ["--protocol", "tcp"],
    {
      on_tcp_connect: [
        { actions: [{ type: "url-rewrite", config: { anything: 1 } }] },
        { actions: [{ type: "deny" }] },
      ],
    },
    "on_tcp_connect[0].actions[0].type: url-rewrite is not allowed in on_tcp_connect (only in on_http_request)",
  ],
  [
    "rate-limit and log configs checked as their references say",
    [],
    R([
      {
        type: "rate-limit",
        config: { name: "r", algorithm: "sliding_window", capacity: 0, rate: "60s", bucket_key: ["req.host"] },
      },
      { type: "log", config: { metadata: { x: 1 } } },
    ]),
    "on_http_request[0].actions[0].config.capacity: must be a whole number from 1 to 2000000000",
  ],
  [
    "any other type refused",
    [],
    R([{ type: "teleport" }]),
    'on_http_request[0].actions[0].type: unknown action type "teleport"; the types are verify-webhook, forward-internal, custom-response, deny, close-connection, restrict-ips, terminate-tls, add-headers, remove-headers, compress-response, circuit-breaker, oauth, openid-connect, set-vars, url-rewrite, redirect, rate-limit, log, basic-auth, jwt-validation, http-request, owasp-crs-request, owasp-crs-response, request-body-find-replace, response-body-find-replace, sse-find-replace',
  ],
  [
    "expressions are strings",
    [],
    { on_http_request: [{ expressions: [5], actions: [{ type: "deny" }] }, { actions: [{ type: "deny" }] }] },
    "on_http_request[0].expressions[0]: must be a string (a CEL expression)",
  ],
  [
    "an unbalanced quote refused",
    [],
    {
      on_http_request: [
        { expressions: ['req.url.path == "/a'], actions: [{ type: "deny" }] },
        { actions: [{ type: "deny" }] },
      ],
    },
    'on_http_request[0].expressions[0]: column 17: syntax error: unbalanced quote: this " is never closed',
  ],
  [
    "an unbalanced bracket refused",
    [],
    {
      on_http_request: [
        { expressions: ["(req.url.path == '/a'"], actions: [{ type: "deny" }] },
        { actions: [{ type: "deny" }] },
      ],
    },
    "on_http_request[0].expressions[0]: column 1: syntax error: unbalanced bracket: this ( is never closed",
  ],
];

describe("policy check holds each validator rule (in-process, one policy per rule)", () => {
  it.each(RULES)("%s", async (_rule, flags, doc, line) => {
    const r = await bare([policyFile(doc), ...flags]);
    expect(r.stdout).toBe(line);
    expect(r.exitCode).toBe(line === "ok" ? 0 : 2);
  });
});

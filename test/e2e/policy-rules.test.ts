// The rules of "Traffic Policy and Cloud Endpoints" (the contract), each held end to end: the
// real bin's `policy check` on one policy per rule (the whole line it prints, with its place),
// the real emulator's answers to a policy it refuses (`edgectl api POST /endpoints`: 400 and
// the code of the problem), and the endpoint URL rules of `endpoint create` (exit 2, nothing
// sent: the emulator's endpoint list stays empty). See /work/research/audit-policy.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sandbox } from "../helpers/cli.js";
import { useEmulator } from "./leaving-edges.support.js";
import { runCli } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "edgectl-policy-rules-"));
const cli = sandbox();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  cli.cleanup();
});
let n = 0;
const file = (doc: unknown) => {
  const path = join(dir, `p${++n}.json`);
  writeFileSync(path, typeof doc === "string" ? doc : JSON.stringify(doc));
  return path;
};
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
    "config passed through (rate-limit, log)",
    [],
    R([
      { type: "rate-limit", config: { anything: [1, 2] } },
      { type: "log", config: { x: 1 } },
    ]),
    "ok",
  ],
  [
    "any other type refused",
    [],
    R([{ type: "teleport" }]),
    'on_http_request[0].actions[0].type: unknown action type "teleport"; the types are verify-webhook, forward-internal, custom-response, deny, close-connection, restrict-ips, terminate-tls, add-headers, remove-headers, compress-response, circuit-breaker, oauth, openid-connect, set-vars, url-rewrite, redirect, rate-limit, log, basic-auth, jwt-validation, http-request',
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
    'on_http_request[0].expressions[0]: unbalanced quote: the " at character 17 is never closed',
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
    "on_http_request[0].expressions[0]: unbalanced bracket: a ( is never closed",
  ],
];

describe("policy check holds each validator rule (the real bin, one policy per rule)", () => {
  it.each(RULES)("%s", async (_rule, flags, doc, line) => {
    const r = await runCli(cli, ["policy", "check", file(doc), ...flags]);
    expect(r.stdout).toBe(line);
    expect(r.exitCode).toBe(line === "ok" ? 0 : 2);
  });
});

describe("the emulator refuses a policy with 400 and the code of its problem", () => {
  const emu = useEmulator();
  const DENY = { actions: [{ type: "deny" }] };
  it.each([
    ["not parsed", "https://a.example.com", "on_http_request: [", "ERR_NGROK_2201"],
    [
      "an action not allowed in the phase",
      "https://a.example.com",
      { on_http_request: [DENY], on_http_response: [{ actions: [{ type: "deny" }] }] },
      "ERR_NGROK_2202",
    ],
    [
      "an unreachable action",
      "https://a.example.com",
      { on_http_request: [{ actions: [{ type: "deny" }, { type: "log" }] }] },
      "ERR_NGROK_2207",
    ],
    [
      "a phase not allowed for the protocol",
      "tcp://1.tcp.ngrok.io:20000",
      { on_http_request: [DENY] },
      "ERR_NGROK_2230",
    ],
    [
      "not guaranteed to handle traffic",
      "https://a.example.com",
      { on_http_request: [{ expressions: ["true"], actions: [{ type: "deny" }] }] },
      "ERR_NGROK_2235",
    ],
    [
      "a config problem (with its place)",
      "https://a.example.com",
      R([{ type: "custom-response", config: { status_code: 600 } }]),
      "ERR_NGROK_2201",
    ],
  ])("%s: %s", async (_what, url, doc, code) => {
    const body = { type: "cloud", url, traffic_policy: typeof doc === "string" ? doc : JSON.stringify(doc) };
    const r = await emu.run(["api", "POST", "/endpoints", "--input", "-"], JSON.stringify(body));
    expect(r.exitCode).toBe(1);
    const answer = JSON.parse(r.stdout) as { error_code: string; status_code: number; msg: string };
    expect(answer).toMatchObject({ error_code: code, status_code: 400 });
    if (code === "ERR_NGROK_2201" && typeof doc !== "string")
      expect(answer.msg).toContain("on_http_request[0].actions[0].config.status_code");
    expect(await emu.endpoints()).toEqual([]);
  });
});

describe("endpoint create: the endpoint URL rules (exit 2, nothing sent)", () => {
  const emu = useEmulator();
  const HTTP = file({ on_http_request: [{ actions: [{ type: "deny" }] }] });
  const TCP = file({ on_tcp_connect: [{ actions: [{ type: "deny" }] }] });
  it.each([
    ["https on a port other than 443", ["--url", "https://a.example.com:8443"], HTTP, /--url: .*443 only/],
    ["tls on a port other than 443", ["--url", "tls://a.example.com:8443"], TCP, /--url: .*443 only/],
    ["http on a port other than 80", ["--url", "http://a.example.com:8080"], HTTP, /--url: .*80 only/],
    ["tcp without a port", ["--url", "tcp://a.example.com"], TCP, /--url: .*port/],
    ["a .internal host on a public binding", ["--url", "https://api.internal"], HTTP, /--url: .*internal/],
    [
      "an internal URL with a path",
      ["--url", "https://api.internal/x", "--binding", "internal"],
      HTTP,
      /--url: .*path/,
    ],
    [
      "an internal host of more than 5 labels",
      ["--url", "https://a.b.c.d.e.f.internal", "--binding", "internal"],
      HTTP,
      /--url: /,
    ],
    [
      "an internal tcp URL without a port",
      ["--url", "tcp://db.internal", "--binding", "internal"],
      TCP,
      /--url: .*port/,
    ],
  ])("refuses %s", async (_what, args, policy, message) => {
    const r = await emu.run(["endpoint", "create", ...args, "--traffic-policy-file", policy]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(await emu.endpoints()).toEqual([]);
  });

  it.each([
    ["https on 443", ["--url", "https://ok.example.com:443"], HTTP],
    ["tls on 443", ["--url", "tls://ok.example.com:443"], TCP],
    ["tls without a port (443)", ["--url", "tls://tls.example.com"], TCP],
    ["http on 80", ["--url", "http://ok.example.com"], HTTP],
    ["tcp with a port", ["--url", "tcp://1.tcp.ngrok.io:20001"], TCP],
    ["an internal URL with --binding internal", ["--url", "https://api.internal", "--binding", "internal"], HTTP],
  ])("creates %s", async (_what, args, policy) => {
    const r = await emu.run(["endpoint", "create", ...args, "--traffic-policy-file", policy, "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).id).toMatch(/^ep_/);
  });
});

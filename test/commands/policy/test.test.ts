// `edgectl policy test`: (a) the command line → options; (b) options + a policy → what it
// prints and its exit (contract, "Testing a policy"): the whole CLI in-process for the trace,
// -o json, problems and cases, and runTest with a small local webhook scheme for --sign (the
// real schemes are src/webhooks', wired by src/commands/policy/schemes.ts).
import { describe, expect, it } from "vitest";
import { runTest, test as testCommand, type TestOptions } from "../../../src/commands/policy/test.js";
import { appSandbox } from "../../helpers/app.js";
import { useFaultServer, useScratch } from "../../e2e/support.js";
import { fakeDeps } from "../fake-deps.js";
import { parse, refusal } from "../parse.js";
import { testScheme } from "../../policy/evaluate/support.js";

const BASE: TestOptions = {
  policy: "p.yml",
  upstreamStatus: 200,
  protocol: "https",
  internal: false,
  agent: false,
  showSecret: false,
  secretStdin: false,
};

describe("policy test argv → options", () => {
  it.each([
    [["p.yml", "--request", "GET https://a.example.com/"], { ...BASE, request: "GET https://a.example.com/" }],
    [
      [
        "-",
        "--request",
        "POST https://a.example.com/x",
        "-H",
        "X-A: 1",
        "--header",
        "x-b: 2",
        "--body",
        "{}",
        "--client-ip",
        "10.0.0.1",
        "--time",
        "2026-01-01T00:00:00Z",
        "--identity",
        "email=a@b.c",
        "--identity",
        "name=A",
        "--upstream-status",
        "503",
        "--show-secret",
        "--agent",
      ],
      {
        ...BASE,
        policy: "-",
        request: "POST https://a.example.com/x",
        header: ["X-A: 1", "x-b: 2"],
        body: "{}",
        clientIp: "10.0.0.1",
        time: "2026-01-01T00:00:00Z",
        identity: ["email=a@b.c", "name=A"],
        upstreamStatus: 503,
        showSecret: true,
        agent: true,
      },
    ],
    [
      ["p.yml", "--cases", "c.yml", "--protocol", "http", "--internal"],
      { ...BASE, cases: "c.yml", protocol: "http", internal: true },
    ],
    [
      ["p.yml", "--request", "GET https://h.example.com/", "--sign", "github", "--secret", "s"],
      { ...BASE, request: "GET https://h.example.com/", sign: "github", secret: "s" },
    ],
  ])("reads %j", async (argv, options) => {
    expect((await parse(testCommand, argv)).options).toEqual(options);
  });

  it.each([
    [["p.yml"], /--request, --cases: give exactly one/],
    [["p.yml", "--request", "GET https://a/", "--cases", "c.yml"], /--request, --cases: give exactly one/],
    [["p.yml", "--request", "GET https://a/", "--internal", "--agent"], /--internal, --agent/],
    [["p.yml", "--request", "GET https://a/", "--body", "x", "--body-file", "f"], /--body, --body-file/],
    [["p.yml", "--request", "GET https://a/", "--upstream-status", "99"], /^--upstream-status: .*100 to 599/],
    [["p.yml", "--request", "GET https://a/", "--protocol", "ftp"], /^--protocol: .*https, http, tls or tcp/],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(testCommand, argv)).message).toMatch(message);
  });
});

const suite = useFaultServer("key_policy", appSandbox);
const { file } = useScratch("edgectl-policy-test-");
const run = async (args: string[], opts: { input?: string } = {}) => {
  const r = await suite.cli.run(["policy", "test", ...args], opts);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
};

const GATE = file(
  "gate.yml",
  `on_http_request:
  - name: admin only from the office
    expressions:
      - req.url.path.startsWith('/admin')
      - "!inCidrRange(conn.client_ip, '203.0.113.0/24')"
    actions:
      - type: deny
        config: {status_code: 404}
  - name: app
    actions:
      - type: add-headers
        config:
          headers: {x-client: "\${conn.client_ip}", authorization: "Bearer t0ps3cret"}
      - type: forward-internal
        config: {url: "https://app.internal"}
`,
);

describe("edgectl policy test --request (in-process)", () => {
  it("prints the trace: each rule, each expression's value, each action's resolved config (secrets masked), the outcome and units", async () => {
    const r = await run([GATE, "--request", "GET https://shop.example.com/admin/users", "--client-ip", "198.51.100.7"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "on_http_request",
      '  on_http_request[0] "admin only from the office": ran',
      "    req.url.path.startsWith('/admin') → true",
      "    !inCidrRange(conn.client_ip, '203.0.113.0/24') → true",
      '    deny {"status_code":404}',
      "      denied (404)",
      '  on_http_request[1] "app": not reached (the phase had ended)',
      'outcome: deny 404 (on_http_request "admin only from the office", deny)',
      "units: 0",
    ]);
    expect(suite.server.requests).toEqual([]);
  });

  it("masks secret places in the resolved config unless --show-secret", async () => {
    const r = await run([GATE, "--request", "GET https://shop.example.com/", "--client-ip", "203.0.113.9"]);
    expect(r.stdout).toContain('add-headers {"headers":{"x-client":"203.0.113.9","authorization":"********"}}');
    expect(r.stdout).not.toContain("t0ps3cret");
    expect(r.stdout).toContain(
      'outcome: forward to https://app.internal; answered 200 (on_http_request "app", forward-internal)',
    );
    const shown = await run([GATE, "--request", "GET https://shop.example.com/", "--show-secret"]);
    expect(shown.stdout).toContain('"authorization":"Bearer t0ps3cret"');
  });

  it("prints {outcome, trace, vars, units} with -o json; by.rule is the name or the place", async () => {
    const r = await run([GATE, "--request", "GET https://shop.example.com/admin", "-o", "json"]);
    const j = JSON.parse(r.stdout) as {
      outcome: unknown;
      trace: { rule: string; ran: boolean }[];
      vars: unknown;
      units: number;
    };
    expect(j.outcome).toEqual({
      kind: "deny",
      status: 404,
      headers: {},
      by: { phase: "on_http_request", rule: "admin only from the office", action: "deny" },
    });
    expect(j.trace.map((t) => [t.rule, t.ran])).toEqual([
      ["admin only from the office", true],
      ["app", false],
    ]);
    expect(j.vars).toEqual({});
    expect(j.units).toBe(0);
  });

  it("reads the policy from stdin with -, and refuses an invalid policy with check's problems (exit 2)", async () => {
    const ok = await run(["-", "--request", "GET https://a.example.com/"], {
      input: '{"on_http_request":[{"actions":[{"type":"deny"}]}]}',
    });
    expect(ok.stdout).toContain("outcome: deny 403");
    const bad = await run(["-", "--request", "GET https://a.example.com/"], {
      input: "on_http_request:\n  - actions: [{type: nope}]\n",
    });
    expect(bad.stdout).toMatch(/^on_http_request\[0\]\.actions\[0\]\.type: unknown action type "nope"/);
    expect(bad.stderr).toBe("error: stdin: the policy has 1 problem (for a public https endpoint)");
    expect(bad.exitCode).toBe(2);
  });

  it.each([
    [["--request", "GET /relative"], /^error: --request: must be "<METHOD> <URL>"/],
    [["--request", "GET https://a/", "-H", "no colon"], /^error: --header: "no colon" is not "Name: value"/],
    [["--request", "GET https://a/", "--time", "yesterday"], /^error: --time: "yesterday" is not an RFC 3339 time/],
    [
      ["--request", "GET https://a/", "--client-ip", "1.2.3"],
      /^error: --client-ip: "1.2.3" is not an IPv4 or IPv6 address/,
    ],
    [["--request", "GET https://a/", "--identity", "nobody"], /^error: --identity: "nobody" is not key=value/],
    [
      ["--request", "GET https://a/", "--sign", "nope", "--secret", "s"],
      /^error: --sign: edgectl cannot sign for provider "nope"/,
    ],
  ])("refuses a bad request %j (exit 2)", async (args, message) => {
    const r = await run([GATE, ...args]);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(2);
  });

  it("runs on_http_response over --upstream-status and works out the agent's forward", async () => {
    const p = file(
      "agent.yml",
      "on_http_response:\n  - expressions: ['res.status_code >= 500']\n    actions:\n      - type: custom-response\n        config: {status_code: 503, body: down}\n",
    );
    const down = await run([p, "--agent", "--request", "GET https://a.example.com/", "--upstream-status", "502"]);
    expect(down.stdout).toContain("on_http_response (the upstream answered 502)");
    expect(down.stdout).toContain('outcome: response 503 (on_http_response "on_http_response[0]", custom-response)');
    const up = await run([p, "--agent", "--request", "GET https://a.example.com/"]);
    expect(up.stdout).toContain("outcome: forward to the upstream (https://a.example.com/); answered 200");
  });
});

describe("policy test --sign (runTest with a local scheme)", () => {
  const HOOK = file(
    "hook.yml",
    "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: s3cret}\n      - type: forward-internal\n        config: {url: 'https://hooks.internal'}\n",
  );
  const opts = (more: Partial<TestOptions>): TestOptions => ({
    ...BASE,
    policy: HOOK,
    request: "POST https://hooks.example.com/gh",
    body: '{"a":1}',
    sign: "github",
    ...more,
  });
  const schemes = (p: string) => (p === "github" ? testScheme : undefined);

  it("signs the request as the provider would, and the policy verifies it", async () => {
    const deps = fakeDeps();
    await runTest(opts({ secret: "s3cret" }), deps, schemes);
    expect(deps.out.text).toContain("verified (github)");
    expect(deps.out.text).toContain("outcome: forward to https://hooks.internal");
  });

  it("shows a refused webhook: signed with another secret, 403 and why", async () => {
    const deps = fakeDeps({ env: { EDGECTL_WEBHOOK_SECRET: "wrong" } });
    await runTest(opts({}), deps, schemes);
    expect(deps.out.text).toContain("not verified: the signature is over other bytes or another secret");
    expect(deps.out.text).toContain('outcome: deny 403 (on_http_request "on_http_request[0]", verify-webhook)');
    expect(deps.out.text).not.toContain("s3cret");
  });
});

describe("edgectl policy test --cases (in-process)", () => {
  const POLICY = file(
    "limits.yml",
    `on_http_request:
  - name: limit
    actions:
      - type: rate-limit
        config: {name: per key, algorithm: sliding_window, capacity: 1, rate: 60s, bucket_key: ["getReqHeader('x-key')"]}
  - name: app
    actions:
      - type: set-vars
        config: {vars: [{path: "\${req.url.path}"}]}
      - type: custom-response
        config: {status_code: 200, body: "ok \${vars.path}", headers: {x-by: app}}
`,
  );
  const CASES = file(
    "cases.yml",
    `cases:
  - name: first request passes
    request: {method: GET, url: "https://api.example.com/a", headers: {x-key: k}, time: "2026-01-01T00:00:00Z"}
    expect: {outcome: response, status: 200, body: ok /a, headers: {x-by: app, x-none: null}, rules: [limit, app], vars: {path: /a}}
  - name: second within the minute is limited
    request: {method: GET, url: "https://api.example.com/a", headers: {x-key: k}, time: "2026-01-01T00:00:30Z"}
    expect: {outcome: deny, status: 429, headers: {retry-after: "30"}}
  - name: a minute later it passes again
    request: {method: GET, url: "https://api.example.com/a", headers: {x-key: k}, time: "2026-01-01T00:01:01Z"}
    expect: {status: 200}
`,
  );

  it("prints PASS per case and N passed, M failed, with state shared across cases by each case's time (exit 0)", async () => {
    const r = await run([POLICY, "--cases", CASES]);
    expect(r.stdout.split("\n")).toEqual([
      "PASS first request passes",
      "PASS second within the minute is limited",
      "PASS a minute later it passes again",
      "3 passed, 0 failed",
    ]);
    expect(r.exitCode).toBe(0);
  });

  it("prints FAIL with expected and got, and exits 1", async () => {
    const failing = file(
      "failing.yml",
      `cases:
  - name: wrong
    request: {method: GET, url: "https://api.example.com/b", headers: {x-key: z}}
    expect: {outcome: deny, status: 403, body: nope, rules: [app]}
`,
    );
    const r = await run([POLICY, "--cases", failing]);
    expect(r.stdout.split("\n")).toEqual([
      'FAIL wrong: expected outcome deny, got response; expected status 403, got 200; expected body "nope", got "ok /b"; expected rules ["app"], got ["limit","app"]',
      "0 passed, 1 failed",
    ]);
    expect(r.stderr).toBe("error: 1 of 1 case failed");
    expect(r.exitCode).toBe(1);
    // The kind of a check that found what it looks for (src/errors.ts CheckFailedError), as migrate --verify's.
    const json = await run([POLICY, "--cases", failing, "-o", "json"]);
    expect([json.exitCode, JSON.parse(json.stderr)]).toEqual([
      1,
      { error: { kind: "check", message: "1 of 1 case failed" } },
    ]);
  });

  it("refuses an invalid cases file (exit 2), naming the place", async () => {
    const bad = file(
      "bad.yml",
      "cases:\n  - name: x\n    request: {method: GET, url: 'https://a/'}\n    expect: {outcom: deny}\n",
    );
    const r = await run([POLICY, "--cases", bad]);
    expect(r.stderr).toMatch(/^error: --cases: .*bad\.yml: cases\[0\]\.expect: unknown field outcom$/);
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(2);
  });

  it("prints the cases as JSON with -o json", async () => {
    const r = await run([POLICY, "--cases", CASES, "--json"]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      passed: 3,
      failed: 0,
      cases: [{ name: "first request passes", passed: true }, {}, {}],
    });
  });
});

// `edgectl endpoint create` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../../helpers/app.js";
import { useEmulator } from "../../e2e/leaving-edges.support.js";
import { parseJsonError, useScratch } from "../../e2e/support.js";
import { useEndpointApi, YAML_POLICY } from "./support.js";
import { create as argvDef } from "../../../src/commands/endpoint/create.js";
import { parse as parseArgv, refusal } from "../parse.js";

describe("endpoint create argv → options", () => {
  it.each([
    [
      ["--url", "https://a.example.com", "--traffic-policy-file", "p.yml"],
      { url: "https://a.example.com", trafficPolicyFile: "p.yml", pooling: false, showSecret: false, dryRun: false },
    ],
    [
      [
        "--url",
        "https://a.example.com",
        "--traffic-policy-file",
        "p.yml",
        "--binding",
        "internal",
        "--pooling",
        "--description",
        "d",
        "--metadata",
        "m",
      ],
      {
        url: "https://a.example.com",
        trafficPolicyFile: "p.yml",
        description: "d",
        metadata: "m",
        binding: "internal",
        pooling: true,
        showSecret: false,
        dryRun: false,
      },
    ],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([
    [["--traffic-policy-file", "p.yml"], "--url: required: the endpoint's URL (e.g. https://shop.example.com)"],
    [
      ["--url", "https://a.example.com", "--traffic-policy-file", "p.yml", "--binding", "kubernetes"],
      '--binding: "kubernetes" must be "public" or "internal"',
    ],
  ] as [string[], string][])("refuses %j", async (argv, message) => {
    expect((await refusal(argvDef, argv)).message).toBe(message);
  });
});

const { suite, file, lines } = useEndpointApi();

describe("endpoint create", () => {
  it("POSTs the policy text as written (YAML stays YAML) with only the fields given", async () => {
    const policy = file("p.yml", YAML_POLICY);
    const r = await suite.run([
      "endpoint",
      "create",
      "--url",
      "https://shop.example.com",
      "--traffic-policy-file",
      policy,
      "--description",
      "shop",
      "--pooling",
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual(["POST /endpoints"]);
    expect(JSON.parse(suite.server.requests[0]!.body)).toEqual({
      type: "cloud",
      url: "https://shop.example.com",
      traffic_policy: YAML_POLICY,
      description: "shop",
      pooling_enabled: true,
    });
    // Printed as the API returned it, the secret alone masked where it stands.
    const printed = JSON.parse(r.stdout) as { id: string; traffic_policy: string };
    expect(printed.id).toBe("ep_1");
    expect(printed.traffic_policy).toBe(YAML_POLICY.replace("secret: internal", 'secret: "********"'));
  });

  it("sends bindings [internal] with --binding internal; the table shows the policy as YAML, masked", async () => {
    const policy = file(
      "internal.json",
      '{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{"provider":"github","secret":"whsec_9"}},{"type":"deny"}]}]}',
    );
    const r = await suite.run([
      "endpoint",
      "create",
      "--url",
      "https://api.internal",
      "--binding",
      "internal",
      "--traffic-policy-file",
      policy,
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(suite.server.requests[0]!.body).bindings).toEqual(["internal"]);
    expect(r.stdout).toMatch(/^FIELD\s+VALUE\nID\s+ep_1\nURL\s+https:\/\/api\.internal\n/);
    // (the output's last line end is dropped by the runner)
    expect(r.stdout).toMatch(
      /\nTRAFFIC POLICY\non_http_request:\n {2}- actions:\n {6}- type: verify-webhook\n {8}config:\n {10}provider: github\n {10}secret: "\*{8}"\n {6}- type: deny$/,
    );
    expect(r.stdout).not.toContain("whsec_9");
  });

  it("--debug logs the request and the answer with the policy's secret redacted", async () => {
    const policy = file("dbg.yml", YAML_POLICY.replace("secret: internal", "secret: whsec_dbg_7Hq2"));
    const r = await suite.run([
      "endpoint",
      "create",
      "--url",
      "https://shop.example.com",
      "--traffic-policy-file",
      policy,
      "--debug",
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("POST");
    expect(`${r.stdout}${r.stderr}`).not.toContain("whsec_dbg_7Hq2");
    expect(JSON.parse(suite.server.requests[0]!.body).traffic_policy).toContain("whsec_dbg_7Hq2");
  });

  it.each([
    ["a URL that is no endpoint URL", ["--url", "ftp://shop.example.com"], YAML_POLICY, /--url: /],
    [
      "a policy that is not JSON or YAML",
      ["--url", "https://a.example.com"],
      "on_http_request: [\n",
      /--traffic-policy-file: /,
    ],
    [
      "a policy that is not an object",
      ["--url", "https://a.example.com"],
      '"deny everything"',
      /--traffic-policy-file: /,
    ],
  ])("refuses %s: exit 2, nothing sent", async (_what, url, text, message) => {
    const r = await suite.run(["endpoint", "create", ...url, "--traffic-policy-file", file("bad.yml", text)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(suite.server.requests).toEqual([]);
  });

  // What only the real validator (src/policy) refuses.
  it.each([
    [
      "a CEL expression naming an unknown variable (issue 27 item 3)",
      "https://a.example.com",
      "on_http_request:\n  - expressions: ['req.url.pth == \"/x\"']\n    actions:\n      - type: deny\n        config: {status_code: 403}\n  - actions:\n      - type: deny\n",
      /on_http_request\[0\]\.expressions\[0\]: column 1: unknown name req\.url\.pth.*did you mean req\.url\.path\?/,
    ],
    [
      "a verify-webhook provider not in the list",
      "https://a.example.com",
      "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: nope, secret: s}\n      - type: deny\n        config: {status_code: 403}\n",
      /provider/,
    ],
    [
      "a tcp URL without a port",
      "tcp://a.example.com",
      "on_tcp_connect:\n  - actions:\n      - type: close-connection\n",
      /--url: .*port/,
    ],
    ["an internal URL without --binding internal", "https://api.internal", YAML_POLICY, /--url: .*internal/],
  ])("refuses %s: exit 2, nothing sent", async (_what, url, text, message) => {
    const r = await suite.run(["endpoint", "create", "--url", url, "--traffic-policy-file", file("v.yml", text)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(suite.server.requests).toEqual([]);
  });

  it("sends a policy with warnings only, and prints them on stderr (issue 27 item 4)", async () => {
    const text =
      "on_http_request:\n  - expressions: ['req.url.path.startsWith(\"/x\")']\n    actions:\n      - type: deny\n";
    const r = await suite.run([
      "endpoint",
      "create",
      "--url",
      "https://a.example.com",
      "--traffic-policy-file",
      file("w.yml", text),
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "warning: --traffic-policy-file: on_http_request[0].expressions: not guaranteed to handle traffic: the last rule of a public endpoint's on_http_request has expressions, so some requests may reach no terminating action",
    );
    expect(JSON.parse(suite.server.requests[0]!.body).traffic_policy).toBe(text);
  });

  it("lists every problem: -o json carries them in details.problems", async () => {
    const r = await suite.run(["endpoint", "create", "--url", "ftp://x", "--traffic-policy-file", "-", "-o", "json"], {
      input: "[1, 2]",
    });
    expect(r.exitCode).toBe(2);
    const { error } = parseJsonError(r.stderr);
    expect(error.kind).toBe("usage");
    const problems = (error.details as { problems: { flag: string }[] }).problems;
    expect(problems.map((p) => p.flag)).toEqual(["--url", "--traffic-policy-file"]);
    expect(suite.server.requests).toEqual([]);
  });

  it("--dry-run prints the POST with the policy's secret masked where it stands, and sends nothing", async () => {
    const r = await suite.run([
      "endpoint",
      "create",
      "--url",
      "https://shop.example.com",
      "--traffic-policy-file",
      file("p.yml", YAML_POLICY),
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests).toEqual([]);
    expect(JSON.parse(r.stdout).request.body).toEqual({
      type: "cloud",
      url: "https://shop.example.com",
      traffic_policy: YAML_POLICY.replace("secret: internal", 'secret: "********"'),
    });
  });
});

describe("endpoint create: the endpoint URL rules (exit 2, nothing sent)", () => {
  const emu = useEmulator(undefined, appSandbox);
  const scratch = useScratch("edgectl-endpoint-create-");
  const HTTP = scratch.file("http.json", JSON.stringify({ on_http_request: [{ actions: [{ type: "deny" }] }] }));
  const TCP = scratch.file("tcp.json", JSON.stringify({ on_tcp_connect: [{ actions: [{ type: "deny" }] }] }));
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

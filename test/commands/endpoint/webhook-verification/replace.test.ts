// `edgectl endpoint webhook-verification replace` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { useEndpointApi, JSON_POLICY, YAML_POLICY } from "../support.js";
import { replace as argvDef } from "../../../../src/commands/endpoint/webhook-verification.js";
import { parse as parseArgv, refusal } from "../../parse.js";

describe("endpoint webhook-verification replace argv → options", () => {
  it.each([
    [
      ["ep_1", "--provider", "github", "--secret", "s"],
      { id: "ep_1", provider: "github", secretStdin: false, secret: "s", showSecret: false, dryRun: false },
    ],
    [
      ["ep_1", "--provider", "sns", "--rule", "hooks", "--dry-run"],
      { id: "ep_1", provider: "sns", secretStdin: false, rule: "hooks", showSecret: false, dryRun: true },
    ],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([
    [["ep_1"], "--provider: required (e.g. github, stripe, slack, sns)"],
    [
      ["ep_1", "--provider", "nope", "--secret", "s"],
      '--provider: "nope" is not a supported provider; the 69 providers:',
    ],
  ] as [string[], string][])("refuses %j", async (argv, message) => {
    expect((await refusal(argvDef, argv)).message).toBe(message);
  });
});

const { suite, lines, seed } = useEndpointApi();

describe("endpoint webhook-verification replace", () => {
  it("changes only the provider and secret of the one verify-webhook action: comments and layout kept", async () => {
    const a = seed();
    const r = await suite.run(
      ["endpoint", "webhook-verification", "replace", a, "--provider", "Stripe", "--secret-stdin"],
      {
        input: "whsec_new\n",
      },
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`GET /endpoints/${a}`, `PATCH /endpoints/${a}`]);
    expect(JSON.parse(suite.server.requests[1]!.body)).toEqual({
      traffic_policy: YAML_POLICY.replace("provider: github   #", "provider: stripe   #").replace(
        "secret: internal",
        'secret: "whsec_new"',
      ),
    });
    expect(r.stdout).not.toContain("whsec_new");
  });

  it("JSON stays JSON; --rule picks the action when there are several", async () => {
    const a = seed(JSON_POLICY);
    const r = await suite.run([
      "endpoint",
      "webhook-verification",
      "replace",
      a,
      "--provider",
      "github",
      "--secret",
      "gh-1",
      "--rule",
      "b",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(suite.server.requests[1]!.body)).toEqual({
      traffic_policy: JSON_POLICY.replace(
        '"provider": "stripe", "secret": "s-b"',
        '"provider": "github", "secret": "gh-1"',
      ),
    });
  });

  it("several actions and no --rule: exit 2 naming the rules, only the read sent", async () => {
    const a = seed(JSON_POLICY);
    const r = await suite.run([
      "endpoint",
      "webhook-verification",
      "replace",
      a,
      "--provider",
      "github",
      "--secret",
      "x",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/2 verify-webhook actions, in rules "a", "b": name one with --rule/);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
  });

  it("no verify-webhook action (or none in the rule named): exit 2", async () => {
    const a = seed(
      '{"on_http_request":[{"name":"only","actions":[{"type":"custom-response","config":{"status_code":200}}]}]}',
    );
    const none = await suite.run([
      "endpoint",
      "webhook-verification",
      "replace",
      a,
      "--provider",
      "github",
      "--secret",
      "x",
    ]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/no verify-webhook action/);
    const b = seed(JSON_POLICY);
    const wrong = await suite.run([
      "endpoint",
      "webhook-verification",
      "replace",
      b,
      "--provider",
      "github",
      "--secret",
      "x",
      "--rule",
      "c",
    ]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/--rule: no rule named "c"/);
    expect(lines().filter((l) => l.startsWith("PATCH"))).toEqual([]);
  });

  it("sns needs a secret here (ngrok's verify-webhook does); --dry-run reads and prints the PATCH masked", async () => {
    const a = seed();
    const missing = await suite.run(["endpoint", "webhook-verification", "replace", a, "--provider", "sns"]);
    expect(missing.exitCode).toBe(2);
    expect(suite.server.requests).toEqual([]);
    const r = await suite.run([
      "endpoint",
      "webhook-verification",
      "replace",
      a,
      "--provider",
      "sns",
      "--secret",
      "github",
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
    expect(JSON.parse(r.stdout).request.body.traffic_policy).toBe(
      YAML_POLICY.replace("provider: github   #", "provider: sns   #").replace(
        "secret: internal",
        'secret: "********"',
      ),
    );
  });
});

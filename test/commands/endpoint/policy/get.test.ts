// `edgectl endpoint policy get`: what a command line gives the command (through commander, with a
// spy: test/commands/parse.ts), and what the command prints for an answer of a stand-in API (the
// whole CLI in-process against a fault server that answers as the API does).
import { describe, expect, it } from "vitest";
import { get } from "../../../../src/commands/endpoint/policy/get.js";
import { appSandbox } from "../../../helpers/app.js";
import { apiError, json } from "../../../helpers/fault-server.js";
import { useFaultServer } from "../../../e2e/support.js";
import { parse, refusal } from "../../parse.js";

describe("endpoint policy get: command line → options", () => {
  it.each([
    [["ep_1"], { id: "ep_1", showSecret: false }],
    [["ep_1", "--show-secret"], { id: "ep_1", showSecret: true }],
    [["--show-secret", "ep_2abc"], { id: "ep_2abc", showSecret: true }],
  ])("%j → %j", async (argv, options) => {
    expect((await parse(get, argv)).options).toEqual(options);
  });

  it.each([
    [[], /missing required argument 'ep-id'/],
    [["bkdfo_1"], /^<ep-id>: "bkdfo_1" must be ep_/],
    [["ep_1", "ep_2"], /too many arguments/],
    [["ep_1", "--bogus"], /unknown option '--bogus'/],
  ])("%j is refused: %s", async (argv, message) => {
    expect((await refusal(get, argv)).message).toMatch(message);
  });
});

const KEY = "key_policy_get_1234";
const suite = useFaultServer(KEY, appSandbox);

const YAML = `# the hooks
on_http_request:
  - name: hooks
    actions:
      - type: verify-webhook
        config: {provider: github, secret: "s3cr3t-Zq8"}
      - type: forward-internal
        config: {url: https://hooks.internal}
`;
const JSON_TEXT = JSON.stringify({
  on_http_request: [{ actions: [{ type: "verify-webhook", config: { provider: "stripe", secret: "whsec_Zq8" } }] }],
});
const endpoint = (id: string, traffic_policy: string | null) => ({
  id,
  url: "https://shop.example.com",
  type: "cloud",
  traffic_policy,
});

describe("endpoint policy get: options and the API's answer → output", () => {
  it.each([
    {
      name: "YAML as stored, comments and layout kept, the secret masked where it stands",
      args: [],
      policy: YAML,
      stdout: YAML.replace('"s3cr3t-Zq8"', '"********"').trimEnd(),
    },
    { name: "--show-secret: exactly as stored", args: ["--show-secret"], policy: YAML, stdout: YAML.trimEnd() },
    {
      name: "JSON stays JSON, masked",
      args: [],
      policy: JSON_TEXT,
      stdout: JSON_TEXT.replace('"whsec_Zq8"', '"********"'),
    },
    {
      name: "-o json: {id, traffic_policy}, masked",
      args: ["-o", "json"],
      policy: YAML,
      stdout: JSON.stringify({ id: "ep_1", traffic_policy: YAML.replace('"s3cr3t-Zq8"', '"********"') }, null, 2),
    },
    {
      name: "--json --show-secret: the text as stored",
      args: ["--json", "--show-secret"],
      policy: YAML,
      stdout: JSON.stringify({ id: "ep_1", traffic_policy: YAML }, null, 2),
    },
    { name: "a text that is no policy: masked whole", args: [], policy: "just text", stdout: "********" },
    { name: "no policy: nothing", args: [], policy: null, stdout: "" },
    {
      name: "control characters shown escaped, tabs and newlines kept",
      args: ["--show-secret"],
      policy: "a:\t'\u001b[2J'\nb: 1",
      stdout: "a:\t'\\x1b[2J'\nb: 1",
    },
  ])("$name", async ({ args, policy, stdout }) => {
    suite.server.fallback = () => json(200, endpoint("ep_1", policy));
    const r = await suite.run(["endpoint", "policy", "get", "ep_1", ...args]);
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toBe(stdout);
    expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /endpoints/ep_1"]);
  });

  it("an endpoint that does not exist: exit 1, the API's error on stderr, nothing on stdout", async () => {
    suite.server.fallback = () => apiError(404, "Resource not found");
    const r = await suite.run(["endpoint", "policy", "get", "ep_gone"]);
    expect([r.exitCode, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toMatch(/^error: .*404/);
  });

  it("an id that is not an endpoint's: exit 2, nothing sent", async () => {
    const r = await suite.run(["endpoint", "policy", "get", "bkdfo_1", "-o", "json"]);
    expect([r.exitCode, r.stdout]).toEqual([2, ""]);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { kind: "usage" } });
    expect(suite.server.requests).toEqual([]);
  });

  it("no key: exit 4, nothing sent", async () => {
    const r = await suite.run(["endpoint", "policy", "get", "ep_1"], { env: { EDGECTL_API_KEY: undefined } });
    expect(r.exitCode).toBe(4);
    expect(suite.server.requests).toEqual([]);
  });
});

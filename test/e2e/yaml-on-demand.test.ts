// The yaml library is one bundle (dist/yaml.cjs), required only when a YAML text is read: a
// JSON policy is checked, and printed as YAML (src/output/yaml-write.ts), without it; a YAML
// policy is read, checked and masked by it, with the tool's one configuration (src/policy/yaml.ts).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useFaultServer, useScratch } from "./support.js";
import { json } from "../helpers/fault-server.js";

const PROBE = fileURLToPath(new URL("../helpers/yaml-probe.cjs", import.meta.url));
// The CEL bundle (dist/cel.cjs) likewise, in the same runs: required only for a policy with CEL
// (expressions or `${…}`; issue 27 item 7), whatever its format.
const CEL_PROBE = fileURLToPath(new URL("../helpers/cel-probe.cjs", import.meta.url));
// And the action table's bundle (dist/actions.cjs), required with the validator alone: a command
// that only shows a policy parses neither it nor RE2 (in dist/cel.cjs, loaded for a pattern to check).
const ACTIONS_PROBE = fileURLToPath(new URL("../helpers/actions-probe.cjs", import.meta.url));
const suite = useFaultServer("key_yaml");
const run = (args: string[]) =>
  suite.run(args, { env: { NODE_OPTIONS: `--require ${PROBE} --require ${CEL_PROBE} --require ${ACTIONS_PROBE}` } });
const loaded = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("yaml library loaded: "));
const celLoaded = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("cel library loaded: "));
const actionsLoaded = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("action schemas loaded: "));

const PLAIN = `# hooks, then 404
on_http_request:
  - name: hooks
    expressions: ['req.url.path.startsWith("/hooks")']
    actions:
      - type: verify-webhook
        config: {provider: github, secret: "s3cret"}
      - type: forward-internal
        config:
          url: https://hooks.internal
  - actions:
      - type: custom-response
        config: {status_code: 404, body: not found}
`;
// The same policy with its config behind an anchor.
const ANCHORED = PLAIN.replace(
  'config: {provider: github, secret: "s3cret"}',
  'config: &hook {provider: github, secret: "s3cret"}',
);
const endpoint = (traffic_policy: string) => ({
  id: "ep_yaml1",
  url: "https://shop.example.com",
  type: "cloud",
  bindings: ["public"],
  traffic_policy,
});

const { file } = useScratch("edgectl-yaml-");

describe("the yaml library on demand", () => {
  it("is loaded by endpoint get of a YAML policy, which is masked where the secret stands", async () => {
    suite.server.fallback = () => json(200, endpoint(PLAIN));
    const r = await run(["endpoint", "get", "ep_yaml1"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('        config: {provider: github, secret: "********"}\n');
    expect(r.stdout).toContain("# hooks, then 404\n");
    expect(r.stdout).not.toContain("s3cret");
    expect(loaded(r.stderr)).toBe("yaml library loaded: yaml.cjs");
    // Shown, not checked: neither the action schemas nor RE2 and CEL (issue 24 item 5).
    expect([actionsLoaded(r.stderr), celLoaded(r.stderr)]).toEqual([
      "action schemas loaded: no",
      "cel library loaded: no",
    ]);
  });

  it("is not loaded by endpoint get of a JSON policy, printed as YAML", async () => {
    const policy = {
      on_http_request: [{ actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s3cret" } }] }],
    };
    suite.server.fallback = () => json(200, endpoint(JSON.stringify(policy)));
    const r = await run(["endpoint", "get", "ep_yaml1"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.endsWith('\n          provider: github\n          secret: "********"')).toBe(true);
    expect(r.stdout).not.toContain("s3cret");
    expect(loaded(r.stderr)).toBe("yaml library loaded: no");
  });

  it("masks a secret behind an anchor where the anchor's node stands", async () => {
    suite.server.fallback = () => json(200, endpoint(ANCHORED));
    const r = await run(["endpoint", "get", "ep_yaml1"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('config: &hook {provider: github, secret: "********"}\n');
    expect(r.stdout).not.toContain("s3cret");
    expect(loaded(r.stderr)).toBe("yaml library loaded: yaml.cjs");
  });

  it("is loaded by policy check of a YAML file (and the CEL bundle, for its expression)", async () => {
    const r = await run(["policy", "check", file("plain.yml", PLAIN)]);
    expect(r.stdout).toBe("ok");
    expect(loaded(r.stderr)).toBe("yaml library loaded: yaml.cjs");
    expect(celLoaded(r.stderr)).toBe("cel library loaded: cel.cjs");
  });

  it("is not loaded by policy check of a JSON file (nor the CEL bundle: no expression)", async () => {
    const policy = { on_http_request: [{ actions: [{ type: "custom-response", config: { status_code: 404 } }] }] };
    const r = await run(["policy", "check", file("policy.json", JSON.stringify(policy))]);
    expect(r.stdout).toBe("ok");
    expect(loaded(r.stderr)).toBe("yaml library loaded: no");
    expect(celLoaded(r.stderr)).toBe("cel library loaded: no");
    expect(actionsLoaded(r.stderr)).toBe("action schemas loaded: actions.cjs");
  });

  it("loads the CEL bundle, which holds RE2, for a JSON policy whose action has a pattern to check", async () => {
    // url-rewrite's `from` is RE2 (traffic-policy/actions/url-rewrite.mdx:33-36): no lookahead.
    const policy = { on_http_request: [{ actions: [{ type: "url-rewrite", config: { from: "(?=x)", to: "/" } }] }] };
    const r = await run(["policy", "check", file("regex.json", JSON.stringify(policy)), "--agent"]);
    expect([r.stdout, r.exitCode]).toEqual([
      "on_http_request[0].actions[0].config.from: not an RE2 regular expression: invalid or unsupported Perl syntax: `(?=`",
      2,
    ]);
    expect([loaded(r.stderr), celLoaded(r.stderr), actionsLoaded(r.stderr)]).toEqual([
      "yaml library loaded: no",
      "cel library loaded: cel.cjs",
      "action schemas loaded: actions.cjs",
    ]);
  });

  it("loads the CEL bundle for a JSON policy with an expression, which it checks for real", async () => {
    const policy = {
      on_http_request: [
        { expressions: ["req.methd == 'GET'"], actions: [{ type: "deny" }] },
        { actions: [{ type: "deny" }] },
      ],
    };
    const r = await run(["policy", "check", file("cel.json", JSON.stringify(policy))]);
    expect([r.stdout, r.exitCode]).toEqual([
      "on_http_request[0].expressions[0]: column 1: unknown name req.methd; did you mean req.method?",
      2,
    ]);
    expect([loaded(r.stderr), celLoaded(r.stderr)]).toEqual(["yaml library loaded: no", "cel library loaded: cel.cjs"]);
  });

  it("reads YAML with anchors alike, with the same verdict", async () => {
    const r = await run(["policy", "check", file("anchored.yml", ANCHORED)]);
    expect(r.stdout).toBe("ok");
    expect(loaded(r.stderr)).toBe("yaml library loaded: yaml.cjs");
    // A deny after the custom-response of the same rule.
    const bad = await run(["policy", "check", file("bad.yml", `${ANCHORED}      - type: deny\n`)]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe(
      "on_http_request[1].actions[1]: unreachable: the custom-response (actions[0]) action before it ends the phase",
    );
    expect(loaded(bad.stderr)).toBe("yaml library loaded: yaml.cjs");
  });
});

// `edgectl policy check`: the real bin on files and stdin. It needs no key or settings and
// sends nothing (the server here would hear it); the problems are its result, on stdout.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useFaultServer, useScratch } from "./support.js";

const suite = useFaultServer("key_policy");
const FIXTURES = fileURLToPath(new URL("../fixtures/policy/", import.meta.url));
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

describe("edgectl policy check", () => {
  it("prints ok and exits 0 for a valid policy, with no key, settings or request", async () => {
    const r = await bare([join(FIXTURES, "verify-webhook-1.yaml")]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok");
    expect(r.exitCode).toBe(0);
    const j = await bare([join(FIXTURES, "deny-2.yaml"), "-o", "json"]);
    expect(JSON.parse(j.stdout as string)).toEqual({ valid: true });
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
        JSON.stringify({ on_http_request: [{ expressions: ["true"], actions: [{ type: "deny" }] }] }),
      ),
      "--json",
    ]);
    expect(JSON.parse(r.stdout as string)).toEqual({
      valid: false,
      problems: [
        {
          path: "on_http_request[0].expressions",
          message: expect.stringContaining("not guaranteed to handle traffic"),
        },
      ],
    });
    expect(JSON.parse(r.stderr as string).error.kind).toBe("usage");
    expect(r.exitCode).toBe(2);
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
    expect((await bare([tcp, "--protocol", "tcp", "--internal"])).exitCode).toBe(0);
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

  it("makes the config schemas (and loads zod) only when it checks an action's config", async () => {
    const probe = {
      env: { NODE_OPTIONS: `--require ${fileURLToPath(new URL("../helpers/zod-probe.cjs", import.meta.url))}` },
    };
    const passThrough = file(
      "log.json",
      JSON.stringify({ on_http_request: [{ actions: [{ type: "log", config: { metadata: {} } }] }] }),
    );
    const withConfig = file(
      "headers.json",
      JSON.stringify({ on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] }),
    );
    const lazy = await suite.cli.run(["policy", "check", passThrough, "--internal"], probe);
    expect(lazy.stdout).toBe("ok");
    expect(lazy.stderr).toBe("zod evaluated: no");
    const made = await suite.cli.run(["policy", "check", withConfig, "--internal"], probe);
    expect(made.stdout).toBe("ok");
    expect(made.stderr).toBe("zod evaluated: yes");
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

// `edgectl endpoint list|get|create|update|delete` and `endpoint webhook-verification replace`
// (issue 18 items 3 and 4): the requests the real bin sends to a fault server that keeps
// endpoints like the API, what it prints, and what it refuses before sending anything.
import { beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apiError, json, type RecordedRequest, type Reply } from "../helpers/fault-server.js";
import { parseJsonError, useFaultServer, useScratch } from "./support.js";

const suite = useFaultServer("key_endpoint_1234567890");
const { file } = useScratch("edgectl-endpoint-");

// Valid under the contract's rules for a public https endpoint: the hooks rule verifies and
// forwards, the last rule (no expressions) ends every other request.
const YAML_POLICY = `# hooks first
on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github   # set by CI
          secret: internal
      - type: forward-internal
        config:
          url: https://service-app.internal
  - name: rest
    actions:
      - type: custom-response
        config: {status_code: 404, body: "github internal"}
`;
const JSON_POLICY = `{
  "on_http_request": [
    {"name": "a", "actions": [{"type": "verify-webhook", "config": {"provider": "slack", "secret": "s-a"}}, {"type": "custom-response", "config": {"status_code": 200}}]},
    {"name": "b", "actions": [{"type": "verify-webhook", "config": {"provider": "stripe", "secret": "s-b"}}, {"type": "custom-response", "config": {"status_code": 200}}]}
  ]
}`;

/** Endpoints kept like the API keeps them; `ep_1`, `ep_2`… newest first. */
let store: Map<string, Record<string, unknown>>;
let next: number;
function endpoint(id: string, url: string, traffic_policy: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: "cloud",
    url,
    description: "",
    metadata: "",
    traffic_policy,
    bindings: ["public"],
    pooling_enabled: false,
    created_at: "2026-01-02T00:00:00Z",
    updated_at: "2026-01-02T00:00:00Z",
    uri: `${suite.server.url}/endpoints/${id}`,
    ...extra,
  };
}
function api(req: RecordedRequest): Reply {
  const [path, query] = req.path.split("?");
  const id = /^\/endpoints\/([^/]+)$/.exec(path!)?.[1];
  if (path === "/endpoints" && req.method === "GET") {
    const all = [...store.values()].reverse();
    const limit = Number(new URLSearchParams(query).get("limit") ?? 100);
    const before = new URLSearchParams(query).get("before_id");
    const from = before ? all.findIndex((e) => e.id === before) + 1 : 0;
    const page = all.slice(from, from + limit);
    const more = from + limit < all.length;
    return json(200, {
      endpoints: page,
      uri: `${suite.server.url}/endpoints`,
      next_page_uri: more ? `${suite.server.url}/endpoints?limit=${limit}&before_id=${page.at(-1)!.id}` : null,
    });
  }
  if (path === "/endpoints" && req.method === "POST") {
    const body = JSON.parse(req.body) as Record<string, unknown>;
    const e = endpoint(`ep_${++next}`, body.url as string, body.traffic_policy as string, {
      description: body.description ?? "",
      metadata: body.metadata ?? "",
      bindings: body.bindings ?? ["public"],
      pooling_enabled: body.pooling_enabled ?? false,
    });
    store.set(e.id, e);
    return json(201, e);
  }
  if (id && store.has(id)) {
    if (req.method === "GET") return json(200, store.get(id)!);
    if (req.method === "DELETE") {
      store.delete(id);
      return { status: 204, body: "" };
    }
    if (req.method === "PATCH") {
      const e = { ...store.get(id)!, ...(JSON.parse(req.body) as object) };
      store.set(id, e);
      return json(200, e);
    }
  }
  return apiError(404, "Resource not found");
}
beforeEach(() => {
  store = new Map();
  next = 0;
  suite.server.fallback = api;
});

const lines = () => suite.server.requests.map((r) => `${r.method} ${r.path}`);
const seed = (text = YAML_POLICY, url = "https://shop.example.com") => {
  const e = endpoint(`ep_${++next}`, url, text);
  store.set(e.id, e);
  return e.id;
};

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
      '{"on_http_request":[{"actions":[{"type":"verify-webhook","config":{"provider":"github","secret":"whsec_9"}}]}]}',
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
      /\nTRAFFIC POLICY\non_http_request:\n {2}- actions:\n {6}- type: verify-webhook\n {8}config:\n {10}provider: github\n {10}secret: "\*{8}"$/,
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
      "a public policy whose last rule has expressions (not sure to end every request)",
      "https://a.example.com",
      "on_http_request:\n  - expressions: ['req.url.path == \"/x\"']\n    actions:\n      - type: deny\n        config: {status_code: 403}\n",
      /not guaranteed to handle traffic/,
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

describe("endpoint get, list, delete", () => {
  it("get: several ids (from stdin) as one JSON array in input order, secrets masked, a missing id on stderr", async () => {
    const a = seed();
    const b = seed(JSON_POLICY, "https://b.example.com");
    const r = await suite.run(["endpoint", "get", "-", "-o", "json"], { input: `${b}\nep_404\n${a}\n` });
    expect(r.exitCode).toBe(1);
    const printed = JSON.parse(r.stdout) as { id: string; traffic_policy: string }[];
    expect(printed.map((e) => e.id)).toEqual([b, a]);
    expect(printed[0]!.traffic_policy).toBe(JSON_POLICY.replace('"s-a"', '"********"').replace('"s-b"', '"********"'));
    expect(printed[1]!.traffic_policy).toBe(YAML_POLICY.replace("secret: internal", 'secret: "********"'));
    expect(r.stderr).toContain("ep_404");
  });

  it("get: the table shows a JSON policy as YAML, its secrets masked", async () => {
    const a = seed(JSON_POLICY, "https://j.example.com");
    const r = await suite.run(["endpoint", "get", a]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^FIELD\s+VALUE\nID\s+ep_1\nURL\s+https:\/\/j\.example\.com\n/);
    const policy = r.stdout.slice(r.stdout.indexOf("\nTRAFFIC POLICY\n") + "\nTRAFFIC POLICY\n".length);
    expect(policy).toMatch(/^on_http_request:\n {2}- name: a\n/);
    expect(parse(policy)).toEqual(
      JSON.parse(JSON_POLICY.replace('"s-a"', '"********"').replace('"s-b"', '"********"')),
    );
  });

  it("get --show-secret prints the policy as the API holds it", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "get", a, "--show-secret", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).traffic_policy).toBe(YAML_POLICY);
  });

  it("a policy text that does not parse as a policy is shown as ******** whole, unless --show-secret", async () => {
    const a = seed("not a policy: [");
    const masked = await suite.run(["endpoint", "get", a, "-o", "json"]);
    expect(JSON.parse(masked.stdout).traffic_policy).toBe("********");
    const table = await suite.run(["endpoint", "get", a]);
    expect(table.stdout).toMatch(/\nTRAFFIC POLICY\n\*{8}$/);
    const shown = await suite.run(["endpoint", "get", a, "--show-secret", "-o", "json"]);
    expect(JSON.parse(shown.stdout).traffic_policy).toBe("not a policy: [");
  });

  it("refuses a malformed id before sending anything", async () => {
    const r = await suite.run(["endpoint", "get", "ep_1/../x"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/<ep-id>: .*must be ep_ followed by 1–64 letters or digits/);
    expect(suite.server.requests).toEqual([]);
  });

  it("list --all follows next_page_uri; the table has id, url, type, description", async () => {
    seed();
    seed(JSON_POLICY, "https://b.example.com");
    seed(YAML_POLICY, "https://c.example.com");
    const r = await suite.run(["endpoint", "list", "--limit", "2", "--all"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual(["GET /endpoints?limit=2", "GET /endpoints?limit=2&before_id=ep_2"]);
    expect(r.stdout.split("\n")[0]).toMatch(/^ID\s+URL\s+TYPE\s+DESCRIPTION$/);
    expect(
      r.stdout
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(["ep_3", "ep_2", "ep_1"]);
    const j = await suite.run(["endpoint", "list", "-o", "json"]);
    expect((JSON.parse(j.stdout) as unknown[]).length).toBe(3);
    expect(j.stdout).not.toContain("s-a");
  });

  it("list --limit n asks for one page of n, newest first", async () => {
    seed();
    seed(JSON_POLICY, "https://b.example.com");
    seed(YAML_POLICY, "https://c.example.com");
    const r = await suite.run(["endpoint", "list", "--limit", "2", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual(["GET /endpoints?limit=2"]);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((e) => e.id)).toEqual(["ep_3", "ep_2"]);
  });

  it("delete: ids from stdin with --yes, each once; without --yes and no terminal, refused and nothing sent", async () => {
    const a = seed();
    const b = seed();
    const refused = await suite.run(["endpoint", "delete", a]);
    expect(refused.exitCode).toBe(2);
    expect(suite.server.requests).toEqual([]);
    const r = await suite.run(["endpoint", "delete", "-", "--yes", "-o", "json"], { input: `${a}\n${b}\n${a}\n` });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: a, deleted: true },
      { id: b, deleted: true },
    ]);
    expect(lines().sort()).toEqual([`DELETE /endpoints/${a}`, `DELETE /endpoints/${b}`]);
  });

  it("delete --dry-run with several ids prints one JSON array and sends nothing", async () => {
    const r = await suite.run(["endpoint", "delete", "ep_1", "ep_2", "--dry-run", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests).toEqual([]);
    expect((JSON.parse(r.stdout) as { request: { method: string; url: string } }[]).map((x) => x.request)).toEqual([
      { method: "DELETE", url: `${suite.server.url}/endpoints/ep_1` },
      { method: "DELETE", url: `${suite.server.url}/endpoints/ep_2` },
    ]);
  });
});

describe("endpoint update", () => {
  it("PATCHes only the fields given; a description alone needs no read", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "update", a, "--description", "", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`PATCH /endpoints/${a}`]);
    expect(JSON.parse(suite.server.requests[0]!.body)).toEqual({ description: "" });
  });

  it("with a policy file, reads the endpoint (to check the policy for it), then PATCHes the text as written", async () => {
    const a = seed(JSON_POLICY);
    const r = await suite.run(["endpoint", "update", a, "--traffic-policy-file", file("new.yml", YAML_POLICY)]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`GET /endpoints/${a}`, `PATCH /endpoints/${a}`]);
    expect(JSON.parse(suite.server.requests[1]!.body)).toEqual({ traffic_policy: YAML_POLICY });
  });

  it("refuses no field at all, and a policy that does not parse (after the read only)", async () => {
    const a = seed();
    const none = await suite.run(["endpoint", "update", a]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/nothing to update/);
    expect(suite.server.requests).toEqual([]);
    const bad = await suite.run(["endpoint", "update", a, "--traffic-policy-file", file("bad.yml", "a: [")]);
    expect(bad.exitCode).toBe(2);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
  });

  it("a new --url is checked with the policy the endpoint keeps: an HTTP policy on a tcp:// URL is exit 2, nothing sent", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "update", a, "--url", "tcp://1.tcp.ngrok.io:12345"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--url \(the endpoint's policy\): on_http_request/);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
    // The same policy suits another https URL: read, then PATCHed.
    const ok = await suite.run(["endpoint", "update", a, "--url", "https://shop2.example.com"]);
    expect(ok.stderr).toBe("");
    expect(ok.exitCode).toBe(0);
  });
});

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

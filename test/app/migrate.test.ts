// `edgectl migrate edge`: the requests it sends, what it prints and how it exits, against
// the fault server scripted with an edge and its backends.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/migrate.test.ts.
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { apiError } from "../helpers/fault-server.js";
import { route } from "../migrate/fixtures.js";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError } from "../e2e/support.js";
import { useMigrateSuite } from "../e2e/migrate.support.js";

const { suite, SECRET, EDGE, scriptApi, requestLines, READS, EXPECTED_POLICY } = useMigrateSuite(appSandbox);

describe("migrate edge: the plan", () => {
  it("prints the whole plan with -o json, and the secret with --show-secret", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json", "--show-secret"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      edge_id: "edghts_1",
      endpoints: [
        {
          url: "https://shop.example.com",
          description: "Migrated from edge edghts_1",
          metadata: '{"team":"web"}',
          traffic_policy: EXPECTED_POLICY(SECRET),
        },
      ],
      not_migrated: [],
      warnings: [],
    });
  });

  it("separates several endpoints' YAML documents, each parsing back", async () => {
    scriptApi({ ...EDGE, hostports: ["a.example.com:443", "b.example.com:443"] });
    const r = await suite.run(["migrate", "edge", "edghts_1"]);
    expect(r.exitCode).toBe(0);
    const docs = r.stdout.split(/^---$/m);
    expect(docs.map((d) => d.trim().split("\n")[0])).toEqual([
      "# https://a.example.com (edge edghts_1)",
      "# https://b.example.com (edge edghts_1)",
    ]);
    for (const d of docs) expect(parse(d)).toEqual(EXPECTED_POLICY("********"));
  });

  it("lists what cannot be migrated as warnings on stderr, and in the plan with -o json", async () => {
    const partial = {
      ...EDGE,
      routes: [...EDGE.routes!, route("edghtsrt_w", "path_prefix", "/w", "bkdwd_w", { oauth: { enabled: true } })],
    };
    scriptApi(partial);
    const r = await suite.run(["migrate", "edge", "edghts_1"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^warning: not migrated: edge edghts_1 route edghtsrt_w: oauth: /m);
    expect(r.stderr).toMatch(
      /^warning: not migrated: edge edghts_1 route edghtsrt_w: backend: weighted backend bkdwd_w/m,
    );
    const j = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
    expect(j.stderr).toBe("");
    const plan = JSON.parse(j.stdout);
    expect(plan.not_migrated).toEqual([
      { edge_id: "edghts_1", route_id: "edghtsrt_w", item: "oauth", reason: expect.any(String) },
      { edge_id: "edghts_1", route_id: "edghtsrt_w", item: "backend", reason: expect.stringMatching(/bkdwd_w/) },
    ]);
    // Fails closed: the route's requests are refused, not left to the / route.
    expect(plan.endpoints[0].traffic_policy.on_http_request[1]).toEqual({
      name: "edghtsrt_w",
      expressions: ['req.url.path.startsWith("/w")'],
      actions: [{ type: "deny", config: { status_code: 503 } }],
    });
  });

  it("forwards a --map'd backend without reading it", async () => {
    scriptApi({ ...EDGE, routes: [route("edghtsrt_w", "path_prefix", "/", "bkdwd_w")] });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--map", "bkdwd_w=https://api.internal", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(requestLines()).toEqual(["GET /edges/https/edghts_1"]);
    expect(JSON.parse(r.stdout).endpoints[0].traffic_policy.on_http_request[0].actions).toEqual([
      { type: "forward-internal", config: { url: "https://api.internal" } },
    ]);
  });

  it.each([
    [["--map", "bkdwd_w=https://api.example.com"], /--map: .*\.internal/],
    [["--map", "nonsense"], /--map: "nonsense" must be <backend-id>=<url>/],
    [["--allow-partial"], /--allow-partial is only for --apply/],
    [["--map", "bkdtg_X=https://api.inter\tnal/x y?q=1"], /--map: "https:\/\/api\.inter\\tnal.*control characters/],
    [["--map", "bkdtg_X=tcp://ssh.internal:22"], /--map: .*must start with https:\/\/ or http:\/\//],
    [["--all"], /give edge ids or --all, not both/],
  ])("refuses %j with exit 2 before sending anything", async (flags, message) => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(suite.server.requests).toEqual([]);
  });

  it("on a read-only account (ERR_NGROK_7196 to the POST) plans fine, and --apply explains the refusal (exit 1)", async () => {
    scriptApi(EDGE, { failAt: 1, failWith: apiError(403, "This operation is not permitted.", "ERR_NGROK_7196") });
    const plan = await suite.run(["migrate", "edge", "edghts_1"]);
    expect(plan.exitCode).toBe(0);
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: This operation is not permitted\. — .*can still be read but not created/m);
    expect(r.stderr).toContain("ERR_NGROK_7196");
  });
});

describe("migrate edge --apply", () => {
  it("prints the API's endpoints as JSON, the secret masked inside traffic_policy unless --show-secret", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    const [ep] = JSON.parse(r.stdout) as { id: string; traffic_policy: string; bindings: string[] }[];
    expect(ep).toMatchObject({ id: "ep_1", bindings: ["public"] });
    expect(JSON.parse(ep!.traffic_policy)).toEqual(EXPECTED_POLICY("********"));
    expect(r.stdout).not.toContain(SECRET);
    scriptApi();
    const shown = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json", "--show-secret"]);
    expect(JSON.parse(JSON.parse(shown.stdout)[0].traffic_policy)).toEqual(EXPECTED_POLICY(SECRET));
  });

  it("refuses (exit 2, nothing created) while something is not migrated, listing it", async () => {
    scriptApi({ ...EDGE, mutual_tls: { enabled: true } });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100"]);
    expect(r.stderr).toMatch(/^error: 1 item\(s\) cannot be migrated .*nothing was created.*--allow-partial/m);
    expect(r.stderr).toMatch(/^warning: not migrated: edge edghts_1: mutual_tls: /m);
    const j = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(j.exitCode).toBe(2);
    const { error } = parseJsonError(j.stderr);
    expect(error.kind).toBe("usage");
    expect(JSON.stringify(error.details)).toMatch(/mutual_tls/);
  });

  it("creates the fail-closed endpoints with --allow-partial (an edge-level item: the whole endpoint denies)", async () => {
    scriptApi({ ...EDGE, mutual_tls: { enabled: true } });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "--allow-partial"]);
    expect(r.exitCode).toBe(0);
    expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100", "POST /endpoints"]);
    expect(r.stderr).toMatch(/^warning: not migrated: edge edghts_1: mutual_tls/m);
    expect(r.stdout).toMatch(/^ID\s+URL\s+EDGE\nep_1\s+https:\/\/shop\.example\.com\s+edghts_1$/);
    const body = JSON.parse(suite.server.requests.at(-1)!.body) as { traffic_policy: string };
    expect(JSON.parse(body.traffic_policy)).toEqual({
      on_http_request: [{ name: "edghts_1", actions: [{ type: "deny", config: { status_code: 503 } }] }],
    });
  });

  it("--dry-run prints the POST requests with secrets redacted and sends only the reads", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "--dry-run", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100"]);
    expect(r.stdout).not.toContain(SECRET);
    const [dry] = JSON.parse(r.stdout) as {
      dry_run: boolean;
      request: { method: string; url: string; body: { traffic_policy: string } };
    }[];
    expect(dry).toMatchObject({
      dry_run: true,
      request: {
        method: "POST",
        url: `${suite.server.url}/endpoints`,
        body: { type: "cloud", url: "https://shop.example.com" },
      },
    });
    expect(JSON.parse(dry!.request.body.traffic_policy)).toEqual(EXPECTED_POLICY("********"));
    const text = await suite.run(["migrate", "edge", "edghts_1", "--dry-run"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/endpoints\n/);
    expect(suite.server.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });

  it("stops at a failed POST without repeating it and lists the endpoints already created", async () => {
    scriptApi({ ...EDGE, hostports: ["a.example.com:443", "b.example.com:443", "c.example.com:443"] }, { failAt: 2 });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100", "POST /endpoints", "POST /endpoints"]);
    expect(JSON.parse(suite.server.requests.at(-1)!.body).url).toBe("https://b.example.com");
    expect(r.stderr).toMatch(/^error: The endpoint URL is already in use\./m);
    expect(r.stderr).toMatch(/^warning: created before the failure: ep_1 https:\/\/a\.example\.com$/m);
    expect(r.stderr).not.toContain(SECRET);
    scriptApi({ ...EDGE, hostports: ["a.example.com:443", "b.example.com:443"] }, { failAt: 2 });
    const j = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(j.exitCode).toBe(1);
    const { error } = parseJsonError(j.stderr);
    expect(error.error_code).toBe("ERR_NGROK_18008");
    expect((error.details as { warnings: string[] }).warnings).toContain(
      "created before the failure: ep_1 https://a.example.com",
    );
  });
});

describe("help and completion", () => {
  it.each([["export"], ["migrate"], ["migrate", "edge"]])(
    "edgectl %s --help ends with examples of itself",
    async (...command) => {
      const r = await suite.run([...command, "--help"]);
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      const after = lines.slice(lines.lastIndexOf("Examples:") + 1).filter((l) => l.trim() !== "");
      expect(after.length).toBeGreaterThan(0);
      for (const l of after) expect(l).toMatch(/^ {2}[$#] /);
      expect(after.some((l) => l.includes(`edgectl ${command.join(" ")}`))).toBe(true);
    },
  );

  it("the root help lists export and migrate", async () => {
    const r = await suite.run(["--help"]);
    expect(r.stdout).toMatch(/^ {2}export\b/m);
    expect(r.stdout).toMatch(/^ {2}migrate\b/m);
  });

  it("bash completion offers migrate edge and its flags", async () => {
    const r = await suite.run(["completion", "bash"]);
    expect(r.stdout).toMatch(/"migrate"\) words="edge /);
    expect(r.stdout).toMatch(/"migrate edge"\) words="--all --map --show-secret --apply --allow-partial --dry-run /);
    expect(r.stdout).toMatch(/"export"\) words="--show-secret /);
  });
});

describe("several edges, TLS and TCP, --all", () => {
  it("takes edghts_, edgtls_ and edgtcp_ ids: one JSON array in order, each read by its kind", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", "edgtls_1", "edgtcp_1", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(requestLines().slice(0, 3)).toEqual([
      "GET /edges/https/edghts_1",
      "GET /edges/tls/edgtls_1",
      "GET /edges/tcp/edgtcp_1",
    ]);
    const plans = JSON.parse(r.stdout) as { edge_id: string; endpoints: { url: string; traffic_policy: unknown }[] }[];
    expect(plans.map((p) => [p.edge_id, p.endpoints.map((e) => e.url)])).toEqual([
      ["edghts_1", ["https://shop.example.com"]],
      ["edgtls_1", ["tls://db.example.com:443"]],
      ["edgtcp_1", ["tcp://1.tcp.ngrok.io:12345"]],
    ]);
    expect(plans[1]!.endpoints[0]!.traffic_policy).toEqual({
      on_tcp_connect: [
        {
          name: "edgtls_1",
          actions: [
            { type: "terminate-tls", config: { min_version: "1.3" } },
            { type: "forward-internal", config: { url: "tls://service-app.internal:443" } },
          ],
        },
      ],
    });
    expect(plans[2]!.endpoints[0]!.traffic_policy).toEqual({
      on_tcp_connect: [
        {
          name: "edgtcp_1",
          actions: [{ type: "forward-internal", config: { url: "tcp://service-app.internal:12345" } }],
        },
      ],
    });
  });

  it("prints one YAML document per endpoint of every edge, each after its # <url> (edge <id>) line", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "edghts_1", "edgtcp_1"]);
    expect(r.exitCode).toBe(0);
    const docs = r.stdout.split(/^---$/m).map((d) => d.trim());
    expect(docs.map((d) => d.split("\n")[0])).toEqual([
      "# https://shop.example.com (edge edghts_1)",
      "# tcp://1.tcp.ngrok.io:12345 (edge edgtcp_1)",
    ]);
    expect(parse(docs[1]!)).toEqual({
      on_tcp_connect: [
        {
          name: "edgtcp_1",
          actions: [{ type: "forward-internal", config: { url: "tcp://service-app.internal:12345" } }],
        },
      ],
    });
  });

  it.each([["edg_1"], ["edghtsrt_1"], ["bkdfo_1"], ["edgtls_"]])(
    "refuses the id %s locally (exit 2, nothing sent)",
    async (id) => {
      scriptApi();
      const r = await suite.run(["migrate", "edge", id]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/edghts_, edgtls_ or edgtcp_/);
      expect(suite.server.requests).toEqual([]);
    },
  );

  it("refuses no ids and no --all", async () => {
    const r = await suite.run(["migrate", "edge"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/give edge ids or --all/);
  });

  it("--all reads by listing only (pages of 100 of each edge and backend kind), never one GET per item", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "--all", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(requestLines()).toEqual([
      "GET /edges/https?limit=100",
      "GET /edges/tls?limit=100",
      "GET /edges/tcp?limit=100",
      "GET /backends/failover?limit=100",
      "GET /backends/tunnel_group?limit=100",
      "GET /backends/http_response?limit=100",
      "GET /backends/weighted?limit=100",
      "GET /backends/static?limit=100",
    ]);
    const plans = JSON.parse(r.stdout) as { edge_id: string; endpoints: { traffic_policy: unknown }[] }[];
    expect(plans.map((p) => p.edge_id)).toEqual(["edghts_1", "edgtls_1", "edgtcp_1"]);
    expect(plans[0]!.endpoints[0]!.traffic_policy).toEqual(EXPECTED_POLICY("********"));
  });

  it("a --map URL of the wrong family for an edge of --all is listed for that edge (its endpoint denies)", async () => {
    scriptApi();
    const r = await suite.run(["migrate", "edge", "--all", "--map", "bkdtg_app=tcp://app.internal:22", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    const plans = JSON.parse(r.stdout) as { edge_id: string; not_migrated: { item: string }[] }[];
    expect(plans.map((p) => [p.edge_id, p.not_migrated.map((n) => n.item)])).toEqual([
      ["edghts_1", ["backend", "backend"]],
      ["edgtls_1", ["backend"]],
      ["edgtcp_1", []],
    ]);
  });
});

describe("--apply run again", () => {
  const existing = (url: string, policy: unknown, id = "ep_old") => ({
    id,
    url,
    type: "cloud",
    traffic_policy: typeof policy === "string" ? policy : JSON.stringify(policy),
  });

  it("skips a planned URL that already has an endpoint with the same policy (compared parsed, :443 dropped)", async () => {
    // The same policy, as YAML with another key order: the same document.
    const yaml = `# kept by hand\non_http_request: ${JSON.stringify(EXPECTED_POLICY(SECRET).on_http_request)}\n`;
    scriptApi(EDGE, { existing: [existing("https://shop.example.com:443", yaml)] });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
    expect(r.exitCode).toBe(0);
    expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100"]);
    expect(r.stderr).toMatch(/^warning: exists: https:\/\/shop\.example\.com is already endpoint ep_old/m);
    expect(r.stdout).toBe("");
  });

  it("lists a URL taken by an endpoint with another policy (item endpoint, its id) and refuses without --allow-partial", async () => {
    scriptApi(
      { ...EDGE, hostports: ["shop.example.com:443", "www.example.com:443"] },
      { existing: [existing("https://shop.example.com", { on_http_request: [] }, "ep_other")] },
    );
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^warning: not migrated: edge edghts_1: endpoint: https:\/\/shop\.example\.com .*ep_other/m,
    );
    expect(requestLines().filter((l) => l.startsWith("POST"))).toEqual([]);
    const partial = await suite.run(["migrate", "edge", "edghts_1", "--apply", "--allow-partial", "-o", "json"]);
    expect(partial.exitCode).toBe(0);
    const created = JSON.parse(partial.stdout) as { url: string }[];
    expect(created.map((e) => e.url)).toEqual(["https://www.example.com"]);
  });
});

describe("--apply prints OAuth client secrets masked", () => {
  it("in the traffic_policy of the API's Endpoint objects, unless --show-secret", async () => {
    const oauth = {
      enabled: true,
      provider: { github: { client_id: "cid", client_secret: "oauth-client-secret-123", scopes: ["read:user"] } },
    };
    scriptApi({ ...EDGE, routes: [route("edghtsrt_o", "path_prefix", "/", "bkdtg_app", { oauth })] });
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("oauth-client-secret-123");
    const [ep] = JSON.parse(r.stdout) as { traffic_policy: string }[];
    expect(JSON.parse(ep!.traffic_policy).on_http_request[0].actions[0]).toEqual({
      type: "oauth",
      config: { provider: "github", client_id: "cid", client_secret: "********", scopes: ["read:user"] },
    });
    // The API got the real one.
    const body = JSON.parse(suite.server.requests.at(-1)!.body) as { traffic_policy: string };
    expect(body.traffic_policy).toContain("oauth-client-secret-123");
    const plan = await suite.run(["migrate", "edge", "edghts_1"]);
    expect(plan.stdout).not.toContain("oauth-client-secret-123");
    expect(plan.stdout).toContain('client_secret: "********"');
  });
});

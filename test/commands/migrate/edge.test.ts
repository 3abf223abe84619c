// `edgectl migrate edge` (the Edge → Cloud Endpoint plan; "Leaving Edges" in the contract):
// (a) the command line → options or refusal; (b) the whole CLI in-process (test/helpers/app.ts)
// against a fault server scripted with an edge and its backends, and against the emulator
// in-process, each edge built through its own API so the planner reads the shapes the API
// really shows: the requests it sends, what it prints and how it exits. The planner's rules are
// held one by one in test/migrate/plan.test.ts; a signal while planning is in
// test/reliability/signals.test.ts.
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { edge as migrateEdge, progressOn } from "../../../src/commands/migrate/edge.js";
import { parse as parseArgv, refusal } from "../parse.js";
import { fakeDeps } from "../fake-deps.js";
import { parse, parseAllDocuments, stringify } from "yaml";
import { apiError, json, type Reply } from "../../helpers/fault-server.js";
import { route, edge, tunnelGroup, backendModule, httpResponse, tcpEdge } from "../../migrate/fixtures.js";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";
import { parseJsonError, useFaultServer, type FaultSuite, runCli } from "../../e2e/support.js";
import { useMigrateSuite } from "../../e2e/migrate.support.js";
import jsYaml from "js-yaml";
import {
  post,
  useEmulator,
  buildEdge as buildShop,
  expectedPolicy,
  GITHUB_SECRET,
  put,
  URLS,
} from "../../e2e/leaving-edges.support.js";
import { call, startInProcessEmulator } from "../../helpers/emulator.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("migrate edge argv → options", () => {
  it("collects repeated --map in order", async () => {
    const { options } = await parseArgv(migrateEdge, [
      "edghts_1",
      "--map",
      "bkdwd_1=https://a.internal",
      "--map",
      "bkdsc_2=https://b.internal",
      "--apply",
    ]);
    expect(options).toEqual({
      edgeIds: ["edghts_1"],
      all: false,
      maps: ["bkdwd_1=https://a.internal", "bkdsc_2=https://b.internal"],
      showSecret: false,
      apply: true,
      allowPartial: false,
      dryRun: false,
      verify: false,
    });
  });

  it("takes --verify beside the plan, --apply and --dry-run", async () => {
    expect((await parseArgv(migrateEdge, ["edghts_1", "--verify"])).options).toMatchObject({
      verify: true,
      apply: false,
    });
    expect((await parseArgv(migrateEdge, ["--all", "--verify", "--apply"])).options).toMatchObject({
      verify: true,
      apply: true,
    });
  });

  it("refuses --allow-partial without --apply or --dry-run", async () => {
    expect((await refusal(migrateEdge, ["edghts_1", "--allow-partial"])).message).toBe(
      "--allow-partial is only for --apply (or --dry-run)",
    );
    expect((await parseArgv(migrateEdge, ["edghts_1", "--allow-partial", "--dry-run"])).calls).toBe(1);
  });

  it("takes several ids of the three kinds, or --all, never both or neither", async () => {
    expect((await parseArgv(migrateEdge, ["edghts_1", "edgtls_2", "edgtcp_3"])).options).toMatchObject({
      edgeIds: ["edghts_1", "edgtls_2", "edgtcp_3"],
      all: false,
    });
    expect((await parseArgv(migrateEdge, ["--all"])).options).toMatchObject({ edgeIds: [], all: true });
    expect((await refusal(migrateEdge, ["edghts_1", "--all"])).message).toBe("give edge ids or --all, not both");
    expect((await refusal(migrateEdge, [])).message).toBe("give edge ids or --all");
    expect((await refusal(migrateEdge, ["edghtsrt_1"])).message).toMatch(/edghts_, edgtls_ or edgtcp_/);
  });
});

// The progress line migrate draws while it reads (a line on a terminal only).
describe("the progress line", () => {
  it("is drawn on a terminal, one line redrawn, and cleared at the end", () => {
    const deps = fakeDeps();
    deps.err.isTTY = true;
    const progress = progressOn(deps);
    progress.update!("reading edge 1/2");
    progress.update!("reading edge 2/2");
    progress.done();
    expect(deps.err.text).toBe("\r\x1b[2Kreading edge 1/2\r\x1b[2Kreading edge 2/2\r\x1b[2K");
    expect(deps.out.text).toBe("");
  });

  it("stays quiet off a terminal", () => {
    const deps = fakeDeps();
    const progress = progressOn(deps);
    expect(progress.update).toBeUndefined();
    progress.done();
    expect(deps.err.text).toBe("");
  });
});

// `edgectl migrate edge`: the requests it sends, what it prints and how it exits, against
// the fault server scripted with an edge and its backends.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/migrate.test.ts.
describe("against the fault server scripted with an edge and its backends", () => {
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

    it("--verify sends generated requests through the edge's model and the plan: the summary on stderr, the report in -o json", async () => {
      scriptApi();
      const r = await suite.run(["migrate", "edge", "edghts_1", "--verify"]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(
        /^verify: \d+ request\(s\); \d+ differ, 0 let through or routed elsewhere what the edge did not$/m,
      );
      const j = await suite.run(["migrate", "edge", "edghts_1", "--verify", "-o", "json"]);
      expect(j.exitCode).toBe(0);
      const verify = (JSON.parse(j.stdout) as { verify: { edge_id: string; requests: number; unsafe: number } }).verify;
      expect(verify).toMatchObject({ edge_id: "edghts_1", unsafe: 0 });
      expect(verify.requests).toBeGreaterThan(0);
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
      expect(r.stderr).toMatch(/^error: Edges are read-only \(ngrok retired them on 2025-12-31\)/m);
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
      const plans = JSON.parse(r.stdout) as {
        edge_id: string;
        endpoints: { url: string; traffic_policy: unknown }[];
      }[];
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
});

// `edgectl migrate edge`: the requests it sends, what it prints and how it exits, against
// the fault server scripted with an edge and its backends.
// Here the real bin runs one case of each kind; the rest run in-process in app/migrate.test.ts.
describe("against the fault server: the plan, --apply, several kinds at once", () => {
  const { suite, SECRET, scriptApi, requestLines, READS, EXPECTED_POLICY } = useMigrateSuite(appSandbox);

  describe("migrate edge: the plan", () => {
    it("prints the policy as YAML after a # <url> line, reading with GETs only, secrets masked", async () => {
      scriptApi();
      const r = await suite.run(["migrate", "edge", "edghts_1"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(requestLines()).toEqual(READS);
      expect(r.stdout.split("\n")[0]).toBe("# https://shop.example.com (edge edghts_1)");
      expect(parse(r.stdout)).toEqual(EXPECTED_POLICY("********"));
      expect(r.stdout).not.toContain(SECRET);
    });
  });

  describe("migrate edge --apply", () => {
    it("creates each endpoint with the real secret in the policy text and prints id and url", async () => {
      scriptApi();
      const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(requestLines()).toEqual([...READS, "GET /endpoints?limit=100", "POST /endpoints"]);
      const body = JSON.parse(suite.server.requests.at(-1)!.body) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["description", "metadata", "traffic_policy", "type", "url"]);
      expect(body).toMatchObject({
        type: "cloud",
        url: "https://shop.example.com",
        description: "Migrated from edge edghts_1",
        metadata: '{"team":"web"}',
      });
      expect(JSON.parse(body.traffic_policy as string)).toEqual(EXPECTED_POLICY(SECRET));
      expect(r.stdout).toMatch(/^ID\s+URL\s+EDGE\nep_1\s+https:\/\/shop\.example\.com\s+edghts_1$/);
    });
  });

  describe("migrate edge: several kinds at once", () => {
    it("plans an HTTPS, a TLS and a TCP edge in one JSON array, each read by its kind", async () => {
      scriptApi();
      const r = await suite.run(["migrate", "edge", "edghts_1", "edgtls_1", "edgtcp_1", "-o", "json"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const plans = JSON.parse(r.stdout) as { edge_id: string; endpoints: { url: string }[] }[];
      expect(plans.map((p) => [p.edge_id, p.endpoints.map((e) => e.url)])).toEqual([
        ["edghts_1", ["https://shop.example.com"]],
        ["edgtls_1", ["tls://db.example.com:443"]],
        ["edgtcp_1", ["tcp://1.tcp.ngrok.io:12345"]],
      ]);
    });
  });
});

// `edgectl migrate edge` end to end against the REAL emulator: planning that cannot explode
// (issue 17 item 6), --map URLs checked as typed (issue 17 item 13), a YAML plan every parser
// reads the same (issue 17 item 4), and --apply run twice.
describe("against the emulator: planning, --map, YAML, --apply twice", () => {
  describe("planning cannot explode", () => {
    const emu = useEmulator(undefined, appSandbox);
    let edgeId: string;
    beforeAll(async () => {
      // Failovers whose children repeat, nested 24 deep: 2^24 paths, 25 backends.
      let child = (await post(emu.url, "/backends/tunnel_group", { labels: { service: "leaf" } })).id;
      for (let i = 0; i < 24; i++) child = (await post(emu.url, "/backends/failover", { backends: [child, child] })).id;
      edgeId = (await post(emu.url, "/edges/https", { hostports: ["deep.example.com:443"] })).id;
      await post(emu.url, `/edges/https/${edgeId}/routes`, {
        match_type: "path_prefix",
        match: "/",
        backend: { enabled: true, backend_id: child },
      });
    });

    it("a failover whose children repeat, nested 24 deep, plans each backend once and exits 0", async () => {
      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const plan = JSON.parse(r.stdout);
      expect(plan.not_migrated).toEqual([]);
      expect(plan.endpoints[0].traffic_policy.on_http_request).toEqual([
        {
          name: expect.any(String),
          actions: [{ type: "forward-internal", config: { url: "https://service-leaf.internal" } }],
        },
      ]);
      // The repeats are noted, once per failover, not once per path.
      expect(plan.warnings.length).toBe(24);
    });
  });

  describe("--map URLs are checked as they will be written", () => {
    const emu = useEmulator(undefined, appSandbox);

    it.each([
      ["a tab, a space and a query", "bkdtg_X=https://api.inter\tnal/x y?q=1"],
      ["a newline", "bkdtg_X=https://api.internal\n"],
      ["six labels", "bkdtg_X=https://a.b.c.d.e.f.internal"],
      ["tcp without a port", "bkdtg_X=tcp://ssh.internal"],
    ])("refuses %s (exit 2, naming --map, nothing sent)", async (_n, value) => {
      const r = await emu.run(["migrate", "edge", "edghts_1", "--map", value, "--debug"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: --map: /m);
      // --debug logs every request: none was sent.
      expect(r.stderr).not.toMatch(/GET |POST /);
    });
  });

  describe("a plan every YAML parser reads the same", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("prints a body and a path holding U+2028, U+2029 and U+0085 double-quoted and escaped", async () => {
      const body = "line one\u2028line two\u2029end\u0085.";
      const down = await post(emu.url, "/backends/http_response", { status_code: 503, body });
      const edge = await post(emu.url, "/edges/https", { hostports: ["odd.example.com:443"] });
      await post(emu.url, `/edges/https/${edge.id}/routes`, {
        match_type: "exact_path",
        match: "/a\u2028b",
        backend: { enabled: true, backend_id: down.id },
      });
      const r = await emu.run(["migrate", "edge", edge.id]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toMatch(/[\u0085\u2028\u2029]/);
      const text = r.stdout.split("\n").slice(1).join("\n");
      const expected = {
        on_http_request: [
          {
            name: expect.any(String),
            expressions: ['req.url.path == "/a\u2028b"'],
            actions: [{ type: "custom-response", config: { status_code: 503, body } }],
          },
          { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
        ],
      };
      expect(parseAllDocuments(r.stdout)[0]!.toJS()).toEqual(expected);
      expect(jsYaml.load(text)).toEqual(expected);
    });
  });

  describe("--apply run twice", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("creates the endpoints, then finds them with the same policy and creates nothing", async () => {
      const app = await post(emu.url, "/backends/tunnel_group", { labels: { service: "app" } });
      const edge = await post(emu.url, "/edges/https", { hostports: ["twice.example.com:443"] });
      await post(emu.url, `/edges/https/${edge.id}/routes`, {
        match_type: "path_prefix",
        match: "/",
        backend: { enabled: true, backend_id: app.id },
      });
      const first = await emu.run(["migrate", "edge", edge.id, "--apply"]);
      expect(first.stderr).toBe("");
      expect(first.exitCode).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(`^ID\\s+URL\\s+EDGE\\nep_\\w+\\s+https://twice\\.example\\.com\\s+${edge.id}$`),
      );
      const again = await emu.run(["migrate", "edge", edge.id, "--apply", "-o", "json"]);
      expect(again.exitCode).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual([]);
      expect(again.stderr).toMatch(/exists: https:\/\/twice\.example\.com is already endpoint ep_/);
      expect(await emu.endpoints()).toHaveLength(1);
    });
  });
});

// `migrate edge --apply`, the real bin: against the real emulator, what is already there
// (the same policy: skipped as existing; another policy: not migrated, item `endpoint`, the
// existing id named), nothing created twice, --dry-run sending only reads, and a retired
// account explained; against the fault server, a failed POST not repeated and a read-only
// account's refusal explained.
describe("--apply and what is already there", () => {
  const SECRET = "whsec_apply_Tq7Lm2Vx9";

  /** An HTTPS edge on a.example.com and b.example.com, one route to a tunnel group, its webhook verified. */
  async function buildEdge(base: string, hosts = ["a.example.com", "b.example.com"]): Promise<string> {
    const app = await post(base, "/backends/tunnel_group", { labels: { service: "app" } });
    const edge = await post(base, "/edges/https", { hostports: hosts.map((h) => `${h}:443`) });
    const route = await post(base, `/edges/https/${edge.id}/routes`, {
      match_type: "path_prefix",
      match: "/",
      backend: { enabled: true, backend_id: app.id },
    });
    await put(base, `/edges/https/${edge.id}/routes/${route.id}/webhook_verification`, {
      enabled: true,
      provider: "github",
      secret: SECRET,
    });
    return edge.id;
  }

  describe("--apply and the endpoints already there (emulator)", () => {
    const emu = useEmulator(undefined, appSandbox);
    let edgeId: string;
    let plan: { url: string; traffic_policy: object }[];
    beforeAll(async () => {
      edgeId = await buildEdge(emu.url);
      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json", "--show-secret"]);
      expect(r.exitCode, r.stderr).toBe(0);
      plan = (JSON.parse(r.stdout) as { endpoints: typeof plan }).endpoints;
      expect(plan.map((e) => e.url)).toEqual(["https://a.example.com", "https://b.example.com"]);
    });

    it("another policy on a planned URL: not migrated (item endpoint, the existing id), exit 2, nothing created", async () => {
      const other = await call(emu.url, "POST", "/endpoints", {
        body: {
          type: "cloud",
          url: "https://a.example.com",
          traffic_policy: '{"on_http_request":[{"actions":[{"type":"deny","config":{"status_code":403}}]}]}',
        },
      });
      expect(other.status).toBe(201);
      const r = await emu.run(["migrate", "edge", edgeId, "--apply", "-o", "json"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      const { error } = JSON.parse(r.stderr) as {
        error: { kind: string; details: { not_migrated: { item: string; reason: string; route_id: unknown }[] } };
      };
      expect(error.kind).toBe("usage");
      const conflict = error.details.not_migrated.find((n) => n.item === "endpoint")!;
      expect(conflict).toMatchObject({ edge_id: edgeId, route_id: null, item: "endpoint" });
      expect(conflict.reason).toContain(other.json.id as string);
      expect(conflict.reason).toContain("https://a.example.com");
      expect((await emu.endpoints()).map((e) => e.id)).toEqual([other.json.id]);

      // With --allow-partial the other URL is created; the one taken is left as it is.
      const partial = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial", "-o", "json"]);
      expect(partial.exitCode, partial.stderr).toBe(0);
      expect((JSON.parse(partial.stdout) as { url: string }[]).map((e) => e.url)).toEqual(["https://b.example.com"]);
      const after = await emu.endpoints();
      expect(after).toHaveLength(2);
      expect(after.find((e) => e.url === "https://a.example.com")!.id).toBe(other.json.id);

      // Run again: b exists with the same policy (skipped), a is still another's: nothing created twice.
      const again = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial", "-o", "json"]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual([]);
      expect(again.stderr).toMatch(/exists: https:\/\/b\.example\.com is already endpoint ep_/);
      expect(await emu.endpoints()).toHaveLength(2);
    });
  });

  describe("the same policy, written otherwise, on the URL with its default port (emulator)", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("is skipped as existing: compared as parsed documents, the URL without :443", async () => {
      const edgeId = await buildEdge(emu.url, ["c.example.com"]);
      const planned = await emu.run(["migrate", "edge", edgeId, "-o", "json", "--show-secret"]);
      const [endpoint] = (JSON.parse(planned.stdout) as { endpoints: { traffic_policy: object }[] }).endpoints;
      // YAML, keys in another order, on https://c.example.com:443.
      const yaml = stringify(endpoint!.traffic_policy, { sortMapEntries: true });
      const made = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: "https://c.example.com:443", traffic_policy: yaml },
      });
      expect(made.status, made.text).toBe(201);
      const r = await emu.run(["migrate", "edge", edgeId, "--apply"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`is already endpoint ${made.json.id}`);
      expect((await emu.endpoints()).map((e) => e.id)).toEqual([made.json.id]);
    });

    it("--dry-run prints the POSTs (secret redacted), sends only reads, creates nothing", async () => {
      const edgeId = await buildEdge(emu.url, ["d.example.com"]);
      const before = (await emu.endpoints()).length;
      const r = await emu.run(["migrate", "edge", edgeId, "--apply", "--dry-run", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain("POST");
      expect(r.stdout).toContain("https://d.example.com");
      expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
      expect(await emu.endpoints()).toHaveLength(before);
    });
  });

  describe("--allow-partial (emulator)", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("creates what the plan holds: the routes not migrated fail closed (deny 503), the real secret sent", async () => {
      const b = await buildShop(emu.url);
      const r = await emu.run(["migrate", "edge", b.edgeId, "--apply", "--allow-partial", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`route ${b.routes.sns}: webhook_verification`);
      expect(r.stderr).toContain(`route ${b.routes.lb}: backend`);
      const created = await emu.endpoints();
      expect(created.map((e) => e.url).sort()).toEqual(URLS);
      for (const e of created) {
        expect(JSON.parse(e.traffic_policy)).toEqual(expectedPolicy(b, GITHUB_SECRET));
        expect(e.description).toBe(`Migrated from edge ${b.edgeId}`);
      }
      // Printed: the API's endpoints, the secret masked inside traffic_policy.
      const printed = JSON.parse(r.stdout) as { id: string; traffic_policy: string }[];
      expect(printed.map((e) => e.id).sort()).toEqual(created.map((e) => e.id).sort());
      expect(JSON.parse(printed[0]!.traffic_policy)).toEqual(expectedPolicy(b, "********"));
    });
  });

  describe("a hostport on another port than 443 (emulator)", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("is not migrated (item hostport); the edge's other hostport is planned and created", async () => {
      const edgeId = await buildEdge(emu.url, ["p.example.com"]);
      await call(emu.url, "PATCH", `/edges/https/${edgeId}`, {
        body: { id: edgeId, hostports: ["p.example.com:443", "q.example.com:8443"] },
      });
      const plan = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const p = JSON.parse(plan.stdout) as { endpoints: { url: string }[]; not_migrated: object[] };
      expect(p.endpoints.map((e) => e.url)).toEqual(["https://p.example.com"]);
      expect(p.not_migrated).toEqual([
        { edge_id: edgeId, route_id: null, item: "hostport", reason: expect.stringContaining("q.example.com:8443") },
      ]);
      const r = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect((await emu.endpoints()).map((e) => e.url)).toEqual(["https://p.example.com"]);
    });
  });

  describe("a retired account (emulator --edges retired)", () => {
    const emu = useEmulator(() => ["--edges", "retired"], appSandbox);

    it("--apply explains ERR_NGROK_7008 in plain words, exit 1, nothing created", async () => {
      const r = await emu.run(["migrate", "edge", "edghts_1", "--apply"]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("ERR_NGROK_7008");
      expect(r.stderr).toMatch(/ngrok retired Edges on 2025-12-31/);
      expect(await emu.endpoints()).toEqual([]);
    });
  });

  describe("--apply when a POST fails (fault server)", () => {
    const { suite, scriptApi, requestLines } = useMigrateSuite(appSandbox);

    it("a failed POST is not repeated; the endpoints already created are listed", async () => {
      scriptApi(undefined, { failAt: 2, failWith: apiError(500, "Internal error", "ERR_NGROK_500") });
      const r = await suite.run(["migrate", "edge", "edghts_1", "edgtls_1", "edgtcp_1", "--apply"]);
      expect(r.exitCode).toBe(1);
      expect(requestLines().filter((l) => l.startsWith("POST"))).toEqual(["POST /endpoints", "POST /endpoints"]);
      expect(`${r.stdout}\n${r.stderr}`).toContain("ep_1");
      expect(`${r.stdout}\n${r.stderr}`).toContain("https://shop.example.com");
    });

    it.each([
      ["a 503", apiError(503, "Service unavailable", "ERR_NGROK_503")],
      ["a reset connection", { reset: true } as const],
    ])("a POST met by %s is not repeated (it may have been created)", async (_what, failWith) => {
      scriptApi(undefined, { failAt: 1, failWith });
      const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
      expect(r.exitCode).not.toBe(0);
      expect(requestLines().filter((l) => l.startsWith("POST"))).toEqual(["POST /endpoints"]);
      expect(r.stdout).toBe("");
    });

    it("a read-only account's refusal (ERR_NGROK_7196) is explained in plain words, exit 1", async () => {
      scriptApi(undefined, {
        failAt: 1,
        failWith: apiError(403, "This operation is not permitted.", "ERR_NGROK_7196"),
      });
      const r = await suite.run(["migrate", "edge", "edghts_1", "--apply"]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("ERR_NGROK_7196");
      expect(r.stderr).toMatch(/Edges are read-only/);
    });
  });
});

// `migrate edge` fails closed end to end, the real bin against a real server ("Leaving Edges"
// in the contract; the planner's rules are held in test/migrate/plan.test.ts): keys the
// planner does not know (which only works if the read layer keeps them), OAuth teams and
// organizations, a TCP edge whose backend is an HTTP response, and --apply reading every page
// of GET /endpoints before deciding what exists.
describe("fails closed", () => {
  const DENY_503 = { type: "deny", config: { status_code: 503 } };
  const FWD_APP = { type: "forward-internal", config: { url: "https://service-app.internal" } };
  const APP = tunnelGroup("bkdtg_app", { service: "app" });

  interface NotMigrated {
    edge_id: string;
    route_id: string | null;
    item: string;
    reason: string;
  }
  interface PlanJson {
    edge_id: string;
    endpoints: { url: string; traffic_policy: Record<string, unknown> }[];
    not_migrated: NotMigrated[];
  }

  /**
   * The fault server answers GETs of `objects` (by path) and GET /endpoints from `endpointPages`
   * (by query, the first `limit=100`); POST /endpoints is refused, so that none may slip by unseen.
   */
  function answerAccount(
    suite: FaultSuite,
    objects: Record<string, object>,
    endpointPages: Record<string, object> = {},
  ) {
    suite.server.fallback = (req): Reply => {
      const [path, query = ""] = req.path.split("?");
      if (req.method === "GET" && path === "/endpoints") {
        const page = endpointPages[query];
        if (page) return json(200, page);
        if (query === "limit=100") return json(200, { endpoints: [], uri: `${suite.server.url}/endpoints` });
      }
      if (req.method === "GET" && objects[req.path]) return json(200, objects[req.path]!);
      if (req.method === "POST") return apiError(500, "this test never lets an endpoint be created");
      return apiError(404, `nothing at ${req.method} ${req.path}`);
    };
  }

  const posts = (suite: FaultSuite) => suite.server.requests.filter((q) => q.method === "POST");

  /** The error `-o json` prints on stderr for a refused --apply: the items not migrated. */
  function refusedItems(stderr: string): NotMigrated[] {
    const { error } = JSON.parse(stderr) as { error: { kind: string; details: { not_migrated: NotMigrated[] } } };
    expect(error.kind).toBe("usage");
    return error.details.not_migrated;
  }

  describe("keys the planner does not know, with a value (fault server)", () => {
    const suite = useFaultServer("key_fail_closed_unknown_1", appSandbox);
    const LEGACY = { enabled: true, inbound: [{ actions: [{ type: "deny" }] }], outbound: [] };

    it("an edge-level module and a route's legacy policy: both listed, the whole endpoint only denies; --apply exits 2, nothing created", async () => {
      const e = edge(
        [
          route("edghtsrt_1", "path_prefix", "/", "bkdtg_app", { policy: LEGACY }),
          route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app"),
        ],
        { some_new_module: { enabled: true } },
      );
      answerAccount(suite, { "/edges/https/edghts_1": e, "/backends/tunnel_group/bkdtg_app": APP });

      const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toHaveLength(2);
      expect(plan.not_migrated).toEqual(
        expect.arrayContaining([
          {
            edge_id: "edghts_1",
            route_id: null,
            item: "some_new_module",
            reason: expect.stringMatching(/does not know/),
          },
          {
            edge_id: "edghts_1",
            route_id: "edghtsrt_1",
            item: "policy",
            reason: expect.stringMatching(/legacy policy/),
          },
        ]),
      );
      expect(plan.endpoints.map((p) => p.traffic_policy)).toEqual([
        { on_http_request: [{ name: "edghts_1", actions: [DENY_503] }] },
      ]);

      suite.server.requests.length = 0;
      const apply = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
      expect(apply.exitCode).toBe(2);
      expect(apply.stdout).toBe("");
      expect(refusedItems(apply.stderr).map((n) => [n.route_id, n.item])).toEqual(
        expect.arrayContaining([
          [null, "some_new_module"],
          ["edghtsrt_1", "policy"],
        ]),
      );
      expect(posts(suite)).toEqual([]);
    });

    it("a route's legacy policy alone: that route's rule denies 503, the other route is kept", async () => {
      const e = edge([
        route("edghtsrt_1", "path_prefix", "/m", "bkdtg_app", { policy: LEGACY }),
        route("edghtsrt_ok", "exact_path", "/ok", "bkdtg_app"),
      ]);
      answerAccount(suite, { "/edges/https/edghts_1": e, "/backends/tunnel_group/bkdtg_app": APP });

      const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated.map((n) => [n.route_id, n.item])).toEqual([["edghtsrt_1", "policy"]]);
      expect(plan.endpoints[0]!.traffic_policy).toEqual({
        on_http_request: [
          { name: "edghtsrt_ok", expressions: ['req.url.path == "/ok"'], actions: [FWD_APP] },
          { name: "edghtsrt_1", expressions: ['req.url.path.startsWith("/m")'], actions: [DENY_503] },
          { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
        ],
      });
    });
  });

  describe("OAuth with teams or organizations (emulator)", () => {
    const emu = useEmulator(undefined, appSandbox);

    it.each([
      ["teams", "teams.example.com", { teams: ["octo-org/admins"] }],
      ["organizations", "orgs.example.com", { organizations: ["octo-org"] }],
    ])(
      "github %s: not migrated, the route denies 503; --apply exits 2 and creates nothing; --allow-partial stores the deny",
      async (key, host, restriction) => {
        const app = await post(emu.url, "/backends/tunnel_group", { labels: { service: "app" } });
        const { id: edgeId } = await post(emu.url, "/edges/https", { hostports: [`${host}:443`] });
        const addRoute = (match_type: string, match: string, extra: object = {}) =>
          post(emu.url, `/edges/https/${edgeId}/routes`, {
            match_type,
            match,
            backend: { enabled: true, backend_id: app.id },
            ...extra,
          });
        const ok = await addRoute("exact_path", "/ok");
        const admin = await addRoute("path_prefix", "/admin", {
          oauth: { enabled: true, provider: { github: restriction } },
        });
        const url = `https://${host}`;
        const expected = {
          on_http_request: [
            { name: ok.id, expressions: ['req.url.path == "/ok"'], actions: [FWD_APP] },
            { name: admin.id, expressions: ['req.url.path.startsWith("/admin")'], actions: [DENY_503] },
            { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
          ],
        };

        const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
        expect(r.exitCode, r.stderr).toBe(0);
        const plan = JSON.parse(r.stdout) as PlanJson;
        expect(plan.not_migrated).toEqual([
          { edge_id: edgeId, route_id: admin.id, item: "oauth", reason: expect.stringContaining(key) },
        ]);
        expect(plan.endpoints).toEqual([expect.objectContaining({ url, traffic_policy: expected })]);

        const refused = await emu.run(["migrate", "edge", edgeId, "--apply", "-o", "json"]);
        expect(refused.exitCode).toBe(2);
        expect(refused.stdout).toBe("");
        expect(refusedItems(refused.stderr).map((n) => [n.route_id, n.item])).toEqual([[admin.id, "oauth"]]);
        expect((await emu.endpoints()).filter((e) => e.url === url)).toEqual([]);

        const partial = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial", "-o", "json"]);
        expect(partial.exitCode, partial.stderr).toBe(0);
        const stored = (await emu.endpoints()).filter((e) => e.url === url);
        expect(stored).toHaveLength(1);
        expect(JSON.parse(stored[0]!.traffic_policy)).toEqual(expected);
      },
    );
  });

  describe("a TCP edge whose backend is an HTTP response (fault server)", () => {
    const suite = useFaultServer("key_fail_closed_tcp_1", appSandbox);

    it("is not migrated (item backend), the endpoint only denies on_tcp_connect; --apply exits 2, nothing created", async () => {
      answerAccount(suite, {
        "/edges/tcp/edgtcp_1": tcpEdge({ hostports: ["1.tcp.ngrok.io:12345"], backend: backendModule("bkdhr_1") }),
        "/backends/http_response/bkdhr_1": httpResponse("bkdhr_1", 200, "hello"),
      });

      const r = await suite.run(["migrate", "edge", "edgtcp_1", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([
        { edge_id: "edgtcp_1", route_id: null, item: "backend", reason: expect.any(String) },
      ]);
      expect(plan.endpoints).toEqual([
        expect.objectContaining({
          url: "tcp://1.tcp.ngrok.io:12345",
          traffic_policy: { on_tcp_connect: [{ name: "edgtcp_1", actions: [{ type: "deny" }] }] },
        }),
      ]);

      suite.server.requests.length = 0;
      const apply = await suite.run(["migrate", "edge", "edgtcp_1", "--apply", "-o", "json"]);
      expect(apply.exitCode).toBe(2);
      expect(apply.stdout).toBe("");
      expect(refusedItems(apply.stderr).map((n) => [n.route_id, n.item])).toEqual([[null, "backend"]]);
      expect(posts(suite)).toEqual([]);
    });
  });

  describe("--apply reads every page of GET /endpoints (fault server)", () => {
    const suite = useFaultServer("key_fail_closed_pages_1", appSandbox);
    const SHOP = edge([route("edghtsrt_1", "path_prefix", "/", "bkdtg_app")]);
    const NEXT = "before_id=ep_other_99&limit=100";
    const objects = { "/edges/https/edghts_1": SHOP, "/backends/tunnel_group/bkdtg_app": APP };

    /** Page 1: 100 endpoints on other URLs and a next page; page 2: `last` alone. */
    function pages(last: object): Record<string, object> {
      const others = Array.from({ length: 100 }, (_, i) => ({
        id: `ep_other_${i}`,
        type: "cloud",
        url: `https://other-${i}.example.com`,
        traffic_policy: '{"on_http_request":[]}',
      }));
      return {
        "limit=100": {
          endpoints: others,
          uri: `${suite.server.url}/endpoints`,
          next_page_uri: `${suite.server.url}/endpoints?${NEXT}`,
        },
        [NEXT]: { endpoints: [last], uri: `${suite.server.url}/endpoints?${NEXT}`, next_page_uri: null },
      };
    }

    async function plannedPolicy(): Promise<object> {
      answerAccount(suite, objects);
      const r = await suite.run(["migrate", "edge", "edghts_1", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([]);
      expect(plan.endpoints.map((e) => e.url)).toEqual(["https://shop.example.com"]);
      return plan.endpoints[0]!.traffic_policy;
    }

    it("the planned URL with the planned policy on page 2: exists, exit 0, no POST", async () => {
      const policy = await plannedPolicy();
      const shop = {
        id: "ep_shop",
        type: "cloud",
        url: "https://shop.example.com",
        traffic_policy: JSON.stringify(policy),
      };
      answerAccount(suite, objects, pages(shop));
      suite.server.requests.length = 0;

      const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      expect(r.stderr).toContain("exists: https://shop.example.com is already endpoint ep_shop with this policy");
      expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toContain(`GET /endpoints?${NEXT}`);
      expect(posts(suite)).toEqual([]);
    });

    it("another policy at the planned URL on page 2: not migrated (item endpoint), exit 2, no POST", async () => {
      await plannedPolicy();
      const shop = {
        id: "ep_shop",
        type: "cloud",
        url: "https://shop.example.com",
        traffic_policy: '{"on_http_request":[{"actions":[{"type":"deny","config":{"status_code":403}}]}]}',
      };
      answerAccount(suite, objects, pages(shop));
      suite.server.requests.length = 0;

      const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(refusedItems(r.stderr)).toEqual([
        { edge_id: "edghts_1", route_id: null, item: "endpoint", reason: expect.stringContaining("ep_shop") },
      ]);
      expect(posts(suite)).toEqual([]);
    });
  });
});

// `migrate edge` and `export` end to end, module by module: the real bin against the real
// emulator, each edge built through the emulator's own API (route and edge-level module
// endpoints), so the planner reads the shapes the API really shows. Held here: --debug never
// shows a secret while the created endpoint holds the real ones; the user-agent filter as a
// deny-403 rule; edge-level TLS as terminate-tls (and terminate_at upstream failing closed); a
// route's own traffic_policy under its path; a policy value that does not parse masked whole
// by export; a literal `${` escaped. The planner's rules are held one by one in
// test/migrate/plan.test.ts; the masking in test/output/mask.test.ts.
describe("module by module (emulator)", () => {
  const KEY = "key_leaving_edges_1";
  const DENY_403 = { type: "deny", config: { status_code: 403 } };
  const DENY_503 = { type: "deny", config: { status_code: 503 } };
  const NOT_FOUND = { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] };

  /** Every 4-character part of a secret: none may show anywhere. */
  const parts = (secret: string) => Array.from({ length: secret.length - 3 }, (_, i) => secret.slice(i, i + 4));
  function expectNoPartOf(secrets: string[], out: string) {
    for (const s of secrets) for (const p of parts(s)) expect(out, `a part of ${s} (${p})`).not.toContain(p);
  }

  interface PlanJson {
    edge_id: string;
    endpoints: { url: string; traffic_policy: Record<string, { name?: string; expressions?: string[] }[]> }[];
    not_migrated: { edge_id: string; route_id: string | null; item: string; reason: string }[];
    warnings: { edge_id: string; route_id: string | null; item: string; message: string }[];
  }

  /** A tunnel group backend module (service=<name>), as a route's `backend` is sent. */
  async function tunnel(base: string, service: string) {
    const tg = await post(base, "/backends/tunnel_group", { labels: { service } });
    return { enabled: true, backend_id: tg.id };
  }

  /** An HTTPS edge on `host`:443 and its routes, each created with the modules given. */
  async function edgeWithRoutes(base: string, host: string, routes: Record<string, unknown>[]) {
    const edge = await post(base, "/edges/https", { hostports: [`${host}:443`] });
    const ids: string[] = [];
    for (const r of routes) ids.push((await post(base, `/edges/https/${edge.id}/routes`, r)).id);
    return { edgeId: edge.id, routeIds: ids };
  }

  /** GET /endpoints on the emulator with plain fetch and the API key: what the account really holds. */
  async function heldEndpoints(base: string): Promise<{ id: string; url: string; traffic_policy: string }[]> {
    const res = await fetch(`${base}/endpoints`, {
      headers: { Authorization: `Bearer ${KEY}`, "Ngrok-Version": "2" },
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { endpoints: { id: string; url: string; traffic_policy: string }[] }).endpoints;
  }

  describe("1. migrate --apply --allow-partial --debug never shows a secret", () => {
    const emu = useEmulator(undefined, appSandbox);
    // No 4 characters of either could be anything else printed (ids are letters and digits only).
    const WEBHOOK_SECRET = "Qz7~Wk2~Xv9~Lp4~Rt8";
    const CLIENT_SECRET = "Hb3~Nf6~Jd1~Yc5~Gs0";
    let edgeId: string;
    let routes: string[];
    beforeAll(async () => {
      const backend = await tunnel(emu.url, "app");
      ({ edgeId, routeIds: routes } = await edgeWithRoutes(emu.url, "secrets.example.com", [
        { match_type: "exact_path", match: "/hooks/github", backend },
        { match_type: "path_prefix", match: "/sso", backend },
        // Not migrated (verify-webhook needs a secret SNS never gave): --allow-partial is needed.
        { match_type: "exact_path", match: "/hooks/sns", backend },
      ]));
      const route = (id: string) => `/edges/https/${edgeId}/routes/${id}`;
      await put(emu.url, `${route(routes[0]!)}/webhook_verification`, {
        enabled: true,
        provider: "github",
        secret: WEBHOOK_SECRET,
      });
      await put(emu.url, `${route(routes[1]!)}/oauth`, {
        enabled: true,
        provider: { google: { client_id: "gid-sso", client_secret: CLIENT_SECRET, scopes: ["email"] } },
      });
      await put(emu.url, `${route(routes[2]!)}/webhook_verification`, { enabled: true, provider: "sns" });
    });

    it("exit 0, the POST logged, no part of either secret on stdout or stderr; the endpoint holds the real ones", async () => {
      for (const format of [[], ["-o", "json"]]) {
        const r = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial", "--debug", ...format]);
        expect(r.exitCode, r.stderr).toBe(0);
        expectNoPartOf([WEBHOOK_SECRET, CLIENT_SECRET], `${r.stdout}\n${r.stderr}`);
        if (format.length > 0) {
          // The second run finds the endpoint it made: skipped as existing, nothing POSTed.
          expect(r.stderr).toContain("is already endpoint ep_");
          continue;
        }
        // The log shows the edge read (modules and all) and the POST with its body, masked.
        expect(r.stderr).toContain(`debug: → GET ${emu.url}/edges/https/${edgeId}`);
        const lines = r.stderr.split("\n");
        const post = lines.indexOf(`debug: → POST ${emu.url}/endpoints`);
        expect(post, r.stderr).toBeGreaterThan(-1);
        // The POST's body (the line after its headers) holds both actions, their secrets masked where they stand.
        const body = lines[post + 2]!;
        expect(body).toMatch(/^debug: {3}body: .*verify-webhook.*\\"secret\\":\\"\*{8}\\".*oauth/);
        expect(body).toContain('\\"client_secret\\":\\"********\\"');
        expect(r.stderr).toContain(`not migrated: edge ${edgeId} route ${routes[2]}: webhook_verification`);
        expect(r.stdout).toContain("https://secrets.example.com");
      }
      const held = await heldEndpoints(emu.url);
      expect(held.map((e) => e.url)).toEqual(["https://secrets.example.com"]);
      const actions = (JSON.parse(held[0]!.traffic_policy) as PlanJson["endpoints"][0]["traffic_policy"])
        .on_http_request!.flatMap((rule) => (rule as { actions: { type: string; config?: object }[] }).actions)
        .filter((a) => a.type === "verify-webhook" || a.type === "oauth");
      expect(actions).toEqual([
        { type: "verify-webhook", config: { provider: "github", secret: WEBHOOK_SECRET } },
        {
          type: "oauth",
          config: { provider: "google", client_id: "gid-sso", client_secret: CLIENT_SECRET, scopes: ["email"] },
        },
      ]);
    });
  });

  describe("2. the user-agent filter becomes a deny-403 rule", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("the route's rules include deny 403 on the filter's expression; --apply creates it", async () => {
      const backend = await tunnel(emu.url, "app");
      const { edgeId, routeIds } = await edgeWithRoutes(emu.url, "ua.example.com", [
        { match_type: "path_prefix", match: "/app", backend },
      ]);
      await put(emu.url, `/edges/https/${edgeId}/routes/${routeIds[0]}/user_agent_filter`, {
        enabled: true,
        allow: ["^good$"],
        deny: ["bot", 'x"y'],
      });
      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([]);
      const e = ['req.url.path.startsWith("/app")'];
      expect(plan.endpoints[0]!.traffic_policy.on_http_request).toEqual([
        {
          // A route's first rule is named after it; the rules after it `<route-id> <what>`.
          name: routeIds[0],
          expressions: [
            ...e,
            '!(req.user_agent.matches("^good$")) && (req.user_agent.matches("bot") || req.user_agent.matches("x\\"y") || req.user_agent == "")',
          ],
          actions: [DENY_403],
        },
        {
          name: `${routeIds[0]} forward-internal`,
          expressions: e,
          actions: [{ type: "forward-internal", config: { url: "https://service-app.internal" } }],
        },
        NOT_FOUND,
      ]);

      const applied = await emu.run(["migrate", "edge", edgeId, "--apply"]);
      expect(applied.exitCode, applied.stderr).toBe(0);
      const held = await heldEndpoints(emu.url);
      expect(held.map((x) => x.url)).toEqual(["https://ua.example.com"]);
      expect(JSON.parse(held[0]!.traffic_policy)).toEqual(plan.endpoints[0]!.traffic_policy);
    });
  });

  describe("3. an HTTPS edge's mutual_tls and tls_termination become terminate-tls", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("set through /mutual_tls and /tls_termination: one terminate-tls, 1.1 raised to 1.2 with a warning; --apply exit 0", async () => {
      const backend = await tunnel(emu.url, "app");
      const { edgeId, routeIds } = await edgeWithRoutes(emu.url, "mtls.example.com", [
        { match_type: "path_prefix", match: "/", backend },
      ]);
      await put(emu.url, `/edges/https/${edgeId}/mutual_tls`, {
        enabled: true,
        certificate_authority_ids: ["ca_2Rootxyz", "ca_3Inter"],
      });
      await put(emu.url, `/edges/https/${edgeId}/tls_termination`, { enabled: true, min_version: "1.1" });
      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([]);
      expect(plan.endpoints[0]!.traffic_policy.on_tcp_connect).toEqual([
        {
          name: edgeId,
          actions: [
            {
              type: "terminate-tls",
              config: { mutual_tls_certificate_authorities: ["ca_2Rootxyz", "ca_3Inter"], min_version: "1.2" },
            },
          ],
        },
      ]);
      expect(plan.warnings).toEqual([
        { edge_id: edgeId, route_id: null, item: "tls_termination", message: expect.stringContaining("1.1") },
      ]);
      expect(plan.endpoints[0]!.traffic_policy.on_http_request).toEqual([
        {
          name: routeIds[0],
          actions: [{ type: "forward-internal", config: { url: "https://service-app.internal" } }],
        },
      ]);

      const applied = await emu.run(["migrate", "edge", edgeId, "--apply"]);
      expect(applied.exitCode, applied.stderr).toBe(0);
      expect(applied.stderr).toContain(`changed: edge ${edgeId}: tls_termination:`);
      const held = await heldEndpoints(emu.url);
      expect(JSON.parse(held[0]!.traffic_policy)).toEqual(plan.endpoints[0]!.traffic_policy);
    });
  });

  describe("3. terminate_at upstream on an HTTPS edge: the whole endpoint denies", () => {
    // The API shows terminate_at on an HTTPS edge but takes no such field on a write (nor does
    // the emulator): the account is made through the API, then the emulator's state file holds
    // the edge as such an account shows it, and a second emulator serves that file.
    let scratch: string;
    let stateFile: string;
    let emu: Awaited<ReturnType<typeof startInProcessEmulator>> | undefined;
    let cli: AppSandbox;
    let edgeId: string;
    beforeAll(async () => {
      scratch = mkdtempSync(join(tmpdir(), "edgectl-migrate-modules-"));
      stateFile = join(scratch, "state.json");
      cli = appSandbox();
      emu = await startInProcessEmulator(["--state", stateFile]);
      const backend = await tunnel(emu.url, "app");
      ({ edgeId } = await edgeWithRoutes(emu.url, "up.example.com", [
        { match_type: "path_prefix", match: "/", backend },
      ]));
      await put(emu.url, `/edges/https/${edgeId}/tls_termination`, { enabled: true });
      // Stopped cleanly (its state written); the emulator's exit code as a process is test/emulator/cli's.
      await expect(emu.stop()).resolves.toBeUndefined();
      emu = undefined;
      const state = JSON.parse(readFileSync(stateFile, "utf8")) as {
        https_edges: { id: string; tls_termination: Record<string, unknown> }[];
      };
      const edge = state.https_edges.find((x) => x.id === edgeId)!;
      expect(edge.tls_termination).toMatchObject({ enabled: true, terminate_at: "edge" });
      edge.tls_termination = { enabled: true, terminate_at: "upstream", min_version: null };
      writeFileSync(stateFile, JSON.stringify(state));
      emu = await startInProcessEmulator(["--state", stateFile]);
    });
    afterAll(async () => {
      await emu?.stop();
      cli.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    });
    const run = (args: string[]) => runCli(cli, args, { env: { EDGECTL_BASE_URL: emu!.url, EDGECTL_API_KEY: KEY } });

    it("the edge reads terminate_at upstream; the plan lists it and denies 503; --apply exits 2, nothing created", async () => {
      const r = await run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.not_migrated).toEqual([
        { edge_id: edgeId, route_id: null, item: "tls_termination", reason: expect.stringContaining("upstream") },
      ]);
      expect(plan.endpoints[0]!.traffic_policy).toEqual({ on_http_request: [{ name: edgeId, actions: [DENY_503] }] });

      const applied = await run(["migrate", "edge", edgeId, "--apply"]);
      expect(applied.exitCode).toBe(2);
      expect(applied.stdout).toBe("");
      expect(applied.stderr).toContain(`not migrated: edge ${edgeId}: tls_termination:`);
      expect(await heldEndpoints(emu!.url)).toEqual([]);
    });
  });

  describe("4. a route's own traffic_policy module", () => {
    const emu = useEmulator(undefined, appSandbox);

    it("its on_http_request rules get the route's path expression first; on_tcp_connect: not migrated, deny 503", async () => {
      const backend = await tunnel(emu.url, "app");
      const own = {
        on_http_request: [
          {
            name: "get-only",
            expressions: ["req.method == 'GET'", "req.url.query.contains('x')"],
            actions: [{ type: "add-headers", config: { headers: { "x-own": "1" } } }],
          },
        ],
      };
      const { edgeId, routeIds } = await edgeWithRoutes(emu.url, "own.example.com", [
        { match_type: "path_prefix", match: "/api", backend },
        { match_type: "exact_path", match: "/tcp", backend },
      ]);
      const [api, tcp] = routeIds as [string, string];
      await put(emu.url, `/edges/https/${edgeId}/routes/${api}/traffic_policy`, {
        enabled: true,
        value: JSON.stringify(own),
      });
      await put(emu.url, `/edges/https/${edgeId}/routes/${tcp}/traffic_policy`, {
        enabled: true,
        value: "on_tcp_connect:\n  - actions:\n      - type: deny\n",
      });
      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as PlanJson;
      const rules = plan.endpoints[0]!.traffic_policy.on_http_request!;
      const path = 'req.url.path.startsWith("/api")';
      // The route's first rule (named after it): the module's rule, the path expression before its own.
      expect(rules.find((x) => x.name === api)).toEqual({
        name: api,
        expressions: [path, "req.method == 'GET'", "req.url.query.contains('x')"],
        actions: own.on_http_request[0]!.actions,
      });
      // Every rule of the route carries its path expression first.
      for (const rule of rules.filter((x) => x.name?.startsWith(api))) expect(rule.expressions?.[0]).toBe(path);
      expect(plan.not_migrated).toEqual([
        { edge_id: edgeId, route_id: tcp, item: "traffic_policy", reason: expect.stringMatching(/on_tcp_connect/) },
      ]);
      expect(rules.filter((x) => x.name === tcp)).toEqual([
        { name: tcp, expressions: ['req.url.path == "/tcp"'], actions: [DENY_503] },
      ]);
      expect(rules.at(-1)).toEqual(NOT_FOUND);

      const applied = await emu.run(["migrate", "edge", edgeId, "--apply", "--allow-partial"]);
      expect(applied.exitCode, applied.stderr).toBe(0);
      const held = await heldEndpoints(emu.url);
      expect(JSON.parse(held[0]!.traffic_policy)).toEqual(plan.endpoints[0]!.traffic_policy);
    });
  });

  describe("5. export of a route policy that does not parse", () => {
    const emu = useEmulator(undefined, appSandbox);
    const SECRET = "SOMESECRET123";
    // An unclosed flow sequence: not JSON, not YAML.
    const BROKEN = `on_http_request:\n  - actions: [\n      type: verify-webhook\n      secret: ${SECRET}\n`;

    it('prints the value as exactly "********", the secret nowhere; --show-secret prints it as stored', async () => {
      const backend = await tunnel(emu.url, "app");
      const { edgeId, routeIds } = await edgeWithRoutes(emu.url, "broken.example.com", [
        { match_type: "path_prefix", match: "/", backend, traffic_policy: { enabled: true, value: BROKEN } },
      ]);
      const routeOf = (stdout: string) => {
        const doc = JSON.parse(stdout) as {
          https_edges: { id: string; routes: { id: string; traffic_policy: { value: string } }[] }[];
        };
        return doc.https_edges.find((x) => x.id === edgeId)!.routes.find((x) => x.id === routeIds[0])!;
      };
      const r = await emu.run(["export"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(routeOf(r.stdout).traffic_policy.value).toBe("********");
      expectNoPartOf([SECRET], `${r.stdout}\n${r.stderr}`);

      const shown = await emu.run(["export", "--show-secret"]);
      expect(shown.exitCode, shown.stderr).toBe(0);
      expect(routeOf(shown.stdout).traffic_policy.value).toBe(BROKEN);
    });
  });

  describe("6. a literal ${ copied from an edge", () => {
    const emu = useEmulator(undefined, appSandbox);

    it('is written ${"${"} in the plan with a warning on stderr; --apply exits 0 and the endpoint holds it', async () => {
      const hi = await post(emu.url, "/backends/http_response", { status_code: 200, body: "Hi ${name}", headers: {} });
      const { edgeId, routeIds } = await edgeWithRoutes(emu.url, "hi.example.com", [
        { match_type: "path_prefix", match: "/", backend: { enabled: true, backend_id: hi.id } },
      ]);
      const escaped = { type: "custom-response", config: { status_code: 200, body: 'Hi ${"${"}name}' } };

      const yaml = await emu.run(["migrate", "edge", edgeId]);
      expect(yaml.exitCode, yaml.stderr).toBe(0);
      expect(yaml.stdout).toContain('Hi ${"${"}name}');
      expect(yaml.stderr).toContain(`changed: edge ${edgeId} route ${routeIds[0]}: backend:`);
      expect(yaml.stderr).toContain("${");

      const r = await emu.run(["migrate", "edge", edgeId, "-o", "json"]);
      const plan = JSON.parse(r.stdout) as PlanJson;
      expect(plan.endpoints[0]!.traffic_policy.on_http_request).toEqual([{ name: routeIds[0], actions: [escaped] }]);
      expect(plan.warnings).toEqual([
        { edge_id: edgeId, route_id: routeIds[0], item: "backend", message: expect.stringContaining("${") },
      ]);
      expect(plan.not_migrated).toEqual([]);

      // Nothing else is missing: --apply alone creates it.
      const applied = await emu.run(["migrate", "edge", edgeId, "--apply"]);
      expect(applied.exitCode, applied.stderr).toBe(0);
      const held = await heldEndpoints(emu.url);
      expect(JSON.parse(held[0]!.traffic_policy)).toEqual({
        on_http_request: [{ name: routeIds[0], actions: [escaped] }],
      });
    });
  });
});

// `edgectl migrate edge` for TLS and TCP edges against the REAL emulator: edges built through
// its API, planned, and created with --apply. Needs the emulator to serve /edges/tls and
// /edges/tcp (branch `account`); the planner's rules for them are held in test/migrate too.
describe("TLS and TCP edges (emulator)", () => {
  describe("TLS and TCP edges on a live account", () => {
    const emu = useEmulator(undefined, appSandbox);
    let tlsId: string;
    let tcpId: string;
    beforeAll(async () => {
      const db = await post(emu.url, "/backends/tunnel_group", { labels: { service: "db" } });
      tlsId = (
        await post(emu.url, "/edges/tls", {
          hostports: ["db.example.com:443"],
          backend: { enabled: true, backend_id: db.id },
          tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.3" },
        })
      ).id;
      tcpId = (
        await post(emu.url, "/edges/tcp", {
          hostports: ["1.tcp.ngrok.io:12345"],
          backend: { enabled: true, backend_id: db.id },
          traffic_policy: {
            enabled: true,
            value: JSON.stringify({
              on_tcp_connect: [
                { name: "block", expressions: ["conn.client_ip == '192.0.2.1'"], actions: [{ type: "deny" }] },
              ],
            }),
          },
        })
      ).id;
    });

    it("plans tls://host:443 and tcp://host:port endpoints with on_tcp_connect only", async () => {
      const r = await emu.run(["migrate", "edge", tlsId, tcpId, "-o", "json"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const [tls, tcp] = JSON.parse(r.stdout);
      expect(tls.endpoints).toEqual([
        {
          url: "tls://db.example.com:443",
          description: `Migrated from edge ${tlsId}`,
          metadata: "",
          traffic_policy: {
            on_tcp_connect: [
              {
                name: tlsId,
                actions: [
                  { type: "terminate-tls", config: { min_version: "1.3" } },
                  { type: "forward-internal", config: { url: "tls://service-db.internal:443" } },
                ],
              },
            ],
          },
        },
      ]);
      expect(tcp.endpoints[0].url).toBe("tcp://1.tcp.ngrok.io:12345");
      expect(tcp.endpoints[0].traffic_policy).toEqual({
        on_tcp_connect: [
          { name: tcpId, expressions: ["conn.client_ip == '192.0.2.1'"], actions: [{ type: "deny" }] },
          {
            name: `${tcpId} forward-internal`,
            actions: [{ type: "forward-internal", config: { url: "tcp://service-db.internal:12345" } }],
          },
        ],
      });
    });

    it("--all takes them with the HTTPS edges; --apply creates them", async () => {
      const r = await emu.run(["migrate", "edge", "--all", "--apply", "-o", "json"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(r.stdout) as { url: string }[]).map((e) => e.url.replace(/:443$/, "")).sort()).toEqual([
        "tcp://1.tcp.ngrok.io:12345",
        "tls://db.example.com",
      ]);
    });
  });
});

// Leaving Edges end to end: an edge built through the REAL emulator's API, then `export` and
// `migrate edge` (plan, refusal, --dry-run, --map --apply) as an operator would run them, and
// the same against accounts after the sunset (`--edges read-only`, `--edges retired`).
// The CLI and the emulator run in-process (test/helpers/app.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { spawnEmulator, call } from "../helpers/emulator.js";
import {
  GITHUB_SECRET,
  MASK,
  URLS,
  buildEdge,
  expectedPolicy,
  post,
  useEmulator,
  type Built,
} from "../e2e/leaving-edges.support.js";

describe("an edge on a live account: --map, --dry-run, --apply", () => {
  const emu = useEmulator(undefined, appSandbox);
  let b: Built;
  const LB = "https://lb.internal";
  beforeAll(async () => {
    b = await buildEdge(emu.url);
    // The operator verifies SNS signatures in the app itself, and drops the module here.
    const r = await emu.run(["api", "DELETE", `/edges/https/${b.edgeId}/routes/${b.routes.sns}/webhook_verification`]);
    if (r.exitCode !== 0) throw new Error(`DELETE webhook_verification: ${r.stderr}`);
  });
  /** The plan once SNS verification is dropped: that route forwards like the GitHub one. */
  const withoutSns = (policy: ReturnType<typeof expectedPolicy>) => ({
    on_http_request: policy.on_http_request.map((rule) =>
      rule.name === b.routes.sns
        ? { ...rule, actions: [{ type: "forward-internal", config: { url: "https://service-app.internal" } }] }
        : rule,
    ),
  });

  it("--map forwards the weighted backend, ordered by prefix length, and nothing is left out", async () => {
    const r = await emu.run(["migrate", "edge", b.edgeId, "--map", `${b.backends.weighted}=${LB}`, "-o", "json"]);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.not_migrated).toEqual([]);
    // The /admin route sorts before /api and /lb: longer prefix first.
    expect(plan.endpoints[0].traffic_policy).toEqual(withoutSns(expectedPolicy(b, MASK, LB)));
  });

  it("--dry-run prints the POST requests with secrets redacted and creates nothing", async () => {
    const r = await emu.run([
      "migrate",
      "edge",
      b.edgeId,
      "--map",
      `${b.backends.weighted}=${LB}`,
      "--apply",
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const requests = JSON.parse(r.stdout);
    expect(
      requests.map((q: { request: { method: string; url: string } }) => `${q.request.method} ${q.request.url}`),
    ).toEqual([`POST ${emu.url}/endpoints`, `POST ${emu.url}/endpoints`]);
    expect(requests.map((q: { request: { body: { url: string } } }) => q.request.body.url)).toEqual(URLS);
    expect(r.stdout).not.toContain("whsec-");
    const policy = JSON.parse(requests[0].request.body.traffic_policy);
    expect(policy.on_http_request[0].actions[0]).toEqual({
      type: "verify-webhook",
      config: { provider: "github", secret: MASK },
    });
    expect(await emu.endpoints()).toEqual([]);
  });

  it("--map + --apply creates one endpoint per hostport whose policy holds the real secret, and prints them masked", async () => {
    const r = await emu.run([
      "migrate",
      "edge",
      b.edgeId,
      "--map",
      `${b.backends.weighted}=${LB}`,
      "--apply",
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("whsec-");
    const printed = JSON.parse(r.stdout) as { id: string; url: string; traffic_policy: string }[];
    expect(printed.map((e) => e.url)).toEqual(URLS);

    const listed = await emu.endpoints();
    expect(listed.map((e) => e.id).sort()).toEqual(printed.map((e) => e.id).sort());
    for (const url of URLS) {
      const stored = listed.find((e) => e.url === url)!;
      expect(stored).toMatchObject({
        type: "cloud",
        description: `Migrated from edge ${b.edgeId}`,
        metadata: '{"team":"web"}',
      });
      // The text the API holds parses (as YAML, so JSON too) to the plan, with the real secret.
      expect(parse(stored.traffic_policy)).toEqual(withoutSns(expectedPolicy(b, GITHUB_SECRET, LB)));
      const shown = printed.find((e) => e.url === url)!;
      expect(shown.id).toBe(stored.id);
      expect(parse(shown.traffic_policy)).toEqual(withoutSns(expectedPolicy(b, MASK, LB)));
    }

    // The table form lists them too; `edgectl api GET /endpoints` shows the URLs.
    const table = await emu.run(["api", "GET", "/endpoints"]);
    expect(table.exitCode).toBe(0);
    expect(
      JSON.parse(table.stdout)
        .endpoints.map((e: { url: string }) => e.url)
        .sort(),
    ).toEqual(URLS);
  });
});

describe("accounts after the sunset", () => {
  const dir = mkdtempSync(join(tmpdir(), "edgectl-leaving-"));
  const state = join(dir, "state.json");
  let b: Built;
  beforeAll(async () => {
    // The edge is built while the account could still write, then the emulator restarts read-only.
    const live = await spawnEmulator(["--state", state]);
    try {
      b = await buildEdge(live.url);
    } finally {
      await live.stop();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe("read-only (ERR_NGROK_7196)", () => {
    const emu = useEmulator(() => ["--state", state, "--edges", "read-only"], appSandbox);

    it("still exports and plans (GETs only), and writes to edges are explained", async () => {
      const exported = await emu.run(["export"]);
      expect(exported.exitCode).toBe(0);
      expect(JSON.parse(exported.stdout).https_edges[0].id).toBe(b.edgeId);
      const r = await emu.run(["migrate", "edge", b.edgeId, "-o", "json"]);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).endpoints[0].traffic_policy).toEqual(expectedPolicy(b, MASK));
      const write = await emu.run(["api", "DELETE", `/edges/https/${b.edgeId}`]);
      expect(write.exitCode).toBe(1);
      expect(write.stderr).toContain("ERR_NGROK_7196");
    });

    it("--apply works, since /endpoints is not an Edges resource", async () => {
      const r = await emu.run([
        "migrate",
        "edge",
        b.edgeId,
        "--map",
        `${b.backends.weighted}=https://lb.internal`,
        "--allow-partial",
        "--apply",
      ]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain(`route ${b.routes.sns}: webhook_verification`);
      const rows = r.stdout.trim().split("\n");
      expect(rows[0]).toMatch(/^ID\s+URL\s+EDGE$/);
      expect(rows.slice(1).map((row) => row.split(/\s+/)[1])).toEqual(URLS);
      expect((await emu.endpoints()).map((e) => e.url).sort()).toEqual(URLS);
    });
  });

  describe("retired (ERR_NGROK_7008)", () => {
    const emu = useEmulator(() => ["--state", state, "--edges", "retired"], appSandbox);

    it.each([["export"], ["migrate", "edge", "<edge>"]])(
      "%s exits 1 with the plain-words explanation and nothing on stdout",
      async (...argv) => {
        const r = await emu.run(argv.map((a) => (a === "<edge>" ? b.edgeId : a)));
        expect(r.exitCode).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toContain("ERR_NGROK_7008");
        expect(r.stderr).toMatch(/retired Edges on 2025-12-31/);
        expect(r.stderr).toMatch(/Cloud Endpoint with a Traffic Policy/);
      },
    );
  });
});

describe("export on an account with more than a page of everything", () => {
  const emu = useEmulator(undefined, appSandbox);

  it("follows the emulator's pages past 100 edges and 100 backends of a kind", async () => {
    const edges: string[] = [];
    const groups: string[] = [];
    for (let i = 0; i < 101; i++) {
      edges.push(
        (await post(emu.url, "/edges/https", { description: `edge ${i}`, hostports: [`h${i}.example.com:443`] })).id,
      );
      groups.push((await post(emu.url, "/backends/tunnel_group", { labels: { n: String(i) } })).id);
    }
    const statics = [(await post(emu.url, "/backends/static", { address: "10.0.0.1:443", tls: { enabled: true } })).id];
    const r = await emu.run(["export"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    const ids = (list: { id: string }[]) => list.map((x) => x.id);
    // Newest first, as the API lists them, each exactly once across the pages.
    expect(ids(doc.https_edges)).toEqual([...edges].reverse());
    expect(ids(doc.backends.tunnel_group)).toEqual([...groups].reverse());
    expect(ids(doc.backends.static)).toEqual(statics);
  });
});

describe("host-qualified matches and paths with quotes and backslashes", () => {
  const emu = useEmulator(undefined, appSandbox);

  it("puts a host (:443) match on that endpoint only, its path a CEL literal that survives the API round trip", async () => {
    const app = await post(emu.url, "/backends/tunnel_group", { labels: { service: "app" } });
    const edge = await post(emu.url, "/edges/https", { hostports: ["shop.example.com:443", "www.example.com:443"] });
    const route = (match_type: string, match: string) =>
      post(emu.url, `/edges/https/${edge.id}/routes`, {
        match_type,
        match,
        backend: { enabled: true, backend_id: app.id },
      });
    const odd = await route("path_prefix", 'www.example.com:443/a"b\\c');
    const exact = await route("exact_path", "/x");
    const forward = [{ type: "forward-internal", config: { url: "https://service-app.internal" } }];
    const notFound = { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] };
    const exactRule = { name: exact.id, expressions: ['req.url.path == "/x"'], actions: forward };
    const oddRule = { name: odd.id, expressions: ['req.url.path.startsWith("/a\\"b\\\\c")'], actions: forward };

    const r = await emu.run(["migrate", "edge", edge.id, "--apply", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const stored = await emu.endpoints();
    const policyOf = (url: string) => parse(stored.find((e) => e.url === url)!.traffic_policy);
    expect(policyOf(URLS[0]!)).toEqual({ on_http_request: [exactRule, notFound] });
    expect(policyOf(URLS[1]!)).toEqual({ on_http_request: [exactRule, oddRule, notFound] });
    // The expression holds the path exactly: the literal decodes (as JSON does) to the match's path.
    const literal = /^req\.url\.path\.startsWith\((.*)\)$/.exec(oddRule.expressions[0]!)![1]!;
    expect(JSON.parse(literal)).toBe('/a"b\\c');
  });
});

describe("a route whose backend is gone", () => {
  const emu = useEmulator(undefined, appSandbox);

  it("is listed as not migrated, naming the backend, and the rest is planned", async () => {
    const app = await post(emu.url, "/backends/tunnel_group", { labels: { service: "app" } });
    const edge = await post(emu.url, "/edges/https", { hostports: ["gone.example.com:443"] });
    const live = await post(emu.url, `/edges/https/${edge.id}/routes`, {
      match_type: "path_prefix",
      match: "/",
      backend: { enabled: true, backend_id: app.id },
    });
    const gone = await post(emu.url, `/edges/https/${edge.id}/routes`, {
      match_type: "exact_path",
      match: "/old",
      backend: { enabled: true, backend_id: "bkdhr_gone1" },
    });

    const r = await emu.run(["migrate", "edge", edge.id, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.not_migrated).toEqual([
      {
        edge_id: edge.id,
        route_id: gone.id,
        item: "backend",
        reason: expect.stringContaining("backend bkdhr_gone1 does not exist"),
      },
    ]);
    // It fails closed: its requests are refused, never sent to the / route's backend.
    expect(plan.endpoints[0].traffic_policy.on_http_request).toEqual([
      {
        name: gone.id,
        expressions: ['req.url.path == "/old"'],
        actions: [{ type: "deny", config: { status_code: 503 } }],
      },
      { name: live.id, actions: [{ type: "forward-internal", config: { url: "https://service-app.internal" } }] },
    ]);
  });
});

describe("the cases that ran the real bin, in-process", () => {
  describe("an edge on a live account: export, plan, refusal", () => {
    const emu = useEmulator(undefined, appSandbox);
    let b: Built;
    beforeAll(async () => {
      b = await buildEdge(emu.url);
    });

    it("export prints every edge, route, module and backend as the API shows them, secrets masked", async () => {
      const r = await emu.run(["export"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const doc = JSON.parse(r.stdout);
      const raw = (await call(emu.url, "GET", `/edges/https/${b.edgeId}`)).json;
      expect(doc.https_edges).toHaveLength(1);
      const edge = doc.https_edges[0];
      expect(edge.hostports).toEqual(["shop.example.com:443", "www.example.com:443"]);
      expect(edge.routes.map((x: { id: string }) => x.id)).toEqual(Object.values(b.routes));
      // The GitHub secret masked; everything else exactly as GET /edges/https/{id} returns it.
      expect(edge.routes[0].webhook_verification).toEqual({ enabled: true, provider: "github", secret: MASK });
      expect(r.stdout).not.toContain("whsec-");
      raw.routes[0].webhook_verification.secret = MASK;
      expect(edge).toEqual(raw);
      expect(edge.routes[4].oauth).toMatchObject({
        enabled: true,
        provider: { google: { email_domains: ["example.com"] } },
      });
      const ids = (kind: string) => doc.backends[kind].map((x: { id: string }) => x.id).sort();
      expect(Object.keys(doc.backends)).toEqual(["failover", "tunnel_group", "http_response", "weighted", "static"]);
      expect(ids("tunnel_group")).toEqual([b.backends.app, b.backends.eu, b.backends.us].sort());
      expect(ids("failover")).toEqual([b.backends.failover]);
      expect(ids("http_response")).toEqual([b.backends.down]);
      expect(ids("weighted")).toEqual([b.backends.weighted]);
      expect(doc.backends.static).toEqual([]);
      expect(doc.backends.failover[0].backends).toEqual([b.backends.eu, b.backends.us, b.backends.down]);
    });

    it("export --show-secret shows the webhook secret as stored", async () => {
      const r = await emu.run(["export", "--show-secret"]);
      expect(r.exitCode).toBe(0);
      const routes = JSON.parse(r.stdout).https_edges[0].routes;
      expect(routes[0].webhook_verification.secret).toBe(GITHUB_SECRET);
      expect(routes[1].webhook_verification).toMatchObject({ enabled: true, provider: "sns" });
    });

    it("migrate edge prints one YAML policy per hostport, rules most specific first, and lists what it left out on stderr", async () => {
      const r = await emu.run(["migrate", "edge", b.edgeId]);
      expect(r.exitCode).toBe(0);
      const docs = parseAllDocuments(r.stdout);
      expect(docs).toHaveLength(2);
      expect(r.stdout.split("\n")[0]).toBe(`# ${URLS[0]} (edge ${b.edgeId})`);
      expect(r.stdout).toContain(`---\n# ${URLS[1]} (edge ${b.edgeId})\n`);
      for (const doc of docs) {
        expect(doc.errors).toEqual([]);
        expect(doc.toJS()).toEqual(expectedPolicy(b, MASK));
      }
      expect(r.stdout).not.toContain("whsec-");
      const warnings = r.stderr.split("\n").filter((l) => l.includes("not migrated"));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toContain(`route ${b.routes.sns}: webhook_verification: `);
      expect(warnings[1]).toContain(`route ${b.routes.lb}: backend: weighted backend ${b.backends.weighted}`);
      expect(warnings[1]).toContain(`--map ${b.backends.weighted}=`);
    });

    it("migrate edge -o json prints the whole plan, with the not-migrated list, and the secret with --show-secret", async () => {
      const r = await emu.run(["migrate", "edge", b.edgeId, "-o", "json", "--show-secret"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const plan = JSON.parse(r.stdout);
      expect(Object.keys(plan)).toEqual(["edge_id", "endpoints", "not_migrated", "warnings"]);
      expect(plan.edge_id).toBe(b.edgeId);
      expect(plan.endpoints).toEqual(
        URLS.map((url) => ({
          url,
          description: `Migrated from edge ${b.edgeId}`,
          metadata: '{"team":"web"}',
          traffic_policy: expectedPolicy(b, GITHUB_SECRET),
        })),
      );
      expect(plan.not_migrated).toEqual([
        {
          edge_id: b.edgeId,
          route_id: b.routes.sns,
          item: "webhook_verification",
          reason: expect.stringContaining("sns"),
        },
        {
          edge_id: b.edgeId,
          route_id: b.routes.lb,
          item: "backend",
          reason: expect.stringContaining(`weighted backend ${b.backends.weighted}`),
        },
      ]);
      expect(plan.warnings).toEqual([]);
    });

    it("migrate edge --apply refuses while anything is not migrated: exit 2, nothing created", async () => {
      const r = await emu.run(["migrate", "edge", b.edgeId, "--apply"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`route ${b.routes.lb}: backend`);
      expect(r.stderr).toContain(`route ${b.routes.sns}: webhook_verification`);
      expect(r.stderr).toMatch(/2 item\(s\).*nothing was created.*--allow-partial/s);
      expect(await emu.endpoints()).toEqual([]);
    });

    it("--map forwards a backend to the URL given: the weighted route migrated, then created with --apply --allow-partial", async () => {
      const map = `${b.backends.weighted}=https://lb.internal`;
      const plan = await emu.run(["migrate", "edge", b.edgeId, "--map", map, "-o", "json", "--show-secret"]);
      expect(plan.stderr).toBe("");
      expect(plan.exitCode).toBe(0);
      const parsed = JSON.parse(plan.stdout);
      expect(parsed.endpoints[0].traffic_policy).toEqual(expectedPolicy(b, GITHUB_SECRET, "https://lb.internal"));
      expect(parsed.not_migrated.map((n: { route_id: string }) => n.route_id)).toEqual([b.routes.sns]);
      const applied = await emu.run(["migrate", "edge", b.edgeId, "--map", map, "--apply", "--allow-partial"]);
      expect(applied.exitCode).toBe(0);
      const created = await emu.endpoints();
      expect(created.map((e) => e.url).sort()).toEqual([...URLS].sort());
    });
  });
});

// Leaving Edges end to end: an edge built through the REAL emulator's API, then `export` and
// `migrate edge` (plan, refusal, --dry-run, --map --apply) as an operator would run them, and
// the same against accounts after the sunset (`--edges read-only`, `--edges retired`).


import { parse, parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { call, spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";
import { runCli, type TextResult } from "./support.js";

const GITHUB_SECRET = 'whsec-"gh"\\1234';
const MASK = "********";

interface Built {
  edgeId: string;
  routes: { hook: string; sns: string; api: string; lb: string; admin: string };
  backends: { app: string; eu: string; us: string; down: string; failover: string; weighted: string };
}

async function post(base: string, path: string, body: unknown): Promise<{ id: string }> {
  const r = await call(base, "POST", path, { body });
  if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${r.text}`);
  return r.json as { id: string };
}

async function put(base: string, path: string, body: unknown): Promise<void> {
  const r = await call(base, "PUT", path, { body });
  if (r.status !== 200) throw new Error(`PUT ${path} answered ${r.status}: ${r.text}`);
}

/**
 * An edge on two hostports with: a GitHub-verified exact route and an SNS-verified one (both to
 * the tunnel group service=app), an /api prefix to a failover (eu, us, then a 503), an /lb
 * prefix to a weighted backend, and an /admin prefix guarded by oauth.
 */
async function buildEdge(base: string): Promise<Built> {
  const app = await post(base, "/backends/tunnel_group", { description: "app", labels: { service: "app" } });
  const eu = await post(base, "/backends/tunnel_group", { description: "eu", labels: { service: "api", dc: "eu" } });
  const us = await post(base, "/backends/tunnel_group", { description: "us", labels: { service: "api", dc: "us" } });
  const down = await post(base, "/backends/http_response", { status_code: 503, body: "down for maintenance", headers: { "Retry-After": "60" } });
  const failover = await post(base, "/backends/failover", { description: "api failover", backends: [eu.id, us.id, down.id] });
  const weighted = await post(base, "/backends/weighted", { backends: { [eu.id]: 1, [us.id]: 3 } });
  const edge = await post(base, "/edges/https", { description: "shop", metadata: '{"team":"web"}', hostports: ["shop.example.com:443", "shop.example.com:8443"] });
  const route = (match_type: string, match: string, backendId: string, extra: object = {}) =>
    post(base, `/edges/https/${edge.id}/routes`, { match_type, match, backend: { enabled: true, backend_id: backendId }, ...extra });
  const hook = await route("exact_path", "/hooks/github", app.id);
  const sns = await route("exact_path", "/hooks/sns", app.id);
  const api = await route("path_prefix", "/api", failover.id);
  const lb = await route("path_prefix", "/lb", weighted.id);
  const admin = await route("path_prefix", "/admin", app.id, { oauth: { enabled: true, provider: { google: { email_domains: ["example.com"] } } } });
  await put(base, `/edges/https/${edge.id}/routes/${hook.id}/webhook_verification`, { enabled: true, provider: "github", secret: GITHUB_SECRET });
  await put(base, `/edges/https/${edge.id}/routes/${sns.id}/webhook_verification`, { enabled: true, provider: "sns" });
  return {
    edgeId: edge.id,
    routes: { hook: hook.id, sns: sns.id, api: api.id, lb: lb.id, admin: admin.id },
    backends: { app: app.id, eu: eu.id, us: us.id, down: down.id, failover: failover.id, weighted: weighted.id },
  };
}

/** The policy every endpoint of the edge gets (the weighted route only once it is mapped). */
function expectedPolicy(b: Built, secret: string, lbUrl?: string) {
  const app = { type: "forward-internal", config: { url: "https://service-app.internal" } };
  return {
    on_http_request: [
      { name: b.routes.hook, expressions: ['req.url.path == "/hooks/github"'], actions: [{ type: "verify-webhook", config: { provider: "github", secret } }, app] },
      { name: b.routes.sns, expressions: ['req.url.path == "/hooks/sns"'], actions: [{ type: "verify-webhook", config: { provider: "sns" } }, app] },
      {
        name: b.routes.api,
        expressions: ['req.url.path.startsWith("/api")'],
        actions: [
          { type: "forward-internal", config: { url: "https://dc-eu-service-api.internal", on_error: "continue" } },
          { type: "forward-internal", config: { url: "https://dc-us-service-api.internal", on_error: "continue" } },
          { type: "custom-response", config: { status_code: 503, body: "down for maintenance", headers: { "Retry-After": "60" } } },
        ],
      },
      ...(lbUrl ? [{ name: b.routes.lb, expressions: ['req.url.path.startsWith("/lb")'], actions: [{ type: "forward-internal", config: { url: lbUrl } }] }] : []),
      { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
    ],
  };
}

const URLS = ["https://shop.example.com", "https://shop.example.com:8443"];

/** One emulator (started with `args`) and one CLI sandbox pointed at it, for a describe block. */
function useEmulator(args: () => string[] = () => []) {
  const ctx = {} as { emulator: SpawnedEmulator; cli: CliSandbox };
  beforeAll(async () => {
    ctx.emulator = await spawnEmulator(args());
    ctx.cli = sandbox();
  });
  afterAll(async () => {
    await ctx.emulator?.stop();
    ctx.cli?.cleanup();
  });
  return {
    get url() {
      return ctx.emulator.url;
    },
    run: (argv: string[], input?: string): Promise<TextResult> =>
      runCli(ctx.cli, argv, { input, env: { EDGECTL_BASE_URL: ctx.emulator.url, EDGECTL_API_KEY: "key_leaving_edges_1" } }),
    endpoints: async (): Promise<{ id: string; url: string; description: string; metadata: string; traffic_policy: string }[]> => {
      const r = await call(ctx.emulator.url, "GET", "/endpoints");
      expect(r.status).toBe(200);
      return r.json.endpoints;
    },
  };
}

describe("an edge on a live account: export, plan, refusal", () => {
  const emu = useEmulator();
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
    expect(edge.hostports).toEqual(["shop.example.com:443", "shop.example.com:8443"]);
    expect(edge.routes.map((x: { id: string }) => x.id)).toEqual(Object.values(b.routes));
    // The GitHub secret masked; everything else exactly as GET /edges/https/{id} returns it.
    expect(edge.routes[0].webhook_verification).toEqual({ enabled: true, provider: "github", secret: MASK });
    expect(r.stdout).not.toContain("whsec-");
    raw.routes[0].webhook_verification.secret = MASK;
    expect(edge).toEqual(raw);
    expect(edge.routes[4].oauth).toMatchObject({ enabled: true, provider: { google: { email_domains: ["example.com"] } } });
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
    expect(r.stdout.split("\n")[0]).toBe(`# ${URLS[0]}`);
    expect(r.stdout).toContain(`---\n# ${URLS[1]}\n`);
    for (const doc of docs) {
      expect(doc.errors).toEqual([]);
      expect(doc.toJS()).toEqual(expectedPolicy(b, MASK));
    }
    expect(r.stdout).not.toContain("whsec-");
    const warnings = r.stderr.split("\n").filter((l) => l.includes("not migrated"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`route ${b.routes.lb}: backend: weighted backend ${b.backends.weighted}`);
    expect(warnings[0]).toContain(`--map ${b.backends.weighted}=`);
    expect(warnings[1]).toContain(`route ${b.routes.admin}: oauth`);
  });

  it("migrate edge -o json prints the whole plan, with the not-migrated list, and the secret with --show-secret", async () => {
    const r = await emu.run(["migrate", "edge", b.edgeId, "-o", "json", "--show-secret"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(Object.keys(plan)).toEqual(["edge_id", "endpoints", "not_migrated"]);
    expect(plan.edge_id).toBe(b.edgeId);
    expect(plan.endpoints).toEqual(
      URLS.map((url) => ({ url, description: `Migrated from edge ${b.edgeId}`, metadata: '{"team":"web"}', traffic_policy: expectedPolicy(b, GITHUB_SECRET) })),
    );
    expect(plan.not_migrated).toEqual([
      { route_id: b.routes.lb, item: "backend", reason: expect.stringContaining(`weighted backend ${b.backends.weighted}`) },
      { route_id: b.routes.admin, item: "oauth", reason: expect.stringContaining("oauth") },
    ]);
  });

  it("migrate edge --apply refuses while anything is not migrated: exit 2, nothing created", async () => {
    const r = await emu.run(["migrate", "edge", b.edgeId, "--apply"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`route ${b.routes.lb}: backend`);
    expect(r.stderr).toContain(`route ${b.routes.admin}: oauth`);
    expect(r.stderr).toMatch(/2 item\(s\).*nothing was created.*--allow-partial/s);
    expect(await emu.endpoints()).toEqual([]);
  });
});


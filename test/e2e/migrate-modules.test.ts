// `migrate edge` and `export` end to end, module by module: the real bin against the real
// emulator, each edge built through the emulator's own API (route and edge-level module
// endpoints), so the planner reads the shapes the API really shows. Held here: --debug never
// shows a secret while the created endpoint holds the real ones; the user-agent filter as a
// deny-403 rule; edge-level TLS as terminate-tls (and terminate_at upstream failing closed); a
// route's own traffic_policy under its path; a policy value that does not parse masked whole
// by export; a literal `${` escaped. The planner's rules are held one by one in
// test/migrate/plan.test.ts; the masking in test/output/mask.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";
import { post, put, useEmulator } from "./leaving-edges.support.js";
import { runCli } from "./support.js";

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
  const emu = useEmulator();
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
  const emu = useEmulator();

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
  const emu = useEmulator();

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
  let emu: SpawnedEmulator | undefined;
  let cli: CliSandbox;
  let edgeId: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "edgectl-migrate-modules-"));
    stateFile = join(scratch, "state.json");
    cli = sandbox();
    emu = await spawnEmulator(["--state", stateFile]);
    const backend = await tunnel(emu.url, "app");
    ({ edgeId } = await edgeWithRoutes(emu.url, "up.example.com", [
      { match_type: "path_prefix", match: "/", backend },
    ]));
    await put(emu.url, `/edges/https/${edgeId}/tls_termination`, { enabled: true });
    expect(await emu.stop()).toBe(0);
    emu = undefined;
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as {
      https_edges: { id: string; tls_termination: Record<string, unknown> }[];
    };
    const edge = state.https_edges.find((x) => x.id === edgeId)!;
    expect(edge.tls_termination).toMatchObject({ enabled: true, terminate_at: "edge" });
    edge.tls_termination = { enabled: true, terminate_at: "upstream", min_version: null };
    writeFileSync(stateFile, JSON.stringify(state));
    emu = await spawnEmulator(["--state", stateFile]);
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
  const emu = useEmulator();

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
  const emu = useEmulator();
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
  const emu = useEmulator();

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

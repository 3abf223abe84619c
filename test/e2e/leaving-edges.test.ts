// Leaving Edges end to end: an edge built through the REAL emulator's API, then `export` and
// `migrate edge` (plan, refusal, --dry-run, --map --apply) as an operator would run them, and
// the same against accounts after the sunset (`--edges read-only`, `--edges retired`).
import { parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/emulator.js";
import {
  GITHUB_SECRET,
  MASK,
  URLS,
  buildEdge,
  expectedPolicy,
  useEmulator,
  type Built,
} from "./leaving-edges.support.js";

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

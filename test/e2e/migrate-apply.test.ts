// `migrate edge --apply`, the real bin: against the real emulator, what is already there
// (the same policy: skipped as existing; another policy: not migrated, item `endpoint`, the
// existing id named), nothing created twice, --dry-run sending only reads, and a retired
// account explained; against the fault server, a failed POST not repeated and a read-only
// account's refusal explained.
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/emulator.js";
import { apiError } from "../helpers/fault-server.js";
import { useMigrateSuite } from "./migrate.support.js";
import {
  buildEdge as buildShop,
  expectedPolicy,
  GITHUB_SECRET,
  post,
  put,
  URLS,
  useEmulator,
} from "./leaving-edges.support.js";

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
  const emu = useEmulator();
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
  const emu = useEmulator();

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
  const emu = useEmulator();

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
  const emu = useEmulator();

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
  const emu = useEmulator(() => ["--edges", "retired"]);

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
  const { suite, scriptApi, requestLines } = useMigrateSuite();

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
    expect(r.stderr).toMatch(/can still be read but not created, changed or deleted/);
  });
});

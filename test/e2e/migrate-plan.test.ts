// `edgectl migrate edge` end to end against the REAL emulator: planning that cannot explode
// (issue 17 item 6), --map URLs checked as typed (issue 17 item 13), a YAML plan every parser
// reads the same (issue 17 item 4), and --apply run twice.
import jsYaml from "js-yaml";
import { parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import type { CliSandbox } from "../helpers/cli.js";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, route, tunnelGroup } from "../migrate/fixtures.js";
import { post, useEmulator } from "./leaving-edges.support.js";
import { useFaultServer } from "./support.js";

describe("planning cannot explode", () => {
  const emu = useEmulator();
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

describe("SIGTERM while planning nested repeating failovers", () => {
  const suite = useFaultServer("key_migrate_sigterm_1");

  it("is heard: once the last backend is read, the process ends (done, or 130), never spins on", async () => {
    const answers: Record<string, object> = {
      "/backends/tunnel_group/bkdtg_leaf": tunnelGroup("bkdtg_leaf", { service: "leaf" }),
    };
    let child = "bkdtg_leaf";
    for (let i = 0; i < 24; i++) {
      answers[`/backends/failover/bkdfo_${i}`] = failover(`bkdfo_${i}`, [child, child]);
      child = `bkdfo_${i}`;
    }
    answers["/edges/https/edghts_1"] = edge([route("edghtsrt_1", "path_prefix", "/", child)]);
    suite.server.fallback = (req): Reply =>
      answers[req.path] ? json(200, answers[req.path]!) : apiError(404, "Resource not found");
    const run = (suite.cli as CliSandbox).run(["migrate", "edge", "edghts_1", "-o", "json"], {
      env: { EDGECTL_API_KEY: "key_migrate_sigterm_1", EDGECTL_BASE_URL: suite.server.url },
    }) as ReturnType<CliSandbox["run"]> & { kill(signal: NodeJS.Signals): boolean };
    const leafRead = () => suite.server.requests.some((q) => q.path === "/backends/tunnel_group/bkdtg_leaf");
    for (let i = 0; i < 200 && !leafRead(); i++) await new Promise((r) => setTimeout(r, 25));
    run.kill("SIGTERM");
    const r = await run;
    expect([0, 130]).toContain(r.exitCode);
    // Each backend was read once: 1 edge + 24 failovers + 1 tunnel group.
    expect(suite.server.requests).toHaveLength(26);
  });
});

describe("--map URLs are checked as they will be written", () => {
  const emu = useEmulator();

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
  const emu = useEmulator();

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
  const emu = useEmulator();

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

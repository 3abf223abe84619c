// An interrupted `migrate edge --apply` says what it created (issue 25, item 11), as an
// interrupted batch does: the endpoints created (URL and id) and those not, on stderr, and with
// -o json in the error's details. The real bin against the fault server, whose third POST hangs
// so that the signal lands mid-apply.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, type FaultServer, type Reply } from "../helpers/fault-server.js";
import { edge, route, tunnelGroup } from "../migrate/fixtures.js";
import { envFor, expectNoStack, out, sandbox, spawn, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const HOSTS = ["a.example.com", "b.example.com", "c.example.com", "d.example.com"];
const EDGE = edge([route("edghtsrt_root", "path_prefix", "/", "bkdtg_app")], {
  hostports: HOSTS.map((h) => `${h}:443`),
});

/** The edge and its backend; no endpoints yet; POSTs 1 and 2 create, the third hangs. */
function script(server: FaultServer): void {
  let posts = 0;
  server.fallback = (req): Reply => {
    if (req.method === "GET" && req.path === "/edges/https/edghts_1") return json(200, EDGE);
    if (req.method === "GET" && req.path === "/backends/tunnel_group/bkdtg_app")
      return json(200, tunnelGroup("bkdtg_app", { service: "app" }));
    if (req.method === "GET" && req.path.startsWith("/endpoints"))
      return json(200, { endpoints: [], uri: `${server.url}/endpoints`, next_page_uri: null });
    if (req.method === "POST" && req.path === "/endpoints") {
      if (++posts > 2) return { hang: true };
      const body = JSON.parse(req.body) as { url: string };
      return json(201, { id: `ep_${posts}`, type: "cloud", url: body.url, traffic_policy: "{}" });
    }
    return json(404, { status_code: 404, msg: `nothing at ${req.method} ${req.path}` });
  };
}

/** Runs --apply, and sends `signal` once the third POST is in flight. */
async function interrupted(server: FaultServer, signal: NodeJS.Signals, extra: string[] = []) {
  script(server);
  const child = spawn(cli, ["migrate", "edge", "edghts_1", "--apply", ...extra], { env: envFor(server) });
  await server.waitForRequests(6); // the edge, its backend, the endpoint list, and 3 POSTs
  child.kill(signal);
  const r = await child;
  expect(server.requests.filter((q) => q.method === "POST")).toHaveLength(3);
  return r;
}

describe("an interrupted migrate edge --apply", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s mid-apply: exit 130, stderr lists the endpoints created (URL and id) and not created",
    async (signal) => {
      await withServer(async (server) => {
        const r = await interrupted(server, signal);
        expect(r.exitCode).toBe(130);
        expect(out(r.stdout)).toBe("");
        const stderr = out(r.stderr);
        expectNoStack(stderr);
        const lines = stderr.trim().split("\n");
        expect(lines[0]).toBe(
          `error: interrupted (${signal}): 2 of 4 endpoints created, 2 not; 1 of them was in flight and may have been created: https://c.example.com`,
        );
        expect(lines).toContain("created (2): https://a.example.com (ep_1) https://b.example.com (ep_2)");
        expect(lines).toContain("not created (2): https://c.example.com https://d.example.com");
      });
    },
  );

  it("-o json: one JSON error of kind interrupted, its details {done, not_done}", async () => {
    await withServer(async (server) => {
      const r = await interrupted(server, "SIGINT", ["-o", "json"]);
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
      const lines = out(r.stderr).trim().split("\n");
      expect(lines).toHaveLength(1);
      const { error } = JSON.parse(lines[0]!) as { error: { kind: string; details: unknown } };
      expect(error.kind).toBe("interrupted");
      expect(error.details).toEqual({
        done: [
          { url: "https://a.example.com", id: "ep_1", edge_id: "edghts_1" },
          { url: "https://b.example.com", id: "ep_2", edge_id: "edghts_1" },
        ],
        not_done: [
          { url: "https://c.example.com", edge_id: "edghts_1" },
          { url: "https://d.example.com", edge_id: "edghts_1" },
        ],
      });
    });
  });
});

// `edgectl migrate edge`: the requests it sends, what it prints and how it exits, against
// the fault server scripted with an edge and its backends.
// Here the real bin runs one case of each kind; the rest run in-process in app/migrate.test.ts.
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { useMigrateSuite } from "./migrate.support.js";

const { suite, SECRET, scriptApi, requestLines, READS, EXPECTED_POLICY } = useMigrateSuite();

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

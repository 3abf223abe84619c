// `edgectl endpoint delete` (issue 18 items 3 and 4), the whole CLI in-process: the requests it
// sends to a fault server that keeps endpoints like the API, what it prints, and what it
// refuses before sending anything.
import { describe, expect, it } from "vitest";
import { useEndpointApi } from "./support.js";

const { suite, lines, seed } = useEndpointApi();

describe("endpoint delete", () => {
  it("delete: ids from stdin with --yes, each once; without --yes and no terminal, refused and nothing sent", async () => {
    const a = seed();
    const b = seed();
    const refused = await suite.run(["endpoint", "delete", a]);
    expect(refused.exitCode).toBe(2);
    expect(suite.server.requests).toEqual([]);
    const r = await suite.run(["endpoint", "delete", "-", "--yes", "-o", "json"], { input: `${a}\n${b}\n${a}\n` });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: a, deleted: true },
      { id: b, deleted: true },
    ]);
    expect(lines().sort()).toEqual([`DELETE /endpoints/${a}`, `DELETE /endpoints/${b}`]);
  });

  it("delete --dry-run with several ids prints one JSON array and sends nothing", async () => {
    const r = await suite.run(["endpoint", "delete", "ep_1", "ep_2", "--dry-run", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests).toEqual([]);
    expect((JSON.parse(r.stdout) as { request: { method: string; url: string } }[]).map((x) => x.request)).toEqual([
      { method: "DELETE", url: `${suite.server.url}/endpoints/ep_1` },
      { method: "DELETE", url: `${suite.server.url}/endpoints/ep_2` },
    ]);
  });
});

// `edgectl endpoint delete` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { useEndpointApi } from "./support.js";
import { del as argvDef } from "../../../src/commands/endpoint/delete.js";
import { parse as parseArgv, refusal } from "../parse.js";

describe("endpoint delete argv → options", () => {
  it.each([
    [["ep_1", "ep_2", "--yes"], { ids: ["ep_1", "ep_2"], yes: true, concurrency: 8, dryRun: false }],
    [["ep_1"], { ids: ["ep_1"], yes: false, concurrency: 8, dryRun: false }],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([[["ep_1", "--concurrency", "0"], '--concurrency: "0" must be a whole number from 1 to 64']] as [
    string[],
    string,
  ][])("refuses %j", async (argv, message) => {
    expect((await refusal(argvDef, argv)).message).toBe(message);
  });
});

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

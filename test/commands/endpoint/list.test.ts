// `edgectl endpoint list` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { useEndpointApi, JSON_POLICY, YAML_POLICY } from "./support.js";
import { list as argvDef } from "../../../src/commands/endpoint/list.js";
import { parse as parseArgv, refusal } from "../parse.js";

describe("endpoint list argv → options", () => {
  it.each([
    [[], { all: false, showSecret: false }],
    [["--limit", "5", "--all"], { limit: 5, all: true, showSecret: false }],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([[["--limit", "0"], "--limit: must be from 1 to 100"]] as [string[], string][])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(argvDef, argv)).message).toBe(message);
    },
  );
});

const { suite, lines, seed } = useEndpointApi();

describe("endpoint list", () => {
  it("list --all follows next_page_uri; the table has id, url, type, description", async () => {
    seed();
    seed(JSON_POLICY, "https://b.example.com");
    seed(YAML_POLICY, "https://c.example.com");
    const r = await suite.run(["endpoint", "list", "--limit", "2", "--all"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual(["GET /endpoints?limit=2", "GET /endpoints?limit=2&before_id=ep_2"]);
    expect(r.stdout.split("\n")[0]).toMatch(/^ID\s+URL\s+TYPE\s+DESCRIPTION$/);
    expect(
      r.stdout
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(["ep_3", "ep_2", "ep_1"]);
    const j = await suite.run(["endpoint", "list", "-o", "json"]);
    expect((JSON.parse(j.stdout) as unknown[]).length).toBe(3);
    expect(j.stdout).not.toContain("s-a");
  });

  it("list --limit n asks for one page of n, newest first", async () => {
    seed();
    seed(JSON_POLICY, "https://b.example.com");
    seed(YAML_POLICY, "https://c.example.com");
    const r = await suite.run(["endpoint", "list", "--limit", "2", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual(["GET /endpoints?limit=2"]);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((e) => e.id)).toEqual(["ep_3", "ep_2"]);
  });

  it("list --limit n cut while more pages exist says `more: use --all` on stderr; not on the last page, not with --all", async () => {
    seed();
    seed(JSON_POLICY, "https://b.example.com");
    seed(YAML_POLICY, "https://c.example.com");
    for (const args of [
      ["endpoint", "list", "--limit", "2"],
      ["endpoint", "list", "--limit", "2", "-o", "json"],
    ]) {
      const r = await suite.run(args);
      expect(r.exitCode).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("more: use --all");
    }
    for (const args of [
      ["endpoint", "list", "--limit", "2", "--all"],
      ["endpoint", "list", "--limit", "3"],
      ["endpoint", "list"],
    ]) {
      const r = await suite.run(args);
      expect(r.exitCode).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("");
    }
  });
});

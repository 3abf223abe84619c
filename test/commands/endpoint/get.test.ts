// `edgectl endpoint get` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { useEndpointApi, JSON_POLICY, YAML_POLICY } from "./support.js";
import { get as argvDef } from "../../../src/commands/endpoint/get.js";
import { parse as parseArgv, refusal } from "../parse.js";

describe("endpoint get argv → options", () => {
  it.each([
    [["ep_1", "-"], { ids: ["ep_1", "-"], concurrency: 8, showSecret: false }],
    [["ep_1", "--show-secret"], { ids: ["ep_1"], concurrency: 8, showSecret: true }],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([[[], "error: missing required argument 'ep-id'"]] as [string[], string][])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(argvDef, argv)).message).toBe(message);
    },
  );
});

const { suite, seed } = useEndpointApi();

describe("endpoint get", () => {
  it("get: several ids (from stdin) as one JSON array in input order, secrets masked, a missing id on stderr", async () => {
    const a = seed();
    const b = seed(JSON_POLICY, "https://b.example.com");
    const r = await suite.run(["endpoint", "get", "-", "-o", "json"], { input: `${b}\nep_404\n${a}\n` });
    expect(r.exitCode).toBe(1);
    const printed = JSON.parse(r.stdout) as { id: string; traffic_policy: string }[];
    expect(printed.map((e) => e.id)).toEqual([b, a]);
    expect(printed[0]!.traffic_policy).toBe(JSON_POLICY.replace('"s-a"', '"********"').replace('"s-b"', '"********"'));
    expect(printed[1]!.traffic_policy).toBe(YAML_POLICY.replace("secret: internal", 'secret: "********"'));
    expect(r.stderr).toContain("ep_404");
  });

  it("get: the table shows a JSON policy as YAML, its secrets masked", async () => {
    const a = seed(JSON_POLICY, "https://j.example.com");
    const r = await suite.run(["endpoint", "get", a]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^FIELD\s+VALUE\nID\s+ep_1\nURL\s+https:\/\/j\.example\.com\n/);
    const policy = r.stdout.slice(r.stdout.indexOf("\nTRAFFIC POLICY\n") + "\nTRAFFIC POLICY\n".length);
    expect(policy).toMatch(/^on_http_request:\n {2}- name: a\n/);
    expect(parse(policy)).toEqual(
      JSON.parse(JSON_POLICY.replace('"s-a"', '"********"').replace('"s-b"', '"********"')),
    );
  });

  it("get --show-secret prints the policy as the API holds it", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "get", a, "--show-secret", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).traffic_policy).toBe(YAML_POLICY);
  });

  it("a policy text that does not parse as a policy is shown as ******** whole, unless --show-secret", async () => {
    const a = seed("not a policy: [");
    const masked = await suite.run(["endpoint", "get", a, "-o", "json"]);
    expect(JSON.parse(masked.stdout).traffic_policy).toBe("********");
    const table = await suite.run(["endpoint", "get", a]);
    expect(table.stdout).toMatch(/\nTRAFFIC POLICY\n\*{8}$/);
    const shown = await suite.run(["endpoint", "get", a, "--show-secret", "-o", "json"]);
    expect(JSON.parse(shown.stdout).traffic_policy).toBe("not a policy: [");
  });

  it("refuses a malformed id before sending anything", async () => {
    const r = await suite.run(["endpoint", "get", "ep_1/../x"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/<ep-id>: .*must be ep_ followed by 1–64 letters or digits/);
    expect(suite.server.requests).toEqual([]);
  });
});

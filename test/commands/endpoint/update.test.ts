// `edgectl endpoint update` (issue 18 items 3 and 4): (a) the command line → options or refusal
// (test/commands/parse.ts); (b) the whole CLI in-process (test/helpers/app.ts): the requests it
// sends to a fault server that keeps endpoints like the API (support.ts), what it prints, and
// what it refuses before sending anything.
import { describe, expect, it } from "vitest";
import { useEndpointApi, JSON_POLICY, YAML_POLICY } from "./support.js";
import { update as argvDef } from "../../../src/commands/endpoint/update.js";
import { parse as parseArgv, refusal } from "../parse.js";

describe("endpoint update argv → options", () => {
  it.each([
    [["ep_1", "--description", ""], { id: "ep_1", description: "", showSecret: false, dryRun: false }],
    [
      ["ep_1", "--url", "https://b.example.com", "--traffic-policy-file", "p.yml"],
      { id: "ep_1", url: "https://b.example.com", trafficPolicyFile: "p.yml", showSecret: false, dryRun: false },
    ],
  ] as [string[], object][])("reads %j", async (argv, options) => {
    expect((await parseArgv(argvDef, argv)).options).toEqual(options);
  });

  it.each([[["nope"], '<ep-id>: "nope" must be ep_ followed by 1–64 letters or digits']] as [string[], string][])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(argvDef, argv)).message).toBe(message);
    },
  );
});

const { suite, file, lines, seed } = useEndpointApi();

describe("endpoint update", () => {
  it("PATCHes only the fields given; a description alone needs no read", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "update", a, "--description", "", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`PATCH /endpoints/${a}`]);
    expect(JSON.parse(suite.server.requests[0]!.body)).toEqual({ description: "" });
  });

  it("with a policy file, reads the endpoint (to check the policy for it), then PATCHes the text as written", async () => {
    const a = seed(JSON_POLICY);
    const r = await suite.run(["endpoint", "update", a, "--traffic-policy-file", file("new.yml", YAML_POLICY)]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(lines()).toEqual([`GET /endpoints/${a}`, `PATCH /endpoints/${a}`]);
    expect(JSON.parse(suite.server.requests[1]!.body)).toEqual({ traffic_policy: YAML_POLICY });
  });

  it("refuses no field at all, and a policy that does not parse (after the read only)", async () => {
    const a = seed();
    const none = await suite.run(["endpoint", "update", a]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/nothing to update/);
    expect(suite.server.requests).toEqual([]);
    const bad = await suite.run(["endpoint", "update", a, "--traffic-policy-file", file("bad.yml", "a: [")]);
    expect(bad.exitCode).toBe(2);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
  });

  it("a new --url is checked with the policy the endpoint keeps: an HTTP policy on a tcp:// URL is exit 2, nothing sent", async () => {
    const a = seed();
    const r = await suite.run(["endpoint", "update", a, "--url", "tcp://1.tcp.ngrok.io:12345"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--url \(the endpoint's policy\): on_http_request/);
    expect(lines()).toEqual([`GET /endpoints/${a}`]);
    // The same policy suits another https URL: read, then PATCHed.
    const ok = await suite.run(["endpoint", "update", a, "--url", "https://shop2.example.com"]);
    expect(ok.stderr).toBe("");
    expect(ok.exitCode).toBe(0);
  });
});

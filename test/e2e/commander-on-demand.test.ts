// A command line src/commands/argv.ts reads is run without commander: dist/commander.cjs is
// never compiled for it. Help, a refused line and the forms argv.ts leaves to commander load
// it, and read exactly as before (their words are held by the tests of each command).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FB, useFaultServer, useScratch } from "./support.js";
import { json } from "../helpers/fault-server.js";

const PROBE = fileURLToPath(new URL("../helpers/bundle-probe.cjs", import.meta.url));
const suite = useFaultServer("key_commander");
const { file } = useScratch("edgectl-commander-");
const run = (args: string[], input?: string) =>
  suite.run(args, { env: { NODE_OPTIONS: `--require ${PROBE}` }, ...(input === undefined ? {} : { input }) });
const compiled = (stderr: string) =>
  stderr
    .split("\n")
    .find((l) => l.startsWith("bundles compiled: "))
    ?.slice("bundles compiled: ".length)
    .split(" ");

const EP = {
  id: "ep_cmdr1",
  url: "https://shop.example.com",
  type: "cloud",
  bindings: ["public"],
  traffic_policy: "on_http_request:\n  - actions:\n      - type: deny\n",
};

describe("commander on demand", () => {
  it.each([
    [["failover", "get", FB.id]],
    [["failover", "get", FB.id, "--concurrency", "4", "-o", "json"]],
    [["failover", "get", "--output=json", FB.id]],
  ])("is not compiled for %j", async (args) => {
    suite.server.fallback = () => json(200, FB);
    const r = await run(args);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(FB.id);
    expect(compiled(r.stderr)).toEqual(["main-failover.cjs"]);
  });

  it("is not compiled for a root option before the command's words (the whole tree's bundle, main.cjs)", async () => {
    suite.server.fallback = () => json(200, FB);
    const r = await run(["--json", "failover", "get", FB.id, "--debug"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: FB.id });
    expect(compiled(r.stderr)).toEqual(["main.cjs"]);
  });

  it("is not compiled for endpoint get (a table, a JSON document) or endpoint delete --yes", async () => {
    suite.server.fallback = (req) => (req.method === "DELETE" ? { status: 204 } : json(200, EP));
    // yaml.cjs: the yaml library, to mask the YAML policy shown (src/policy/yaml.ts).
    for (const [args, bundles] of [
      [
        ["endpoint", "get", EP.id],
        ["main-endpoint.cjs", "yaml.cjs"],
      ],
      [["endpoint", "get", EP.id, "--show-secret", "-ojson"], ["main-endpoint.cjs"]],
      [["endpoint", "delete", EP.id, "-y"], ["main-endpoint.cjs"]],
    ]) {
      const r = await run(args!);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(compiled(r.stderr)).toEqual(bundles);
    }
  });

  it("is not compiled for policy check of a file", async () => {
    const r = await run([
      "policy",
      "check",
      file("policy.json", '{"on_http_request":[{"actions":[{"type":"deny"}]}]}'),
    ]);
    expect(r.stdout).toBe("ok");
    // zod.cjs: the validator's schemas.
    expect(compiled(r.stderr)).toEqual(["main-policy.cjs", "zod.cjs"]);
  });

  it("is compiled for a command's help, and prints it as before", async () => {
    const r = await run(["failover", "get", "--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Usage: edgectl failover get [options] <id...>");
    expect(compiled(r.stderr)).toEqual(["main-failover.cjs", "commander.cjs"]);
  });

  it("is compiled to word a line commander refuses: an unknown option, a missing argument", async () => {
    for (const [args, message] of [
      [["failover", "get", FB.id, "--bogus"], "error: unknown option '--bogus'"],
      [["failover", "get"], "error: missing required argument 'id'"],
    ] as const) {
      const r = await run([...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(message);
      expect(compiled(r.stderr)).toContain("commander.cjs");
    }
  });

  it("is compiled for a value that is another option, and refuses it as before (nothing sent)", async () => {
    suite.server.fallback = () => json(200, FB);
    const r = await run(["failover", "get", FB.id, "--concurrency", "--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--concurrency: takes a value, but the next word is the option --bogus");
    expect(suite.server.requests).toHaveLength(0);
    expect(compiled(r.stderr)).toContain("commander.cjs");
  });
});

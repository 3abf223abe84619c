// Which commands the tree loads for a command line: only what it names, the whole tree when it
// names nothing it knows (help, "did you mean"), and never less than commander will dispatch to.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/commands/root.js";
import { fakeDeps } from "./fake-deps.js";

const ALL = [
  "failover",
  "webhook-verification",
  "webhook",
  "endpoint",
  "export",
  "migrate",
  "policy",
  "auth",
  "config",
  "api",
  "emulator",
  "completion",
  "help",
];

/** The tree loaded for `args`: each command with its subcommands (help excluded). */
async function loadedFor(args?: string[]): Promise<Record<string, string[]>> {
  const program = buildProgram(fakeDeps());
  await program.load(args);
  return Object.fromEntries(
    program.commands.map((c: Command) => [c.name(), c.commands.map((v) => v.name()).filter((v) => v !== "help")]),
  );
}

describe("the command tree", () => {
  it("loads only the noun and the verb a command line names", async () => {
    expect(await loadedFor(["failover", "get", "bkdfo_1"])).toEqual({ failover: ["get"] });
    expect(await loadedFor(["webhook-verification", "delete", "e", "r", "--yes"])).toEqual({
      "webhook-verification": ["delete"],
    });
  });

  it("skips the root's options and their values wherever they are", async () => {
    expect(await loadedFor(["--profile", "failover", "-o", "json", "config", "list"])).toEqual({ config: ["list"] });
    expect(await loadedFor(["--profile=failover", "-ojson", "--json", "auth", "--timeout", "3", "status"])).toEqual({
      auth: ["status"],
    });
  });

  it("loads every verb of a noun named without a known verb (its help, did you mean)", async () => {
    expect(await loadedFor(["failover"])).toEqual({ failover: ["create", "get", "list", "update", "delete"] });
    expect(await loadedFor(["failover", "gte", "x"])).toEqual({
      failover: ["create", "get", "list", "update", "delete"],
    });
    expect(await loadedFor(["failover", "--yes", "delete", "x"])).toEqual({
      failover: ["create", "get", "list", "update", "delete"],
    });
  });

  it.each([
    [[]],
    [["falover"]],
    [["--help", "failover"]],
    [["--", "failover"]],
    [["--bogus", "failover", "get"]],
    [["completion", "bash"]],
    [undefined],
  ])("loads the whole tree for %j", async (args) => {
    expect(Object.keys(await loadedFor(args))).toEqual(ALL);
  });

  it("names each verb as its module does", async () => {
    const tree = await loadedFor();
    expect(tree).toMatchObject({
      failover: ["create", "get", "list", "update", "delete"],
      "webhook-verification": ["replace", "get", "delete"],
      webhook: ["providers", "sign", "verify"],
      migrate: ["edge"],
      policy: ["check", "test"],
      auth: ["login", "status", "logout"],
      config: ["get", "set", "unset", "list", "path"],
    });
    // Each verb loaded alone is the verb of that name.
    for (const [noun, verbs] of Object.entries(tree)) {
      for (const verb of verbs) expect(await loadedFor([noun, verb])).toEqual({ [noun]: [verb] });
    }
  });

  it("loads a command at any depth alone, with its groups; a group named alone, its whole subtree", async () => {
    const paths = async (args: string[]) => {
      const program = buildProgram(fakeDeps());
      await program.load(args);
      const walk = (c: Command, path: string[]): string[] =>
        c.commands
          .filter((s) => s.name() !== "help")
          .flatMap((s) => [[...path, s.name()].join(" "), ...walk(s, [...path, s.name()])]);
      return walk(program, []);
    };
    expect(await paths(["endpoint", "policy", "get", "ep_1", "-o", "json"])).toEqual([
      "endpoint",
      "endpoint policy",
      "endpoint policy get",
    ]);
    expect(await paths(["--json", "endpoint", "policy"])).toEqual([
      "endpoint",
      "endpoint policy",
      "endpoint policy get",
    ]);
    expect(await paths(["endpoint", "policy", "gte"])).toEqual(["endpoint", "endpoint policy", "endpoint policy get"]);
    expect(await paths(["endpoint", "webhook-verification", "replace"])).toEqual([
      "endpoint",
      "endpoint webhook-verification",
      "endpoint webhook-verification replace",
    ]);
    const endpoint = await paths(["endpoint"]);
    expect(endpoint).toContain("endpoint policy get");
    expect(endpoint).toContain("endpoint webhook-verification replace");
    expect(endpoint.every((p) => p.startsWith("endpoint"))).toBe(true);
  });

  it("loads what parseAsync's command line names before parsing it", async () => {
    const program = buildProgram(fakeDeps());
    program.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    await expect(program.parseAsync(["node", "edgectl", "config", "path", "--help"])).rejects.toMatchObject({
      code: "commander.helpDisplayed",
    });
    expect(program.commands.map((c) => c.name())).toEqual(["config"]);
  });
});

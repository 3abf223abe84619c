// `edgectl help <command words>`: that command's help, exactly as `<words> --help` prints it
// (stdout, exit 0), at any depth, as `gh help repo create` does; `help` alone is the root's
// help; a word that names no command is exit 2 with a did-you-mean (issue 26, item 2).
// Run in-process (test/helpers/app.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";
import { REGISTRY } from "../../../src/commands/registry.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => {
  cli.cleanup();
});

describe("edgectl help <command words>", () => {
  // Every command and group of the registry, at every depth.
  const paths = REGISTRY.map((e) => e.command.split(" ")).filter((words) => words[0] !== "help");

  it.each(paths.map((words) => [words.join(" "), words] as const))(
    "help %s prints what `<its words> --help` prints",
    async (_name, words) => {
      const viaHelp = await cli.run(["help", ...words]);
      const viaFlag = await cli.run([...words, "--help"]);
      expect(viaFlag.exitCode).toBe(0);
      expect(viaHelp).toEqual({ exitCode: 0, stdout: viaFlag.stdout, stderr: "" });
      expect(viaHelp.stdout).toContain(`Usage: edgectl ${words.join(" ")}`);
    },
  );

  it("help alone prints the root's help, as --help does", async () => {
    const viaHelp = await cli.run(["help"]);
    const viaFlag = await cli.run(["--help"]);
    expect(viaHelp).toEqual({ exitCode: 0, stdout: viaFlag.stdout, stderr: "" });
    expect(viaHelp.stdout).toContain("Usage: edgectl [options] [command]");
  });

  it("takes the root's options anywhere, as other commands do", async () => {
    const r = await cli.run(["help", "--no-color", "endpoint", "policy", "get"]);
    expect(r).toEqual({
      exitCode: 0,
      stdout: (await cli.run(["endpoint", "policy", "get", "--help"])).stdout,
      stderr: "",
    });
  });

  it("help help prints its own help, which names the environment topic", async () => {
    const r = await cli.run(["help", "help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe((await cli.run(["help", "--help"])).stdout);
    expect(r.stdout).toContain("Usage: edgectl help [options] [command...]");
    expect(r.stdout).toMatch(/^ {2}environment\b/m);
  });

  it.each([
    [["nosuch"], "unknown command 'nosuch' for 'edgectl help' (see 'edgectl help')"],
    [["falover"], "unknown command 'falover' for 'edgectl help' (Did you mean failover?)"],
    [["failover", "crate"], "unknown command 'crate' for 'edgectl failover' (Did you mean create?)"],
    [["endpoint", "policy", "gte"], "unknown command 'gte' for 'edgectl endpoint policy' (Did you mean get?)"],
    [["endpoint", "nosuch", "get"], "unknown command 'nosuch' for 'edgectl endpoint' (see 'edgectl help endpoint')"],
    [["enviroment"], "unknown command 'enviroment' for 'edgectl help' (Did you mean environment?)"],
    [
      ["failover", "create", "extra"],
      "unknown command 'extra' for 'edgectl failover create' (see 'edgectl help failover create')",
    ],
    [
      ["environment", "extra"],
      "unknown command 'extra' for 'edgectl help environment' (see 'edgectl help environment')",
    ],
  ])("help %j is exit 2 naming the word, with a suggestion when one is near", async (words, message) => {
    const r = await cli.run(["help", ...words]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe(`error: ${message}`);
  });

  it("an unknown word is named safely, however long or strange", async () => {
    const r = await cli.run(["help", `x\u001b[31m${"y".repeat(100_000)}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain("\u001b");
  });

  // A group's own `help` (commander's, before) reads every word too: `endpoint help policy get`.
  it.each([
    [
      ["failover", "help"],
      ["failover", "--help"],
    ],
    [
      ["failover", "help", "create"],
      ["failover", "create", "--help"],
    ],
    [
      ["endpoint", "help", "policy", "get"],
      ["endpoint", "policy", "get", "--help"],
    ],
    [
      ["endpoint", "policy", "help", "get"],
      ["endpoint", "policy", "get", "--help"],
    ],
  ])("%j prints what %j prints", async (viaHelpArgs, viaFlagArgs) => {
    const viaHelp = await cli.run(viaHelpArgs);
    const viaFlag = await cli.run(viaFlagArgs);
    expect(viaFlag.exitCode).toBe(0);
    expect(viaHelp).toEqual({ exitCode: 0, stdout: viaFlag.stdout, stderr: "" });
  });

  it.each([
    [["failover", "help", "nosuch"], "unknown command 'nosuch' for 'edgectl failover' (see 'edgectl help failover')"],
    [["failover", "help", "crate"], "unknown command 'crate' for 'edgectl failover' (Did you mean create?)"],
    [["endpoint", "help", "policy", "gte"], "unknown command 'gte' for 'edgectl endpoint policy' (Did you mean get?)"],
    [
      ["failover", "help", "environment"],
      "unknown command 'environment' for 'edgectl failover' (see 'edgectl help failover')",
    ],
  ])("%j is exit 2 naming the word", async (args, message) => {
    const r = await cli.run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe(`error: ${message}`);
  });

  it("needs no settings: runs whatever the config file and the environment hold", async () => {
    const broken = appSandbox();
    try {
      writeFileSync(join(broken.configDir, "config.json"), "{not json");
      const env = { EDGECTL_PROFILE: "nosuch", EDGECTL_TIMEOUT: "soon", EDGECTL_BASE_URL: "ftp://x" };
      for (const words of [["failover", "create"], ["environment"], []]) {
        const r = await broken.run(["help", ...words], { env });
        expect([words, r.exitCode, r.stderr]).toEqual([words, 0, ""]);
        expect(r.stdout).not.toBe("");
      }
    } finally {
      broken.cleanup();
    }
  });

  it("with -o json the error is JSON, as any usage error", async () => {
    const r = await cli.run(["help", "falover", "-o", "json"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { kind: "usage" } });
  });
});

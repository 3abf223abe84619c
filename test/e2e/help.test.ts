// Help and version: every command's --help ends with examples; --version is package.json's.
// Here the real bin runs one case of each kind; the rest run in-process in app/help.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { runCli, VERSION } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => {
  cli.cleanup();
});

describe("--version", () => {
  it.each([["--version"], ["-v"]])("%s prints the package.json version alone on stdout", async (flag) => {
    const r = await runCli(cli, [flag]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(VERSION);
    expect(r.stderr).toBe("");
  });
});

describe("--help", () => {
  it("edgectl --help shows the commands, examples, settings precedence and exit codes", async () => {
    const r = await runCli(cli, ["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    for (const noun of ["failover", "webhook-verification", "auth", "config", "api", "emulator", "completion"])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${noun}\\b`, "m"));
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toMatch(/^ {2}\$ edgectl failover create/m);
    expect(r.stdout).toMatch(/Exit codes: 0 ok, 1 API error, 2 usage, 3 no usable answer, 4 auth/);
  });

  it("help <command> works like <command> --help", async () => {
    const a = await runCli(cli, ["failover", "help", "create"]);
    const b = await runCli(cli, ["failover", "create", "--help"]);
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it("help <command words> prints what <command words> --help prints; an unknown word is exit 2", async () => {
    const a = await runCli(cli, ["help", "endpoint", "policy", "get"]);
    const b = await runCli(cli, ["endpoint", "policy", "get", "--help"]);
    expect(a).toMatchObject({ exitCode: 0, stdout: b.stdout, stderr: "" });
    const c = await runCli(cli, ["help", "failover", "crate"]);
    expect(c).toMatchObject({ exitCode: 2, stdout: "" });
    expect(c.stderr).toContain("(Did you mean create?)");
    const d = await runCli(cli, ["help", "environment"]);
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toMatch(/^EDGECTL_API_KEY$/m);
  });

  it("a noun without a verb prints its help on stdout and exits 0", async () => {
    const r = await runCli(cli, ["failover"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Usage: edgectl failover");
    for (const verb of ["create", "get", "list", "update", "delete"])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${verb}\\b`, "m"));
  });
});

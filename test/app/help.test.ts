// Help and version: every command's --help ends with examples; --version is package.json's.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/help.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { runCli } from "../e2e/support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => {
  cli.cleanup();
});

describe("--help", () => {
  // Leaf commands (and the nouns whose help has examples). Their help, on stdout with
  // exit 0, ends with an Examples: section whose last line is an example.
  const commands = [
    ["failover", "create"],
    ["failover", "get"],
    ["failover", "list"],
    ["failover", "update"],
    ["failover", "delete"],
    ["webhook-verification", "replace"],
    ["webhook-verification", "get"],
    ["webhook-verification", "delete"],
    ["auth", "login"],
    ["auth", "status"],
    ["auth", "logout"],
    ["config"],
    ["config", "get"],
    ["config", "set"],
    ["config", "unset"],
    ["config", "list"],
    ["config", "path"],
    ["failover"],
    ["webhook-verification"],
    ["auth"],
    ["api"],
    ["completion"],
    ["emulator"],
  ];

  it.each(commands.map((c) => [c.join(" "), c] as const))(
    "edgectl %s --help ends with examples",
    async (_name, command) => {
      const r = await runCli(cli, [...command, "--help"]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain(`Usage: edgectl ${command.join(" ")}`);
      const lines = r.stdout.trimEnd().split("\n");
      const examples = lines.lastIndexOf("Examples:");
      expect(examples).toBeGreaterThan(0);
      // Everything after the heading is an example (`$ …`) or a comment line (`# …`).
      const after = lines.slice(examples + 1).filter((l) => l.trim() !== "");
      expect(after.length).toBeGreaterThan(0);
      for (const l of after) expect(l).toMatch(/^ {2}[$#] /);
      expect(after.some((l) => l.includes(`edgectl ${command[0]}`))).toBe(true);
      expect(after.at(-1)).toMatch(/^ {2}\$ /);
    },
  );
});

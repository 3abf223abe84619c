// `edgectl auth logout`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps on a temp config folder.
import { describe, expect, it } from "vitest";
import { logout as logoutDef, run as logoutRun } from "../../../src/commands/auth/logout.js";
import { parse, refusal } from "../parse.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run as loginRun } from "../../../src/commands/auth/login.js";
import { fakeDeps } from "../fake-deps.js";
import { useFreshFolder } from "../../e2e/support.js";

describe("auth logout argv → options", () => {
  it.each([[[], {}]])("reads %j", async (argv, options) => {
    expect((await parse(logoutDef, argv)).options).toEqual(options);
  });

  it.each([[["x"], "error: too many arguments for 'logout'. Expected 0 arguments but got 1."]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(logoutDef, argv)).message).toBe(message);
    },
  );
});

describe("its run (fake deps)", () => {
  const KEY = "2xYzAbCdEfGhIjKlMnOp_1234";

  const tmp = useFreshFolder("edgectl-auth-test-");
  const stored = () => JSON.parse(readFileSync(join(tmp, "config.json"), "utf8"));

  describe("auth logout", () => {
    it("removes the stored key and warns when one is still in the environment", async () => {
      await loginRun({ withToken: true, verify: false }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: KEY }));
      const deps = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp, NGROK_API_KEY: "x" } });
      await logoutRun(deps);
      expect(stored().profiles?.default).toBeUndefined();
      expect(deps.err.text).toContain("Logged out");
      expect(deps.warnings).toEqual([expect.stringContaining("still set in the environment")]);
    });

    it("says so when there is no key to remove", async () => {
      const deps = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
      await logoutRun(deps);
      expect(deps.err.text).toBe('No key stored in profile "default"\n');
    });
  });
});

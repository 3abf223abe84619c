// `edgectl auth status`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps on a temp config folder: the key masked and where it came from.
import { describe, expect, it } from "vitest";
import { status as statusDef, run as statusRun } from "../../../src/commands/auth/status.js";
import { parse, refusal } from "../parse.js";
import { join } from "node:path";
import { AuthError } from "../../../src/errors.js";
import { fakeDeps } from "../fake-deps.js";
import { useFreshFolder } from "../../e2e/support.js";

describe("auth status argv → options", () => {
  it.each([[[], {}]])("reads %j", async (argv, options) => {
    expect((await parse(statusDef, argv)).options).toEqual(options);
  });

  it.each([[["x"], "error: too many arguments for 'status'. Expected 0 arguments but got 1."]])(
    "refuses %j",
    async (argv, message) => {
      expect((await refusal(statusDef, argv)).message).toBe(message);
    },
  );
});

describe("its run (fake deps)", () => {
  const KEY = "2xYzAbCdEfGhIjKlMnOp_1234";

  const tmp = useFreshFolder("edgectl-auth-test-");

  describe("auth status", () => {
    it("refuses with an AuthError when no key is configured", async () => {
      await expect(statusRun(fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } }))).rejects.toBeInstanceOf(AuthError);
    });

    it("shows the key masked and where it came from, never the key itself", async () => {
      const deps = fakeDeps({
        env: { EDGECTL_CONFIG_DIR: tmp },
        settings: { apiKey: KEY, apiKeySource: "EDGECTL_API_KEY", output: "json" },
      });
      await statusRun(deps);
      expect(JSON.parse(deps.out.text)).toEqual({
        profile: "default",
        base_url: "https://api.example.test",
        api_key: "********1234",
        api_key_source: "EDGECTL_API_KEY",
        config_path: join(tmp, "config.json"),
      });
      expect(deps.out.text + deps.err.text).not.toContain(KEY);
    });

    it("shows a table by default", async () => {
      const deps = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, settings: { apiKey: KEY, apiKeySource: "--api-key" } });
      await statusRun(deps);
      expect(deps.out.text).toMatch(/FIELD\s.*VALUE/);
      expect(deps.out.text).toMatch(/KEY FROM\s+--api-key/);
      expect(deps.out.text).not.toContain(KEY);
    });
  });
});

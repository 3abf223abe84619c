// `edgectl auth login`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps on a temp config folder, and the whole CLI in-process
// (test/helpers/app.ts): where the key comes from (--with-token, the prompt) and what is stored.
import { describe, expect, it } from "vitest";
import { login as loginDef, run as loginRun } from "../../../src/commands/auth/login.js";
import { parse, refusal } from "../parse.js";
import { readFileSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../../src/errors.js";
import { fakeDeps } from "../fake-deps.js";
import { appSandbox } from "../../helpers/app.js";
import { useKeyInputSuite } from "../../e2e/api-key-input.support.js";
import { useFreshFolder } from "../../e2e/support.js";

describe("auth login argv → options", () => {
  it.each([
    [[], { withToken: false, verify: true }],
    [["--with-token"], { withToken: true, verify: true }],
    [["--no-verify"], { withToken: false, verify: false }],
  ])("reads %j", async (argv, options) => {
    expect((await parse(loginDef, argv)).options).toEqual(options);
  });

  it.each([[["--token", "x"], "error: unknown option '--token'"]])("refuses %j", async (argv, message) => {
    expect((await refusal(loginDef, argv)).message).toBe(message);
  });
});

describe("its run (fake deps)", () => {
  const KEY = "2xYzAbCdEfGhIjKlMnOp_1234";

  const tmp = useFreshFolder("edgectl-auth-test-");
  const stored = () => JSON.parse(readFileSync(join(tmp, "config.json"), "utf8"));

  describe("auth login", () => {
    it("stores a key piped on stdin, trimmed, and reports on stderr only", async () => {
      const deps = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: `${KEY}\n` });
      await loginRun({ withToken: true, verify: false }, deps);
      expect(stored()).toEqual({ profiles: { default: { api_key: KEY } } });
      expect(deps.out.text).toBe("");
      expect(deps.err.text).toContain('Logged in: key stored in profile "default"');
      expect(deps.err.text).not.toContain(KEY);
      if (process.platform !== "win32") expect(statSync(join(tmp, "config.json")).mode & 0o777).toBe(0o600);
    });

    it("asks with a hidden prompt on a terminal", async () => {
      const deps = fakeDeps({
        env: { EDGECTL_CONFIG_DIR: tmp },
        stdinIsTTY: true,
        prompt: ` ${KEY} `,
        settings: { profile: "staging" },
      });
      await loginRun({ withToken: false, verify: false }, deps);
      expect(stored()).toEqual({ profiles: { staging: { api_key: KEY } } });
    });

    it("refuses --with-token from a terminal", async () => {
      await expect(
        loginRun({ withToken: true, verify: false }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdinIsTTY: true })),
      ).rejects.toThrow(/--with-token: stdin is a terminal/);
    });

    it("refuses an empty key or one with spaces, storing nothing", async () => {
      await expect(
        loginRun({ withToken: true, verify: false }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: "\n" })),
      ).rejects.toBeInstanceOf(UsageError);
      await expect(
        loginRun(
          { withToken: true, verify: false },
          fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: "two words\n" }),
        ),
      ).rejects.toThrow(/spaces/);
      expect(() => statSync(join(tmp, "config.json"))).toThrow();
    });
  });
});

describe("the whole CLI in-process", () => {
  const { suite, run, MUST, BAD } = useKeyInputSuite(appSandbox);

  describe("auth login", () => {
    it.each(BAD)("refuses a key with %s from stdin and stores nothing", async (_what, key, why) => {
      const r = await run(["auth", "login", "--with-token"], { input: `${key}\n` });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(`error: stdin: ${MUST} (this one has ${why})`);
      expect(existsSync(join(suite.cli.configDir, "config.json"))).toBe(false);
    });
  });
});

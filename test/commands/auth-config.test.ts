import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthError, UsageError } from "../../src/errors.js";
import { run as loginRun } from "../../src/commands/auth/login.js";
import { run as logoutRun } from "../../src/commands/auth/logout.js";
import { run as statusRun } from "../../src/commands/auth/status.js";
import { checkValue, shownValue } from "../../src/commands/config/keys.js";
import {
  getVerb,
  get as configGet,
  list as configList,
  set as configSet,
  unset as configUnset,
} from "../../src/commands/config/verbs.js";
import { fakeDeps } from "./fake-deps.js";

const KEY = "2xYzAbCdEfGhIjKlMnOp_1234";

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "edgectl-auth-test-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});
const stored = () => JSON.parse(readFileSync(join(tmp, "config.json"), "utf8"));

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

describe("auth login", () => {
  it("stores a key piped on stdin, trimmed, and reports on stderr only", async () => {
    const deps = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: `${KEY}\n` });
    await loginRun({ withToken: true }, deps);
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
    await loginRun({ withToken: false }, deps);
    expect(stored()).toEqual({ profiles: { staging: { api_key: KEY } } });
  });

  it("refuses --with-token from a terminal", async () => {
    await expect(
      loginRun({ withToken: true }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdinIsTTY: true })),
    ).rejects.toThrow(/--with-token: stdin is a terminal/);
  });

  it("refuses an empty key or one with spaces, storing nothing", async () => {
    await expect(
      loginRun({ withToken: true }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: "\n" })),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      loginRun({ withToken: true }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: "two words\n" })),
    ).rejects.toThrow(/spaces/);
    expect(() => statSync(join(tmp, "config.json"))).toThrow();
  });
});

describe("auth logout", () => {
  it("removes the stored key and warns when one is still in the environment", async () => {
    await loginRun({ withToken: true }, fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, stdin: KEY }));
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

describe("config keys", () => {
  it("accepts the five keys and refuses others, listing them", () => {
    for (const k of ["api_key", "base_url", "output", "timeout", "retries"])
      expect(getVerb.parse({ key: k }).key).toBe(k);
    expect(() => getVerb.parse({ key: "color" })).toThrow(
      /^<key>: "color" is not a setting; use one of api_key, base_url, output, timeout, retries$/,
    );
  });

  it("checks values with the same rules as flags, naming the key", () => {
    expect(checkValue("base_url", "https://x.example.com/p/")).toBe("https://x.example.com/p");
    expect(() => checkValue("base_url", "http://example.com")).toThrow(/^<value> for base_url: refusing plain http/);
    expect(() => checkValue("output", "yaml")).toThrow(/^<value> for output: /);
    expect(checkValue("timeout", " 10 ")).toBe("10");
    expect(() => checkValue("timeout", "0")).toThrow(/^<value> for timeout: /);
    expect(checkValue("retries", "4")).toBe("4");
    expect(() => checkValue("retries", "11")).toThrow(/^<value> for retries: /);
    expect(checkValue("api_key", ` ${KEY} `)).toBe(KEY);
    expect(() => checkValue("api_key", "a b")).toThrow(/^<value> for api_key: /);
    expect(() => checkValue("api_key", "   ")).toThrow(UsageError);
  });

  it("masks only api_key when shown", () => {
    expect(shownValue("api_key", KEY)).toBe("********1234");
    expect(shownValue("base_url", "https://x")).toBe("https://x");
  });
});

describe("config get/set/unset/list", () => {
  it("sets, gets, lists and unsets keys of the active profile", async () => {
    const deps = () => fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, settings: { profile: "ci" } });
    await configSet("output", "json", deps());
    await configSet("timeout", "10", deps());

    const got = deps();
    await configGet("output", got);
    expect(got.out.text).toBe("json\n");

    const listed = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, settings: { profile: "ci", output: "json" } });
    await configList(listed);
    expect(JSON.parse(listed.out.text)).toEqual({ output: "json", timeout: "10" });

    await configUnset("output", deps());
    const missing = deps();
    await configGet("output", missing);
    expect(missing.out.text).toBe("");
    expect(missing.err.text).toBe('output is not set in profile "ci"\n');
  });

  it("warns that a key set on the command line stays in history, and shows it masked", async () => {
    const setter = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
    await configSet("api_key", KEY, setter);
    expect(setter.warnings).toEqual([expect.stringContaining("shell history")]);
    const getter = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
    await configGet("api_key", getter);
    expect(getter.out.text).toBe("********1234\n");
    const lister = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
    await configList(lister);
    expect(lister.out.text).toMatch(/api_key\s+\*{8}1234/);
    expect(lister.out.text).not.toContain(KEY);
  });
});

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { configDir, configPath, profileOf, readConfig, writeProfileKey } from "../../src/settings/config-file.js";

const posix = process.platform !== "win32";
const mode = (path: string) => statSync(path).mode & 0o777;

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "edgectl-config-test-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("configDir", () => {
  it("honours EDGECTL_CONFIG_DIR above everything", () => {
    expect(configDir({ EDGECTL_CONFIG_DIR: "/x/edge", XDG_CONFIG_HOME: "/y", HOME: "/h" })).toBe("/x/edge");
    expect(configPath({ EDGECTL_CONFIG_DIR: "/x/edge" })).toBe(join("/x/edge", "config.json"));
  });

  it.runIf(process.platform === "linux")("honours XDG_CONFIG_HOME on Linux", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/xdg", HOME: "/h" })).toBe(join("/xdg", "edgectl"));
  });

  it.runIf(process.platform === "linux")("falls back to ~/.config on Linux", () => {
    expect(configDir({ HOME: "/home/u" })).toBe(join("/home/u", ".config", "edgectl"));
    expect(configDir({ HOME: "/home/u", XDG_CONFIG_HOME: "" })).toBe(join("/home/u", ".config", "edgectl"));
  });
});

describe("readConfig", () => {
  it("reads a missing file as an empty config", () => {
    const warnings: string[] = [];
    expect(readConfig({ EDGECTL_CONFIG_DIR: join(tmp, "nope") }, (m) => warnings.push(m))).toEqual({});
    expect(warnings).toEqual([]);
  });

  it("reads the profiles of a valid file", () => {
    writeFileSync(
      join(tmp, "config.json"),
      JSON.stringify({ profiles: { default: { api_key: "k" }, ci: { output: "json" } } }),
      { mode: 0o600 },
    );
    const config = readConfig({ EDGECTL_CONFIG_DIR: tmp }, () => {});
    expect(profileOf(config, "ci")).toEqual({ output: "json" });
    expect(profileOf(config, "default")).toEqual({ api_key: "k" });
    expect(profileOf(config, "missing")).toEqual({});
    expect(profileOf({}, "default")).toEqual({});
  });

  it.each(["{not json", "[]", "null", '"text"', ""])(
    "refuses the content %j with a UsageError naming the file",
    (text) => {
      const path = join(tmp, "config.json");
      writeFileSync(path, text, { mode: 0o600 });
      let error: unknown;
      try {
        readConfig({ EDGECTL_CONFIG_DIR: tmp }, () => {});
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain("not valid JSON");
    },
  );

  it.runIf(posix)("warns about a file readable by others but changes nothing", () => {
    const path = join(tmp, "config.json");
    writeFileSync(path, "{}");
    chmodSync(path, 0o644);
    chmodSync(tmp, 0o755);
    const warnings: string[] = [];
    expect(readConfig({ EDGECTL_CONFIG_DIR: tmp }, (m) => warnings.push(m))).toEqual({});
    expect(mode(path)).toBe(0o644);
    expect(mode(tmp)).toBe(0o755);
    expect(warnings).toEqual([
      `${path} is readable by others (mode 644) and may hold an API key; run: chmod 600 '${path}'`,
    ]);
  });

  it.runIf(posix)("says nothing about a file that is already private", () => {
    const path = join(tmp, "config.json");
    writeFileSync(path, "{}");
    chmodSync(path, 0o600);
    chmodSync(tmp, 0o700);
    const warnings: string[] = [];
    readConfig({ EDGECTL_CONFIG_DIR: tmp }, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
  });
});

describe("writeProfileKey", () => {
  it("creates the file 0600 in a folder 0700 and stores the key in the profile", async () => {
    const dir = join(tmp, "deep", "edgectl");
    const env = { EDGECTL_CONFIG_DIR: dir };
    const path = await writeProfileKey(env, "default", "api_key", "key_12345678");
    expect(path).toBe(join(dir, "config.json"));
    expect(existsSync(path)).toBe(true);
    if (posix) {
      expect(mode(path)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
    }
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ profiles: { default: { api_key: "key_12345678" } } });
  });

  it("round-trips set and unset, keeping other keys and profiles", async () => {
    const env = { EDGECTL_CONFIG_DIR: tmp };
    const noWarn = (m: string) => {
      throw new Error(`unexpected warning: ${m}`);
    };
    await writeProfileKey(env, "default", "base_url", "http://127.0.0.1:4040");
    await writeProfileKey(env, "default", "output", "json");
    await writeProfileKey(env, "ci", "retries", "5");
    expect(readConfig(env, noWarn)).toEqual({
      profiles: { default: { base_url: "http://127.0.0.1:4040", output: "json" }, ci: { retries: "5" } },
    });

    await writeProfileKey(env, "default", "output", "table");
    expect(profileOf(readConfig(env, noWarn), "default").output).toBe("table");

    await writeProfileKey(env, "default", "output", undefined);
    expect(profileOf(readConfig(env, noWarn), "default")).toEqual({ base_url: "http://127.0.0.1:4040" });

    await writeProfileKey(env, "ci", "retries", undefined);
    expect(readConfig(env, noWarn).profiles?.ci).toBeUndefined();
    expect(profileOf(readConfig(env, noWarn), "default")).toEqual({ base_url: "http://127.0.0.1:4040" });
  });

  it.runIf(posix)("leaves an existing folder's mode alone, with a warning, and keeps the file 0600", async () => {
    chmodSync(tmp, 0o1777);
    const warnings: string[] = [];
    await writeProfileKey({ EDGECTL_CONFIG_DIR: tmp }, "default", "timeout", "10", (m) => warnings.push(m));
    expect(mode(tmp)).toBe(0o777);
    expect(statSync(tmp).mode & 0o7777).toBe(0o1777);
    expect(mode(join(tmp, "config.json"))).toBe(0o600);
    expect(warnings).toEqual([
      `the config folder ${tmp} is open to others (mode 1777); edgectl leaves its mode as it is, and keeps config.json 0600`,
    ]);
  });

  it("keeps what other profiles hold as it is, even a value that would be refused", async () => {
    writeFileSync(
      join(tmp, "config.json"),
      JSON.stringify({ profiles: { default: { timeout: 5, output: "wide" } }, extra: 1 }),
      { mode: 0o600 },
    );
    await writeProfileKey({ EDGECTL_CONFIG_DIR: tmp }, "default", "output", "json");
    expect(JSON.parse(readFileSync(join(tmp, "config.json"), "utf8"))).toEqual({
      profiles: { default: { timeout: 5, output: "json" } },
      extra: 1,
    });
  });
});

describe("profileOf", () => {
  it("reads numbers for numeric keys and null as unset", () => {
    expect(profileOf({ profiles: { d: { timeout: 5, retries: 0, output: null } } }, "d")).toEqual({
      timeout: "5",
      retries: "0",
    });
  });

  it.each([
    [{ output: 5 }, "output", "5 is not a string"],
    [{ timeout: true }, "timeout", "true is not a number"],
    [{ api_key: ["k"] }, "api_key", '["k"] is not a string'],
  ])("refuses %j naming the key, the profile and the file", (profile, key, what) => {
    expect(() => profileOf({ profiles: { d: profile } }, "d", "/x/config.json")).toThrow(
      new UsageError(
        `${key} in profile "d" of /x/config.json: ${what}; fix it with \`edgectl config set ${key} <value>\` or \`edgectl config unset ${key}\``,
      ),
    );
  });
});

// Settings, the whole CLI in-process, seen through what the server received: the precedence of
// each setting (flag > environment > profile > default), then profiles and the auth/config
// commands that manage them. A cross-cutting suite, not one verb's (CONTRIBUTING.md, "Layout").
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FB, parseJsonError } from "../e2e/support.js";
import { useSettingsSuite } from "../e2e/settings.support.js";
import { appSandbox } from "../helpers/app.js";
import { json } from "../helpers/fault-server.js";

describe("precedence (flag > environment > profile > default)", () => {
  const ctx = useSettingsSuite(appSandbox);
  const { KEYS, run, lastAuth, lastPath, login } = ctx;

  describe("API key precedence, as the Authorization header the server received", () => {
    const get = (env: Record<string, string | undefined>, extra: string[] = []) =>
      run(["failover", "get", "bkdfo_abc", ...extra], { env: { EDGECTL_BASE_URL: ctx.server.url, ...env } });

    it("--api-key > EDGECTL_API_KEY > NGROK_API_KEY > the profile's key from `auth login --with-token`", async () => {
      await login(KEYS.profile);
      const envs = { EDGECTL_API_KEY: KEYS.edgectl, NGROK_API_KEY: KEYS.ngrok };

      expect((await get(envs, ["--api-key", KEYS.flag])).exitCode).toBe(0);
      expect(lastAuth()).toBe(`Bearer ${KEYS.flag}`);

      expect((await get(envs)).exitCode).toBe(0);
      expect(lastAuth()).toBe(`Bearer ${KEYS.edgectl}`);

      expect((await get({ NGROK_API_KEY: KEYS.ngrok })).exitCode).toBe(0);
      expect(lastAuth()).toBe(`Bearer ${KEYS.ngrok}`);

      expect((await get({})).exitCode).toBe(0);
      expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
      expect(ctx.server.requests).toHaveLength(4);
    });

    it("an empty environment variable does not hide the next source", async () => {
      await login(KEYS.profile);
      expect((await get({ EDGECTL_API_KEY: "", NGROK_API_KEY: "" })).exitCode).toBe(0);
      expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
    });

    it("the key from stdin loses its trailing newline and surrounding spaces", async () => {
      const r = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
        input: `  ${KEYS.profile}  \r\n`,
      });
      expect(r.exitCode).toBe(0);
      await get({});
      expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
    });

    it("auth login refuses an empty key (exit 2)", async () => {
      const r = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], { input: "\n" });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(existsSync(join(ctx.cli.configDir, "config.json"))).toBe(false);
    });
  });

  describe("base URL precedence, as the path prefix the server received", () => {
    it("--base-url > EDGECTL_BASE_URL > `config set base_url` > default", async () => {
      expect((await run(["config", "set", "base_url", `${ctx.server.url}/from-config`])).exitCode).toBe(0);
      const env = { EDGECTL_API_KEY: KEYS.edgectl };
      const get = (extra: string[], e: Record<string, string> = {}) =>
        run(["failover", "get", "bkdfo_abc", ...extra], { env: { ...env, ...e } });

      expect(
        (await get(["--base-url", `${ctx.server.url}/from-flag`], { EDGECTL_BASE_URL: `${ctx.server.url}/from-env` }))
          .exitCode,
      ).toBe(0);
      expect(lastPath()).toBe("/from-flag/backends/failover/bkdfo_abc");

      expect((await get([], { EDGECTL_BASE_URL: `${ctx.server.url}/from-env` })).exitCode).toBe(0);
      expect(lastPath()).toBe("/from-env/backends/failover/bkdfo_abc");

      expect((await get([])).exitCode).toBe(0);
      expect(lastPath()).toBe("/from-config/backends/failover/bkdfo_abc");

      const status = await run(["auth", "status", "-o", "json"], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ base_url: `${ctx.server.url}/from-config` });

      expect((await run(["config", "unset", "base_url"])).exitCode).toBe(0);
      const fallback = await run(["auth", "status", "-o", "json"], { env });
      expect(JSON.parse(fallback.stdout)).toMatchObject({ base_url: "https://api.ngrok.com" });
    });
  });

  describe("output precedence", () => {
    const env = () => ({ EDGECTL_API_KEY: KEYS.edgectl, EDGECTL_BASE_URL: ctx.server.url });

    it("EDGECTL_OUTPUT=json prints JSON; -o table overrides it", async () => {
      const j = await run(["failover", "get", "bkdfo_abc"], { env: { ...env(), EDGECTL_OUTPUT: "json" } });
      expect(JSON.parse(j.stdout)).toEqual(FB);
      const t = await run(["failover", "get", "bkdfo_abc", "-o", "table"], {
        env: { ...env(), EDGECTL_OUTPUT: "json" },
      });
      expect(t.stdout).toMatch(/^FIELD\s+VALUE\n/);
      expect(t.stdout).toMatch(/^ID\s+bkdfo_abc$/m);
    });

    it("EDGECTL_OUTPUT=json also makes errors JSON", async () => {
      const r = await run(["failover", "get", "not-an-id"], { env: { ...env(), EDGECTL_OUTPUT: "json" } });
      expect(r.exitCode).toBe(2);
      expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "usage" });
    });

    it("`config set output json` makes JSON the profile's default; the environment wins over it", async () => {
      expect((await run(["config", "set", "output", "json"])).exitCode).toBe(0);
      const j = await run(["failover", "get", "bkdfo_abc"], { env: env() });
      expect(JSON.parse(j.stdout)).toEqual(FB);
      const t = await run(["failover", "get", "bkdfo_abc"], { env: { ...env(), EDGECTL_OUTPUT: "table" } });
      expect(t.stdout).toMatch(/^FIELD\s+VALUE\n/);
    });

    it("an invalid EDGECTL_OUTPUT is a usage error naming the variable", async () => {
      const r = await run(["failover", "get", "bkdfo_abc"], { env: { ...env(), EDGECTL_OUTPUT: "xml" } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("EDGECTL_OUTPUT");
      expect(ctx.server.requests).toHaveLength(0);
    });
  });
});

const ctx = useSettingsSuite(appSandbox);
const { KEYS, run, lastAuth, login } = ctx;

describe("profiles", () => {
  const get = (env: Record<string, string> = {}, extra: string[] = []) =>
    run(["failover", "get", "bkdfo_abc", ...extra], { env: { EDGECTL_BASE_URL: ctx.server.url, ...env } });

  it("--profile and EDGECTL_PROFILE choose the profile; the flag wins", async () => {
    await login(KEYS.profile);
    await login(KEYS.staging, ["--profile", "staging"]);

    await get();
    expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
    await get({}, ["--profile", "staging"]);
    expect(lastAuth()).toBe(`Bearer ${KEYS.staging}`);
    await get({ EDGECTL_PROFILE: "staging" });
    expect(lastAuth()).toBe(`Bearer ${KEYS.staging}`);
    await get({ EDGECTL_PROFILE: "staging" }, ["--profile", "default"]);
    expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
  });

  it("auth login under EDGECTL_PROFILE writes that profile only", async () => {
    await login(KEYS.staging, [], { EDGECTL_PROFILE: "staging" });
    const data = JSON.parse(readFileSync(join(ctx.cli.configDir, "config.json"), "utf8")) as {
      profiles: Record<string, unknown>;
    };
    expect(Object.keys(data.profiles)).toEqual(["staging"]);
    const r = await get();
    expect(r.exitCode).toBe(4); // the default profile has no key
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("a profile named that the config file does not hold: exit 2 naming the ones it does, nothing sent", async () => {
    await login(KEYS.profile);
    const r = await get({}, ["--profile", "nosuch"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('no profile "nosuch"');
    expect(r.stderr).toContain(": default)");
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("auth status / logout", () => {
  it("shows the profile, base URL, masked key and its source", async () => {
    await login(KEYS.profile);
    const t = await run(["auth", "status"]);
    expect(t.exitCode).toBe(0);
    expect(t.stdout).toMatch(/^PROFILE\s+default$/m);
    expect(t.stdout).toMatch(/^API KEY\s+\*{8}4444$/m);
    expect(t.stdout).toMatch(/^KEY FROM\s+profile "default"$/m);
    expect(t.stdout).toContain("https://api.ngrok.com");

    const j = await run(["auth", "status", "-o", "json"], { env: { NGROK_API_KEY: KEYS.ngrok } });
    expect(JSON.parse(j.stdout)).toEqual({
      profile: "default",
      base_url: "https://api.ngrok.com",
      api_key: "********3333",
      api_key_source: "NGROK_API_KEY",
      config_path: join(ctx.cli.configDir, "config.json"),
    });
    const f = await run(["auth", "status", "-o", "json", "--api-key", KEYS.flag], {
      env: { EDGECTL_API_KEY: KEYS.edgectl },
    });
    expect(JSON.parse(f.stdout)).toMatchObject({ api_key: "********1111", api_key_source: "--api-key" });
  });

  it("logout removes the key: status then exits 4 and requests fail with 4", async () => {
    await login(KEYS.profile);
    const out = await run(["auth", "logout"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe("");
    const status = await run(["auth", "status"]);
    expect(status.exitCode).toBe(4);
    expect(status.stdout).toBe("");
    expect(status.stderr).toMatch(/^error: /);
    const get = await run(["failover", "get", "bkdfo_abc"], { env: { EDGECTL_BASE_URL: ctx.server.url } });
    expect(get.exitCode).toBe(4);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("logout keeps the profile's other settings", async () => {
    await login(KEYS.profile);
    await run(["config", "set", "retries", "1"]);
    await run(["auth", "logout"]);
    const list = await run(["config", "list", "-o", "json"]);
    expect(JSON.parse(list.stdout)).toEqual({ retries: "1" });
  });
});

describe("config get|set|unset|list|path", () => {
  it("set then get, list (api_key masked), unset", async () => {
    await login(KEYS.profile);
    expect((await run(["config", "set", "timeout", "12"])).exitCode).toBe(0);
    expect((await run(["config", "set", "retries", "0"])).exitCode).toBe(0);
    expect((await run(["config", "get", "timeout"])).stdout).toBe("12");
    expect((await run(["config", "get", "api_key"])).stdout).toBe("********4444");

    const list = await run(["config", "list", "-o", "json"]);
    expect(JSON.parse(list.stdout)).toEqual({ api_key: "********4444", timeout: "12", retries: "0" });
    const table = await run(["config", "list"]);
    expect(table.stdout).toMatch(/^KEY\s+VALUE$/m);
    expect(table.stdout).toMatch(/^timeout\s+12$/m);

    expect((await run(["config", "unset", "timeout"])).exitCode).toBe(0);
    const after = await run(["config", "get", "timeout"]);
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toBe("");
    expect(JSON.parse((await run(["config", "list", "-o", "json"])).stdout)).toEqual({
      api_key: "********4444",
      retries: "0",
    });
  });

  it("config set writes the active profile only", async () => {
    await run(["config", "set", "output", "json", "--profile", "ci"]);
    expect((await run(["config", "list", "-o", "json"])).stdout.trim()).toBe("{}");
    expect(JSON.parse((await run(["config", "list", "-o", "json", "--profile", "ci"])).stdout)).toEqual({
      output: "json",
    });
  });

  it("the profile's retries setting is used for requests", async () => {
    await run(["config", "set", "retries", "0"]);
    ctx.server.script(json(503, { msg: "busy", status_code: 503 }, { "Retry-After": "0" }));
    const r = await run(["failover", "get", "bkdfo_abc"], {
      env: { EDGECTL_API_KEY: KEYS.edgectl, EDGECTL_BASE_URL: ctx.server.url },
    });
    expect(r.exitCode).toBe(1);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it("path prints the config file's path", async () => {
    const r = await run(["config", "path"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(join(ctx.cli.configDir, "config.json")); // execa drops the final newline;
  });

  it.each([
    ["an unknown key", ["config", "set", "colour", "x"]],
    ["an invalid output", ["config", "set", "output", "xml"]],
    ["an invalid timeout", ["config", "set", "timeout", "-1"]],
    ["plain http to a remote host", ["config", "set", "base_url", "http://example.com"]],
    ["get of an unknown key", ["config", "get", "nope"]],
  ])("refuses %s with exit 2 and writes nothing", async (_name, args) => {
    const r = await run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(existsSync(join(ctx.cli.configDir, "config.json"))).toBe(false);
  });
});

describe("the config file on disk", () => {
  it("auth login creates the folder 0700 and the file 0600, holding the key", async () => {
    const dir = join(ctx.cli.configDir, "nested", "edgectl");
    await login(KEYS.profile, [], { EDGECTL_CONFIG_DIR: dir });
    const file = join(dir, "config.json");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ profiles: { default: { api_key: KEYS.profile } } });
  });

  it("config set keeps the modes", async () => {
    const dir = join(ctx.cli.configDir, "other");
    await run(["config", "set", "timeout", "5"], { env: { EDGECTL_CONFIG_DIR: dir } });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o600);
  });
});

// Settings precedence end to end (flag > environment > profile > default), seen through
// what the server received (profiles and the auth/config commands are in app/settings, in-process).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FB, parseJsonError } from "./support.js";
import { useSettingsSuite } from "./settings.support.js";

const ctx = useSettingsSuite();
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
    const r = await run(["auth", "login", "--with-token"], { input: `  ${KEYS.profile}  \r\n` });
    expect(r.exitCode).toBe(0);
    await get({});
    expect(lastAuth()).toBe(`Bearer ${KEYS.profile}`);
  });

  it("auth login refuses an empty key (exit 2)", async () => {
    const r = await run(["auth", "login", "--with-token"], { input: "\n" });
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
    const t = await run(["failover", "get", "bkdfo_abc", "-o", "table"], { env: { ...env(), EDGECTL_OUTPUT: "json" } });
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
    const r = await run(["failover", "get", "bkdfo_abc"], { env: { ...env(), EDGECTL_OUTPUT: "yaml" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("EDGECTL_OUTPUT");
    expect(ctx.server.requests).toHaveLength(0);
  });
});

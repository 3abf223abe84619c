// Settings precedence end to end (flag > environment > profile > default), seen through
// what the server received (profiles and the auth/config commands are in app/settings, in-process).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { json, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { FB, parseJsonError, runCli, type TextResult } from "./support.js";

const KEYS = {
  flag: "key_from_flag_AAAA1111",
  edgectl: "key_from_edgectl_env_BBBB2222",
  ngrok: "key_from_ngrok_env_CCCC3333",
  profile: "key_from_profile_DDDD4444",
  staging: "key_from_staging_EEEE5555",
};
const ALL_KEYS = Object.values(KEYS);

let server: FaultServer;
let cli: CliSandbox;
/** Outputs of the current test's CLI runs; afterEach checks that no key shows up in them. */
const outputs: TextResult[] = [];
async function run(args: string[], opts?: RunOptions): Promise<TextResult> {
  const r = await runCli(cli, args, opts);
  outputs.push(r);
  return r;
}
const lastAuth = () => server.requests.at(-1)?.headers.authorization;
const lastPath = () => server.requests.at(-1)?.path;

beforeAll(async () => {
  server = await startFaultServer();
  server.fallback = () => json(200, FB);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  cli = sandbox();
});
afterEach(() => {
  cli.cleanup();
  // The API key never appears in stdout or stderr of any run of this file.
  for (const r of outputs.splice(0)) {
    for (const key of ALL_KEYS) {
      expect(r.stdout).not.toContain(key);
      expect(r.stderr).not.toContain(key);
    }
  }
});

const login = async (key: string, extra: string[] = [], env: Record<string, string> = {}) => {
  const r = await run(["auth", "login", "--with-token", ...extra], { input: `${key}\n`, env });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe("");
  return r;
};

describe("API key precedence, as the Authorization header the server received", () => {
  const get = (env: Record<string, string | undefined>, extra: string[] = []) =>
    run(["failover", "get", "bkdfo_abc", ...extra], { env: { EDGECTL_BASE_URL: server.url, ...env } });

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
    expect(server.requests).toHaveLength(4);
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
    expect(existsSync(join(cli.configDir, "config.json"))).toBe(false);
  });
});

describe("base URL precedence, as the path prefix the server received", () => {
  it("--base-url > EDGECTL_BASE_URL > `config set base_url` > default", async () => {
    expect((await run(["config", "set", "base_url", `${server.url}/from-config`])).exitCode).toBe(0);
    const env = { EDGECTL_API_KEY: KEYS.edgectl };
    const get = (extra: string[], e: Record<string, string> = {}) => run(["failover", "get", "bkdfo_abc", ...extra], { env: { ...env, ...e } });

    expect((await get(["--base-url", `${server.url}/from-flag`], { EDGECTL_BASE_URL: `${server.url}/from-env` })).exitCode).toBe(0);
    expect(lastPath()).toBe("/from-flag/backends/failover/bkdfo_abc");

    expect((await get([], { EDGECTL_BASE_URL: `${server.url}/from-env` })).exitCode).toBe(0);
    expect(lastPath()).toBe("/from-env/backends/failover/bkdfo_abc");

    expect((await get([])).exitCode).toBe(0);
    expect(lastPath()).toBe("/from-config/backends/failover/bkdfo_abc");

    const status = await run(["auth", "status", "-o", "json"], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ base_url: `${server.url}/from-config` });

    expect((await run(["config", "unset", "base_url"])).exitCode).toBe(0);
    const fallback = await run(["auth", "status", "-o", "json"], { env });
    expect(JSON.parse(fallback.stdout)).toMatchObject({ base_url: "https://api.ngrok.com" });
  });
});

describe("output precedence", () => {
  const env = () => ({ EDGECTL_API_KEY: KEYS.edgectl, EDGECTL_BASE_URL: server.url });

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
    expect(server.requests).toHaveLength(0);
  });
});


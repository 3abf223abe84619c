// Issue 26, item 5: no silent choices. (a) A profile named explicitly (--profile,
// EDGECTL_PROFILE) that the config file does not hold is exit 2 listing the profiles there are,
// except for the commands that create it (auth login, config set) and those that need no
// settings; (b) auth login checks the key with one read before storing it. The whole CLI
// in-process (test/helpers/app.ts), against a fault server that records every request and the
// in-process emulator. (The lists' `more: use --all` is held in their own test files.)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { startInProcessEmulator } from "../helpers/emulator.js";
import { apiError, freePort, json, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { FB } from "../helpers/answers.js";

const KEY = "key_silent_choices_0123456789";
const OTHER = "key_refused_by_the_api_98765";

let cli: AppSandbox;
let server: FaultServer;
beforeEach(async () => {
  cli = appSandbox();
  server = await startFaultServer();
  server.fallback = () => json(200, { backends: [FB], next_page_uri: null });
});
afterEach(async () => {
  await server.close();
  cli.cleanup();
});

const configFile = () => join(cli.configDir, "config.json");
const writeConfig = (profiles: Record<string, Record<string, unknown>>) =>
  writeFileSync(configFile(), JSON.stringify({ profiles }), { mode: 0o600 });
const stored = () => JSON.parse(readFileSync(configFile(), "utf8")) as { profiles: Record<string, unknown> };

describe("a profile named explicitly that the config file does not hold", () => {
  const env = () => ({ EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: server.url });

  it("is exit 2 for an API command, listing the profiles there are, and nothing is sent", async () => {
    writeConfig({ default: { api_key: KEY }, ci: { output: "json" }, staging: {} });
    for (const [args, extra, named] of [
      [["failover", "list", "--profile", "stagin"], {}, "--profile"],
      [["failover", "list"], { EDGECTL_PROFILE: "stagin" }, "EDGECTL_PROFILE"],
    ] as const) {
      const r = await cli.run([...args], { env: { ...env(), ...extra } });
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`error: ${named}: no profile "stagin"`);
      expect(r.stderr).toContain(`the profiles in ${configFile()}: ci, default, staging`);
      expect(r.stderr).toContain("edgectl auth login --profile stagin");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("says there are none when the config file holds none, or there is no config file", async () => {
    const r = await cli.run(["failover", "get", "bkdfo_abc", "--profile", "ci"], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: --profile: no profile "ci" (${configFile()} holds no profiles)`);
    writeConfig({});
    const again = await cli.run(["failover", "get", "bkdfo_abc", "--profile", "ci"], { env: env() });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain("holds no profiles");
    expect(server.requests).toHaveLength(0);
  });

  it("is a usage error in JSON with -o json", async () => {
    const r = await cli.run(["failover", "list", "--profile", "ci", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(2);
    expect((JSON.parse(r.stderr) as { error: { kind: string; message: string } }).error).toMatchObject({
      kind: "usage",
      message: expect.stringContaining('no profile "ci"') as unknown,
    });
  });

  it("is exit 2 for auth status and logout, config get, list and unset; the file is left as it was", async () => {
    writeConfig({ default: { api_key: KEY } });
    const before = readFileSync(configFile(), "utf8");
    for (const args of [
      ["auth", "status"],
      ["auth", "logout"],
      ["config", "get", "output"],
      ["config", "list"],
      ["config", "unset", "output"],
    ]) {
      const r = await cli.run([...args, "--profile", "ci"], { env: env() });
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain('no profile "ci" (the profiles in');
      expect(r.stderr).toContain(": default)");
    }
    expect(readFileSync(configFile(), "utf8")).toBe(before);
  });

  it("is no matter for the commands that need no settings", async () => {
    writeConfig({ default: {} });
    for (const args of [
      ["config", "path"],
      ["completion", "bash"],
      ["--version"],
      ["failover", "list", "--help"],
      ["--help"],
    ]) {
      const r = await cli.run([...args, "--profile", "nosuch"]);
      expect(r.exitCode, args.join(" ")).toBe(0);
      expect(r.stderr, args.join(" ")).not.toContain("nosuch");
    }
  });

  it("a profile the file holds works, as does the default one, named or not, with no config file", async () => {
    expect((await cli.run(["failover", "list"], { env: env() })).exitCode).toBe(0);
    expect((await cli.run(["failover", "list", "--profile", "default"], { env: env() })).exitCode).toBe(0);
    expect((await cli.run(["failover", "list"], { env: { ...env(), EDGECTL_PROFILE: "default" } })).exitCode).toBe(0);
    writeConfig({ ci: { output: "json" } });
    const r = await cli.run(["failover", "list", "--profile", "ci"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([FB]);
  });

  it("config set creates it (and says so), as auth login does", async () => {
    writeConfig({ default: { api_key: KEY } });
    const r = await cli.run(["config", "set", "output", "json", "--profile", "ci"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(`created profile "ci" in ${configFile()}`);
    expect(stored().profiles).toEqual({ default: { api_key: KEY }, ci: { output: "json" } });
    const again = await cli.run(["config", "set", "timeout", "5", "--profile", "ci"]);
    expect(again.stderr).toBe("");
    expect((await cli.run(["config", "list", "--profile", "ci", "-o", "json"])).stdout).toBe(
      JSON.stringify({ output: "json", timeout: "5" }, null, 2),
    );
    const login = await cli.run(["auth", "login", "--with-token", "--no-verify", "--profile", "staging"], {
      input: `${KEY}\n`,
    });
    expect(login.exitCode).toBe(0);
    expect(stored().profiles.staging).toEqual({ api_key: KEY });
  });
});

describe("auth login checks the key with one read before storing it", () => {
  let emu: Awaited<ReturnType<typeof startInProcessEmulator>>;
  beforeAll(async () => {
    emu = await startInProcessEmulator(["--api-key", KEY]);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await emu?.stop();
  });

  it("a key the API takes: `key works for <base URL>` on stderr, then stored", async () => {
    const r = await cli.run(["auth", "login", "--with-token"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: emu.url },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe(`key works for ${emu.url}`);
    expect(r.stderr).toContain('Logged in: key stored in profile "default"');
    expect(stored().profiles).toEqual({ default: { api_key: KEY } });
  });

  it("a key the API refuses: exit 4, nothing stored", async () => {
    const r = await cli.run(["auth", "login", "--with-token"], {
      input: `${OTHER}\n`,
      env: { EDGECTL_BASE_URL: emu.url },
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: the API refused this key: .*; nothing stored/);
    expect(r.stderr).not.toContain(OTHER);
    expect(existsSync(configFile())).toBe(false);
  });

  it("sends one GET /endpoints?limit=1 with the key given (not the one in the environment), to the profile's base URL", async () => {
    writeConfig({ staging: { base_url: server.url } });
    server.script(json(200, { endpoints: [], next_page_uri: null }));
    const r = await cli.run(["auth", "login", "--with-token", "--profile", "staging"], {
      input: `${KEY}\n`,
      env: { EDGECTL_API_KEY: OTHER },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe(`key works for ${server.url}`);
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /endpoints?limit=1"]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(stored().profiles.staging).toEqual({ base_url: server.url, api_key: KEY });
  });

  it("a new profile named explicitly is checked against the base URL of the flags and environment, then created", async () => {
    server.script(json(200, { endpoints: [], next_page_uri: null }));
    const r = await cli.run(["auth", "login", "--with-token", "--profile", "fresh"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: server.url },
    });
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(stored().profiles).toEqual({ fresh: { api_key: KEY } });
  });

  it("403 is refused too: exit 4 with the API's status, nothing stored", async () => {
    server.script(apiError(403, "The API key is not authorized.", "ERR_NGROK_206"));
    const r = await cli.run(["auth", "login", "--with-token", "-o", "json"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: server.url },
    });
    expect(r.exitCode).toBe(4);
    expect((JSON.parse(r.stderr) as { error: Record<string, unknown> }).error).toMatchObject({
      kind: "auth",
      status_code: 403,
      message: expect.stringMatching(/^the API refused this key: .*; nothing stored$/) as unknown,
    });
    expect(existsSync(configFile())).toBe(false);
  });

  it("no answer: exit 3, nothing stored, and says how to store it anyway", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const r = await cli.run(["auth", "login", "--with-token", "--retries", "0"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: closed },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: could not check the key: /);
    expect(r.stderr).toContain("nothing stored (to store it without the check: `edgectl auth login --no-verify`)");
    expect(existsSync(configFile())).toBe(false);
  });

  it("a server error: exit 1, nothing stored, the same hint", async () => {
    server.script(apiError(500, "boom"));
    const r = await cli.run(["auth", "login", "--with-token", "--retries", "0"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: server.url },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("--no-verify");
    expect(existsSync(configFile())).toBe(false);
  });

  it("--no-verify stores the key without a request", async () => {
    const r = await cli.run(["auth", "login", "--with-token", "--no-verify"], {
      input: `${KEY}\n`,
      env: { EDGECTL_BASE_URL: server.url },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("key works");
    expect(server.requests).toHaveLength(0);
    expect(stored().profiles).toEqual({ default: { api_key: KEY } });
  });
});

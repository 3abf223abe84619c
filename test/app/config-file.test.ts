// The config file end to end (issue 9 items 2, 4 and 7): concurrent writers never lose each
// other, edgectl changes no folder it did not create and read-only commands change nothing,
// and settings that cannot be used are named without breaking the commands that need none.
// Run in-process (test/helpers/app.ts); concurrent writers, which need processes, are in
// e2e/config-file.test.ts.
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { FB } from "../e2e/support.js";
import { useConfigFileSuite } from "../e2e/config-file.support.js";

const { KEY, suite, run, file, writeConfig, stored, modeOf } = useConfigFileSuite(appSandbox);

describe("files that are not edgectl's", () => {
  it("creates its own folder 0700 and file 0600", async () => {
    const dir = join(suite.cli.configDir, "new", "edgectl");
    const r = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
      input: KEY,
      env: { EDGECTL_CONFIG_DIR: dir },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, "config.json"))).toBe(0o600);
  });

  it("never changes the mode of a shared folder, on reading or on login (a warning instead)", async () => {
    const shared = join(suite.cli.configDir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const env = { EDGECTL_CONFIG_DIR: shared };
    const list = await run(["config", "list"], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(modeOf(shared)).toBe(0o1777);

    const login = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], { input: KEY, env });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(modeOf(shared)).toBe(0o1777);
    expect(modeOf(join(shared, "config.json"))).toBe(0o600);
    expect(login.stderr).toContain(
      `warning: the config folder ${shared} is open to others (mode 1777); edgectl leaves its mode as it is`,
    );
  });

  it("makes an existing project folder no tighter at login", async () => {
    const project = join(suite.cli.configDir, "project");
    mkdirSync(project);
    chmodSync(project, 0o755);
    const r = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
      input: KEY,
      env: { EDGECTL_CONFIG_DIR: project },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(modeOf(project)).toBe(0o755);
  });

  it.each([
    [["config", "list"]],
    [["config", "get", "output"]],
    [["config", "path"]],
    [["auth", "status"]],
    [["failover", "list"]],
    [["api", "GET", "/backends/failover"]],
  ])("`%s` writes and chmods nothing, only warns about a file open to others", async (args) => {
    chmodSync(suite.cli.configDir, 0o755);
    writeConfig({ profiles: { default: { api_key: KEY, output: "table" } } }, 0o644);
    const before = {
      dir: statSync(suite.cli.configDir),
      file: statSync(file()),
      entries: readdirSync(suite.cli.configDir),
      text: readFileSync(file(), "utf8"),
    };
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(suite.cli.configDir)).toEqual(before.entries);
    expect(readFileSync(file(), "utf8")).toBe(before.text);
    expect(modeOf(suite.cli.configDir)).toBe(0o755);
    expect(modeOf(file())).toBe(0o644);
    expect(statSync(file()).mtimeMs).toBe(before.file.mtimeMs);
    if (args[1] !== "path")
      expect(r.stderr).toContain(
        `warning: ${file()} is readable by others (mode 644) and may hold an API key; run: chmod 600 '${file()}'`,
      );
  });
});

describe("settings that cannot crash", () => {
  it("accepts numbers for timeout and retries, and null as unset", async () => {
    writeConfig({ profiles: { default: { api_key: KEY, timeout: 5, retries: 0, output: null } } });
    const r = await run(["failover", "list", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([FB]);
  });

  it.each([
    [{ output: 5 }, 'output in profile "default" of FILE: 5 is not a string'],
    [{ timeout: "soon" }, 'timeout in profile "default" of FILE: "soon" must be a number of seconds'],
    [{ retries: true }, 'retries in profile "default" of FILE: true is not a number'],
    [{ base_url: "ftp://x" }, 'base_url in profile "default" of FILE: "ftp://x" must be an https:// URL'],
  ])("refuses %j naming the key and the file (exit 2, nothing sent)", async (bad, message) => {
    writeConfig({ profiles: { default: { api_key: KEY, base_url: suite.server.url, ...bad } } });
    const r = await run(["failover", "list"], { env: { EDGECTL_BASE_URL: undefined } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${message.replace("FILE", file())}`);
    expect(suite.server.requests).toEqual([]);
  });

  it.each([
    ["a file that is not JSON", "{oops", {}],
    ["a bad value", { profiles: { default: { output: 5, timeout: "soon" } } }, {}],
    [
      "bad environment values",
      {},
      {
        EDGECTL_TIMEOUT: "soon",
        EDGECTL_OUTPUT: "wide",
        EDGECTL_RETRIES: "many",
        EDGECTL_BASE_URL: "ftp://x",
        EDGECTL_API_KEY: "a\u00e9b",
      },
    ],
  ])("runs `config path`, `completion`, --help and --version with %s", async (_what, config, env) => {
    writeConfig(config);
    for (const args of [
      ["config", "path"],
      ["completion", "bash"],
      ["--help"],
      ["--version"],
      ["failover", "--help"],
      ["config", "--help"],
    ]) {
      const r = await run(args, { env });
      expect(r.exitCode, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toBe("");
    }
  });

  it("repairs one bad value with `config set`, and another with `config unset`", async () => {
    writeConfig({ profiles: { default: { api_key: KEY, output: 5, timeout: "soon" } } });
    expect((await run(["config", "set", "output", "json"])).exitCode).toBe(0);
    expect((await run(["failover", "list"])).exitCode).toBe(2); // the timeout is still bad
    const unset = await run(["config", "unset", "timeout"]);
    expect(unset.exitCode, unset.stderr).toBe(0);
    const r = await run(["failover", "list"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([FB]);
    expect(stored().profiles.default).toEqual({ api_key: KEY, output: "json" });
  });
});

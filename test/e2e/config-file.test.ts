// The config file end to end (issue 9 items 2, 4 and 7): concurrent writers never lose each
// other, edgectl changes no folder it did not create and read-only commands change nothing,
// and settings that cannot be used are named without breaking the commands that need none.
import { readdirSync } from "node:fs";
import { lock } from "proper-lockfile";
import { describe, expect, it } from "vitest";
import { useConfigFileSuite } from "./config-file.support.js";

const { suite, run, file, writeConfig, stored } = useConfigFileSuite();

describe("concurrent writes", () => {
  it("keeps all twenty profiles when twenty `auth login --with-token` run at once", async () => {
    const n = 20;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        run(["auth", "login", "--with-token", "--no-verify", "--profile", `p${i}`], {
          input: `key_parallel_${i}_abcdef\n`,
          timeoutMs: 60_000,
        }),
      ),
    );
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    const profiles = stored().profiles;
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: n }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < n; i++) expect(profiles[`p${i}`]).toEqual({ api_key: `key_parallel_${i}_abcdef` });
    // Nothing left behind: no lock, no temporary file.
    expect(readdirSync(suite.cli.configDir)).toEqual(["config.json"]);
  });

  it("keeps every key when `config set` of different keys run at once", async () => {
    const sets = [
      ["output", "json"],
      ["timeout", "12"],
      ["retries", "4"],
      ["base_url", "http://127.0.0.1:9"],
    ] as const;
    const results = await Promise.all(sets.map(([k, v]) => run(["config", "set", k, v])));
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    expect(stored().profiles.default).toEqual(Object.fromEntries(sets));
  });

  it("gives up with a clear error, changing nothing, while another writer holds the lock", async () => {
    writeConfig({ profiles: { default: { output: "table" } } });
    const release = await lock(file(), { realpath: false });
    try {
      const r = await run(["config", "set", "output", "json"], { timeoutMs: 60_000 });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(
        `error: config file ${file()} is locked by another edgectl that is writing it; nothing was changed, try again (a lock left by a crash, ${file()}.lock, expires after 10 s)`,
      );
    } finally {
      await release();
    }
    expect(stored().profiles.default).toEqual({ output: "table" });
  });
});

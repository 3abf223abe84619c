// Input that cannot be a key is refused where it enters (issue 9 item 8): at login, and
// when read from the flag, the environment or the profile, exit 2 naming the source, and
// nothing is sent or stored.
// Run in-process (test/helpers/app.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { useKeyInputSuite } from "../e2e/api-key-input.support.js";

const { suite, run, MUST, BAD } = useKeyInputSuite(appSandbox);

describe("keys read at every command", () => {
  // The environment cannot hold NUL; the other kinds are tried from each source.
  const envBad = BAD.filter(([what]) => what !== "a NUL");

  it.each(envBad)("refuses EDGECTL_API_KEY with %s, naming it (exit 2, nothing sent)", async (_what, key, why) => {
    const r = await run(["failover", "get", "bkdfo_abc"], { env: { EDGECTL_API_KEY: key } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: EDGECTL_API_KEY: ${MUST} (this one has ${why})`);
    expect(suite.server.requests).toEqual([]);
  });

  it.each(envBad)("refuses NGROK_API_KEY with %s, naming it", async (_what, key, why) => {
    const r = await run(["failover", "get", "bkdfo_abc"], { env: { NGROK_API_KEY: key } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: NGROK_API_KEY: ${MUST} (this one has ${why})`);
    expect(suite.server.requests).toEqual([]);
  });

  it.each(envBad)("refuses --api-key with %s, naming it", async (_what, key, why) => {
    const r = await run(["failover", "get", "bkdfo_abc", "--api-key", key]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: --api-key: ${MUST} (this one has ${why})`);
    expect(suite.server.requests).toEqual([]);
  });

  it.each(BAD)("refuses a stored key with %s, naming the profile and the file", async (_what, key, why) => {
    const file = join(suite.cli.configDir, "config.json");
    writeFileSync(file, JSON.stringify({ profiles: { default: { api_key: key } } }), { mode: 0o600 });
    const r = await run(["failover", "get", "bkdfo_abc"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: api_key in profile "default" of ${file}: ${MUST} (this one has ${why})`);
    expect(suite.server.requests).toEqual([]);
  });
});

describe("the cases that ran the real bin, in-process", () => {
  const { run, MUST } = useKeyInputSuite(appSandbox);

  describe("auth login", () => {
    it("still takes a key with blanks around it", async () => {
      const r = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
        input: "  key_fine_1234567\n\n",
      });
      expect(r.exitCode, r.stderr).toBe(0);
    });
  });

  describe("keys read at every command", () => {
    it("refuses `config set api_key` with a non-ASCII key", async () => {
      const r = await run(["config", "set", "api_key", "key_caf\u00e9_1234"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`error: <value> for api_key: ${MUST}`);
    });
  });
});

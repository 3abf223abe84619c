// What scripts run into at the edges, end to end against a recording fault server: a reader
// that closes the pipe early, a batch whose key is refused, an id given twice to delete,
// a blank EDGECTL_API_KEY, and `edgectl api` paths and bodies that are not what they seem.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/script-edges.test.ts.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { apiError, json } from "../helpers/fault-server.js";
import { failoverAt, parseJsonError, useFaultServer } from "../e2e/support.js";

const KEY = "key_script_edges_7777";
const suite = useFaultServer(KEY, appSandbox);
const { run } = suite;
const resource = (id: string) => failoverAt(suite.server.url, id);

describe("a batch whose API key is refused", () => {
  it("stops sending after the first 401: exit 4, the rest not tried", async () => {
    suite.server.fallback = () =>
      apiError(401, "The API key you specified is properly formed, but it is invalid.", "ERR_NGROK_203");
    const ids = Array.from({ length: 50 }, (_, i) => `bkdfo_k${i}`);
    const r = await run(["failover", "get", "-", "--concurrency", "2"], { input: `${ids.join("\n")}\n` });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(suite.server.requests.length).toBeLessThanOrEqual(2);
    expect(r.stderr).toMatch(/^error: .*not tried, since the API refused the key/m);
  });

  it("with -o json the one error object says so", async () => {
    suite.server.fallback = () => apiError(403, "forbidden", "ERR_NGROK_218");
    const r = await run([
      "failover",
      "delete",
      "bkdfo_a1",
      "bkdfo_a2",
      "bkdfo_a3",
      "bkdfo_a4",
      "--yes",
      "--concurrency",
      "1",
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(4);
    expect(suite.server.requests).toHaveLength(1);
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({ kind: "auth" });
    expect(error.message).toMatch(/3 not tried/);
  });
});

describe("an id given twice to delete", () => {
  it("is deleted once, and the run succeeds", async () => {
    suite.server.fallback = () => ({ status: 204 });
    const r = await run(["failover", "delete", "bkdfo_dup", "bkdfo_other", "bkdfo_dup", "--yes", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(
      expect.arrayContaining(["DELETE /backends/failover/bkdfo_dup", "DELETE /backends/failover/bkdfo_other"]),
    );
    expect(suite.server.requests).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: "bkdfo_dup", deleted: true },
      { id: "bkdfo_other", deleted: true },
    ]);
  });
});

describe("a blank EDGECTL_API_KEY", () => {
  it("counts as unset: the profile's key is used", async () => {
    const login = await run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
      input: "key_from_profile_1234\n",
      env: { EDGECTL_API_KEY: undefined },
    });
    expect(login.exitCode).toBe(0);
    suite.server.fallback = () => json(200, resource("bkdfo_blank"));
    const r = await run(["failover", "get", "bkdfo_blank", "-o", "json"], { env: { EDGECTL_API_KEY: "   " } });
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests[0]!.headers.authorization).toBe("Bearer key_from_profile_1234");
    await run(["auth", "logout"], { env: { EDGECTL_API_KEY: undefined } });
  });
});

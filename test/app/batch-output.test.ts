// What a batch (`failover get|delete` with several ids or `-`) puts on stdout, end to end:
// nothing at all when no id succeeded ("on failure stdout is empty"), the successes in input
// order when some did, and one JSON document for `--dry-run -o json` however many ids came.
// Run in-process (test/helpers/app.ts).
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError, useFaultServer } from "../e2e/support.js";
import { apiError, json } from "../helpers/fault-server.js";

const KEY = "key_batch_output_tests_5555";
const suite = useFaultServer(KEY, appSandbox);
const { run } = suite;

const idOf = (path: string) => decodeURIComponent(path.split("/").pop() ?? "");
describe("a batch where every id fails prints nothing on stdout", () => {
  const ids = ["bkdfo_miss1", "bkdfo_miss2", "bkdfo_miss3"];

  it.each([
    ["get, table", ["failover", "get", ...ids]],
    ["delete, table", ["failover", "delete", ...ids, "--yes"]],
  ])("%s: stdout empty, one stderr line per id then the count, exit 1", async (_name, args) => {
    const r = await run(args);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(ids.length + 1);
    ids.forEach((id, i) => expect(lines[i]).toMatch(new RegExp(`^error: ${id}: .*HTTP 404`)));
    expect(lines[ids.length]).toMatch(/^error: 3 of 3 ids could not be /);
    expect(suite.server.requests.map((q) => idOf(q.path)).sort()).toEqual([...ids].sort());
  });

  it.each([
    ["get", ["failover", "get", ...ids, "-o", "json"]],
    ["delete", ["failover", "delete", ...ids, "--yes", "-o", "json"]],
  ])("%s -o json: stdout empty (no `[]`), stderr one JSON error listing every id", async (_name, args) => {
    const r = await run(args);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const { error } = parseJsonError(r.stderr) as {
      error: { kind: string; details: { failures: { id: string; status_code: number }[] } };
    };
    expect(error.kind).toBe("api");
    expect(error.details.failures.map((f) => [f.id, f.status_code])).toEqual(ids.map((id) => [id, 404]));
  });

  it.each([
    ["get", ["failover", "get", "-"]],
    ["delete", ["failover", "delete", "-", "--yes"]],
  ])("%s with ids from stdin (`-`), all failing: stdout empty", async (_name, args) => {
    for (const output of ["table", "json"]) {
      const r = await run([...args, "-o", output], { input: `${ids.join("\n")}\n` });
      expect(r.exitCode, output).toBe(1);
      expect(r.stdout, output).toBe("");
    }
  });

  it.each([
    ["get", ["failover", "get", "-"]],
    ["delete", ["failover", "delete", "-", "--yes"]],
  ])("%s with a single id on stdin that fails: stdout empty", async (_name, args) => {
    for (const output of ["table", "json"]) {
      const r = await run([...args, "-o", output], { input: "bkdfo_miss1\n" });
      expect(r.exitCode, output).toBe(1);
      expect(r.stdout, output).toBe("");
      expect(r.stderr, output).toMatch(/404/);
    }
  });
});

describe("a single id that fails prints nothing on stdout", () => {
  it.each([
    ["get", ["failover", "get", "bkdfo_miss1"]],
    ["get -o json", ["failover", "get", "bkdfo_miss1", "-o", "json"]],
    ["delete", ["failover", "delete", "bkdfo_miss1", "--yes"]],
    ["delete -o json", ["failover", "delete", "bkdfo_miss1", "--yes", "-o", "json"]],
  ])("%s", async (_name, args) => {
    const r = await run(args);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/404/);
  });
});

describe("failover delete --dry-run with several ids", () => {
  const url = (id: string) => `${suite.server.url}/backends/failover/${id}`;

  it("-o json prints ONE JSON array of the requests, in order, and sends nothing", async () => {
    const r = await run(["failover", "delete", "bkdfo_1", "bkdfo_2", "bkdfo_3", "--dry-run", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(
      ["bkdfo_1", "bkdfo_2", "bkdfo_3"].map((id) => ({ dry_run: true, request: { method: "DELETE", url: url(id) } })),
    );
    expect(suite.server.requests).toHaveLength(0);
  });

  it("-o json with ids from stdin (`-`) is one array too, even for one id", async () => {
    const many = await run(["failover", "delete", "-", "--dry-run", "-o", "json"], { input: "bkdfo_1\nbkdfo_2\n" });
    expect(many.exitCode).toBe(0);
    expect(JSON.parse(many.stdout)).toEqual(
      ["bkdfo_1", "bkdfo_2"].map((id) => ({ dry_run: true, request: { method: "DELETE", url: url(id) } })),
    );
    const one = await run(["failover", "delete", "-", "--dry-run", "-o", "json"], { input: "bkdfo_1\n" });
    expect(one.exitCode).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual([{ dry_run: true, request: { method: "DELETE", url: url("bkdfo_1") } }]);
    expect(suite.server.requests).toHaveLength(0);
  });

  it("-o json with a single id argument keeps printing one object", async () => {
    const r = await run(["failover", "delete", "bkdfo_1", "--dry-run", "-o", "json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ dry_run: true, request: { method: "DELETE", url: url("bkdfo_1") } });
    expect(suite.server.requests).toHaveLength(0);
  });

  it("the table form stays one readable request line per id", async () => {
    const r = await run(["failover", "delete", "bkdfo_1", "bkdfo_2", "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`DELETE ${url("bkdfo_1")}\nDELETE ${url("bkdfo_2")}`);
    expect(suite.server.requests).toHaveLength(0);
  });

  it("failover get changes nothing, so it has no --dry-run (usage error, nothing sent)", async () => {
    const help = await run(["failover", "get", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).not.toMatch(/--dry-run/);
    const r = await run(["failover", "get", "bkdfo_1", "bkdfo_2", "--dry-run"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/--dry-run/);
    expect(suite.server.requests).toHaveLength(0);
  });
});

describe("the cases that ran the real bin, in-process", () => {
  const KEY = "key_batch_output_tests_5555";
  const suite = useFaultServer(KEY, appSandbox);
  const { run } = suite;

  const idOf = (path: string) => decodeURIComponent(path.split("/").pop() ?? "");
  const resource = (id: string) => ({
    id,
    uri: `${suite.server.url}/backends/failover/${id}`,
    created_at: "2026-01-01T00:00:00Z",
    description: "d",
    metadata: "",
    backends: ["bkdhr_a"],
  });

  describe("a batch where every id fails prints nothing on stdout", () => {
    it("the worst exit code still wins when all fail (a connection reset → 3), stdout empty", async () => {
      suite.server.fallback = (req) =>
        idOf(req.path) === "bkdfo_reset" ? { reset: true } : apiError(404, "Resource not found");
      const r = await run(["failover", "get", "bkdfo_miss1", "bkdfo_reset", "--retries", "0"]);
      expect(r.exitCode).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: bkdfo_miss1: .*HTTP 404/m);
      expect(r.stderr).toMatch(/^error: bkdfo_reset: /m);
    });
  });

  describe("partial success still prints the successes, in input order", () => {
    it("get and delete, table and JSON", async () => {
      const given = ["bkdfo_ok1", "bkdfo_miss1", "bkdfo_ok2", "bkdfo_miss2", "bkdfo_ok3"];
      const ok = given.filter((id) => id.includes("ok"));
      suite.server.fallback = (req) => {
        const id = idOf(req.path);
        if (!id.includes("ok")) return apiError(404, "Resource not found");
        return req.method === "DELETE" ? { status: 204 } : json(200, resource(id));
      };
      const getJson = await run(["failover", "get", ...given, "-o", "json"]);
      expect(getJson.exitCode).toBe(1);
      expect((JSON.parse(getJson.stdout) as { id: string }[]).map((b) => b.id)).toEqual(ok);

      const getTable = await run(["failover", "get", ...given]);
      expect(getTable.exitCode).toBe(1);
      const lines = getTable.stdout.split("\n").filter((l) => l.trim() !== "");
      expect(lines[0]).toMatch(/^ID\s+DESCRIPTION/);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(ok);

      const del = await run(["failover", "delete", ...given, "--yes", "-o", "json"]);
      expect(del.exitCode).toBe(1);
      expect(JSON.parse(del.stdout)).toEqual(ok.map((id) => ({ id, deleted: true })));

      const delTable = await run(["failover", "delete", ...given, "--yes"]);
      expect(delTable.exitCode).toBe(1);
      const rows = delTable.stdout.split("\n").filter((l) => l.trim() !== "");
      expect(rows[0]).toMatch(/^ID\s+DELETED$/);
      expect(rows.slice(1).map((l) => l.split(/\s+/))).toEqual(ok.map((id) => [id, "true"]));
    });
  });
});

// What a batch (`failover get|delete` with several ids or `-`) puts on stdout, end to end:
// nothing at all when no id succeeded ("on failure stdout is empty"), the successes in input
// order when some did, and one JSON document for `--dry-run -o json` however many ids came.
// Here the real bin runs one case of each kind; the rest run in-process in app/batch-output.test.ts.
import { describe, expect, it } from "vitest";
import { apiError, json } from "../helpers/fault-server.js";
import { useFaultServer } from "./support.js";

const KEY = "key_batch_output_tests_5555";
const suite = useFaultServer(KEY);
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

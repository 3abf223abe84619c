// "Errors print in the same format as results: the last -o/--json given wins for both" —
// read from what commander parsed, usage errors from commander itself included.
// Run in-process (test/helpers/app.ts).
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError, useFaultServer, FB } from "../e2e/support.js";
import { apiError, json } from "../helpers/fault-server.js";

const suite = useFaultServer("key_for_format_tests_1234", appSandbox);

describe("the last -o/--json given wins", () => {
  it("for commander's usage errors: an unknown option after -o table --json is one JSON object", async () => {
    const r = await suite.run(["failover", "get", "bkdfo_abc", "-o", "table", "--json", "--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "usage" });
    expect(suite.server.requests).toHaveLength(0);
  });

  it("for commander's usage errors: --json then -o table gives the plain error line", async () => {
    const r = await suite.run(["failover", "get", "--json", "-o", "table", "--bogus", "bkdfo_abc"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--bogus'/);
  });

  it("for a missing argument with -ojson before the command", async () => {
    const r = await suite.run(["-ojson", "failover", "update"]);
    expect(r.exitCode).toBe(2);
    expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "usage" });
  });
});

describe("the cases that ran the real bin, in-process", () => {
  const suite = useFaultServer("key_for_format_tests_1234", appSandbox);

  describe("the last -o/--json given wins", () => {
    it("for results: --json then -o table prints a table; -o table then --json prints JSON", async () => {
      suite.server.fallback = () => json(200, FB);
      const table = await suite.run(["failover", "get", "bkdfo_abc", "--json", "-o", "table"]);
      expect(table.stdout).toMatch(/^FIELD\s+VALUE\n/);
      const asJson = await suite.run(["failover", "get", "bkdfo_abc", "-o", "table", "--json"]);
      expect(JSON.parse(asJson.stdout)).toEqual(FB);
      const last = await suite.run(["-o", "json", "failover", "get", "bkdfo_abc", "--output=table"]);
      expect(last.stdout).toMatch(/^FIELD\s+VALUE\n/);
    });

    it("for an API error of a line read without commander: -o table --json is one JSON object, --json -o table a line", async () => {
      suite.server.fallback = () => apiError(404, "Resource not found");
      const asJson = await suite.run(["failover", "get", "bkdfo_abc", "-o", "table", "--json"]);
      expect(asJson.exitCode).toBe(1);
      expect(asJson.stdout).toBe("");
      expect(parseJsonError(asJson.stderr).error).toMatchObject({ kind: "api", status_code: 404 });
      const line = await suite.run(["--json", "failover", "get", "bkdfo_abc", "-o", "table"]);
      expect(line.exitCode).toBe(1);
      expect(line.stderr).toMatch(/^error: bkdfo_abc not found \(HTTP 404/);
    });

    it("for a usage error commander raises: -o table --json then an unknown option is one JSON object", async () => {
      const r = await suite.run(["failover", "get", "bkdfo_abc", "-o", "table", "--json", "--bogus"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(parseJsonError(r.stderr).error).toMatchObject({ kind: "usage" });
      expect(suite.server.requests).toHaveLength(0);
    });
  });
});

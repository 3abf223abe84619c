// "Errors print in the same format as results: the last -o/--json given wins for both" —
// read from what commander parsed, usage errors from commander itself included.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/output-format.test.ts.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { parseJsonError, useFaultServer } from "../e2e/support.js";

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

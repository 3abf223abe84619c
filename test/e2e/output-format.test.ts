// "Errors print in the same format as results: the last -o/--json given wins for both" —
// read from what commander parsed, usage errors from commander itself included.
// Here the real bin runs one case of each kind; the rest run in-process in app/output-format.test.ts.
import { describe, expect, it } from "vitest";
import { json } from "../helpers/fault-server.js";
import { FB, useFaultServer } from "./support.js";

const suite = useFaultServer("key_for_format_tests_1234");

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
});

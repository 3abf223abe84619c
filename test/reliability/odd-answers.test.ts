// Answers and situations at the edges: a next_page_uri that loops, a base URL with a path
// prefix, the API's own field order in -o json, a connection cut mid-body, a very short key
// echoed back, warnings on a failing run, and what the server says inside a --debug trace.
// Here the real bin runs one case; the rest run in-process in app/odd-answers.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonError } from "../e2e/support.js";
import { json } from "../helpers/fault-server.js";
import { FB, envFor, out, sandbox, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

describe("failover list --all", () => {
  it("stops with exit 3 when next_page_uri points back to a page already read, printing nothing", async () => {
    await withServer(async (server) => {
      // Each page brings a new item, so only the repeated next_page_uri tells the loop.
      let n = 0;
      server.fallback = () =>
        json(200, {
          backends: [{ ...FB, id: `bkdfo_n${++n}` }],
          uri: "/backends/failover",
          next_page_uri: `${server.url}/backends/failover?before_id=bkdfo_abc`,
        });
      const r = await cli.run(["failover", "list", "--all", "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      expect(parseJsonError(out(r.stderr)).error).toMatchObject({ kind: "network" });
      expect(out(r.stderr)).toMatch(/next_page_uri leads back to a page already read/);
      // The first page, the page it names, and then the repeat is seen before it is asked for.
      expect(server.requests).toHaveLength(2);
    });
  });
});

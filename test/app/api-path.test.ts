// `edgectl api` keeps the key below the base path, whatever the bytes (issue 9 item 3):
// control characters are refused, and the URL is checked as finally parsed.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/api-path.test.ts.
import { describe, expect, it } from "vitest";
import { apiUrl } from "../../src/commands/api/api.js";
import { UsageError } from "../../src/errors.js";
import { appSandbox } from "../helpers/app.js";
import { useFaultServer } from "../e2e/support.js";

const KEY = "key_api_path_Lk98Jh76";
const suite = useFaultServer(KEY, appSandbox);
const base = () => `${suite.server.url}/api/v2`;

describe("edgectl api with a base URL below a path", () => {
  it.each([
    ["tabs inside dot segments", "/.\t./.\t./admin"],
    ["line breaks inside dot segments", "/.\n./.\r./admin"],
    ["a leading tab", "\t/../admin"],
    ["DEL", "/backends\x7f/failover"],
    ["a control character in the query", "/backends/failover?x=\t"],
  ])("refuses %s (exit 2, nothing sent)", async (_what, path) => {
    const r = await suite.run(["api", "GET", path], { env: { EDGECTL_BASE_URL: base() } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: <path>: must not contain control characters (tab, line breaks, …)");
    expect(suite.server.requests).toEqual([]);
  });

  it.each(["/%2e%2e/%2e%2e/admin", "/backends/%2E./%2e%2E/%2e./admin", "/x/../../admin"])(
    "refuses %s, which leaves the base path",
    async (path) => {
      const r = await suite.run(["api", "GET", path], { env: { EDGECTL_BASE_URL: base() } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^error: <path>: /);
      expect(suite.server.requests).toEqual([]);
    },
  );
});

describe("apiUrl", () => {
  it("checks the URL as parsed: tab-split dot segments that escape the base path are refused", () => {
    expect(() => apiUrl("http://127.0.0.1:1/api/v2", "/.\t./.\t./admin")).toThrow(
      new UsageError(
        "<path>: leads to http://127.0.0.1:1/admin, which is not below the base URL http://127.0.0.1:1/api/v2; not sending the key there",
      ),
    );
  });

  it("allows the base path itself and anything below it, and a base at the root", () => {
    expect(apiUrl("http://127.0.0.1:1/api/v2", "/backends/failover?limit=5").href).toBe(
      "http://127.0.0.1:1/api/v2/backends/failover?limit=5",
    );
    expect(apiUrl("http://127.0.0.1:1", "/backends").href).toBe("http://127.0.0.1:1/backends");
    expect(() => apiUrl("http://127.0.0.1:1/api/v2", "/../v2x/admin")).toThrow(UsageError);
  });
});

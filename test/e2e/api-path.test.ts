// `edgectl api` keeps the key below the base path, whatever the bytes (issue 9 item 3):
// control characters are refused, and the URL is checked as finally parsed.
// Here the real bin runs one case of each kind; the rest run in-process in app/api-path.test.ts.
import { describe, expect, it } from "vitest";
import { json } from "../helpers/fault-server.js";
import { useFaultServer } from "./support.js";

const KEY = "key_api_path_Lk98Jh76";
const suite = useFaultServer(KEY);
const base = () => `${suite.server.url}/api/v2`;

describe("edgectl api with a base URL below a path", () => {
  it("sends a path below the base path, with an encoded tab in the query", async () => {
    suite.server.fallback = () => json(200, { ok: true });
    const r = await suite.run(["api", "GET", "/backends/failover?q=a%09b"], { env: { EDGECTL_BASE_URL: base() } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(suite.server.requests.map((q) => q.path)).toEqual(["/api/v2/backends/failover?q=a%09b"]);
  });
});

// `edgectl api`: (a) the command line → options or refusal; (b) the whole CLI in-process
// (test/helpers/app.ts) against a fault server and the emulator: it keeps the key below the
// base path, whatever the bytes (issue 9 item 3: control characters are refused, the URL is
// checked as finally parsed), and hands on the emulator's answers (a policy it refuses: 400
// and the code of the problem).

import { describe, expect, it } from "vitest";
import { api, apiUrl } from "../../../src/commands/api/api.js";
import { parse, refusal } from "../parse.js";
import { UsageError } from "../../../src/errors.js";
import { appSandbox } from "../../helpers/app.js";
import { useFaultServer } from "../../e2e/support.js";
import { json } from "../../helpers/fault-server.js";
import { useEmulator } from "../../e2e/leaving-edges.support.js";

describe("api argv → options", () => {
  it("upper-cases the method and roots the path", async () => {
    expect((await parse(api, ["patch", "backends/failover/bkdfo_1", "--input", "-"])).options).toEqual({
      method: "PATCH",
      path: "/backends/failover/bkdfo_1",
      input: "-",
      dryRun: false,
      showSecret: false,
    });
  });

  it.each([
    [["FETCH", "/x"], '<method>: "FETCH" must be one of GET, POST, PUT, PATCH, DELETE'],
    [
      ["GET", "https://evil.test/x?key=1"],
      "<path>: give a path below the base URL (like /backends/failover), not a URL",
    ],
    [["GET", "/a/%2E%2E/b"], "<path>: must not contain . or .. segments"],
    [["GET", "/a\tb"], "<path>: must not contain control characters (tab, line breaks, …)"],
    [["GET", "/x", "--input", "body.json"], "--input: GET requests carry no body"],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(api, argv)).message).toBe(message);
  });
});

// `edgectl api` keeps the key below the base path, whatever the bytes (issue 9 item 3):
// control characters are refused, and the URL is checked as finally parsed.
// Run in-process (test/helpers/app.ts); one case of each kind runs the real bin in
// e2e/api-path.test.ts.
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

describe("edgectl api with a base URL below a path: what it sends", () => {
  it("sends a path below the base path, with an encoded tab in the query", async () => {
    suite.server.fallback = () => json(200, { ok: true });
    const r = await suite.run(["api", "GET", "/backends/failover?q=a%09b"], { env: { EDGECTL_BASE_URL: base() } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(suite.server.requests.map((q) => q.path)).toEqual(["/api/v2/backends/failover?q=a%09b"]);
  });
});

describe("the emulator refuses a policy with 400 and the code of its problem (api POST /endpoints)", () => {
  /** A request-phase rule holding `actions`, then a last rule that ends every other request. */
  const R = (actions: object[]) => ({ on_http_request: [{ actions }, { actions: [{ type: "deny" }] }] });
  const emu = useEmulator(undefined, appSandbox);
  const DENY = { actions: [{ type: "deny" }] };
  it.each([
    ["not parsed", "https://a.example.com", "on_http_request: [", "ERR_NGROK_2201"],
    [
      "an action not allowed in the phase",
      "https://a.example.com",
      { on_http_request: [DENY], on_http_response: [{ actions: [{ type: "deny" }] }] },
      "ERR_NGROK_2202",
    ],
    [
      "an unreachable action",
      "https://a.example.com",
      { on_http_request: [{ actions: [{ type: "deny" }, { type: "log" }] }] },
      "ERR_NGROK_2207",
    ],
    [
      "a phase not allowed for the protocol",
      "tcp://1.tcp.ngrok.io:20000",
      { on_http_request: [DENY] },
      "ERR_NGROK_2230",
    ],
    [
      "not guaranteed to handle traffic",
      "https://a.example.com",
      { on_http_request: [{ expressions: ["true"], actions: [{ type: "deny" }] }] },
      "ERR_NGROK_2235",
    ],
    [
      "a config problem (with its place)",
      "https://a.example.com",
      R([{ type: "custom-response", config: { status_code: 600 } }]),
      "ERR_NGROK_2201",
    ],
  ])("%s: %s", async (_what, url, doc, code) => {
    const body = { type: "cloud", url, traffic_policy: typeof doc === "string" ? doc : JSON.stringify(doc) };
    const r = await emu.run(["api", "POST", "/endpoints", "--input", "-"], JSON.stringify(body));
    expect(r.exitCode).toBe(1);
    const answer = JSON.parse(r.stdout) as { error_code: string; status_code: number; msg: string };
    expect(answer).toMatchObject({ error_code: code, status_code: 400 });
    if (code === "ERR_NGROK_2201" && typeof doc !== "string")
      expect(answer.msg).toContain("on_http_request[0].actions[0].config.status_code");
    expect(await emu.endpoints()).toEqual([]);
  });
});

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
import { useFaultServer, FB, failoverAt, parseJsonError, runCli, type Failover } from "../../e2e/support.js";
import { json, apiError } from "../../helpers/fault-server.js";
import { useEmulator } from "../../e2e/leaving-edges.support.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { useStandIns } from "../../helpers/stand-ins.js";

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
      { on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] },
      "ERR_NGROK_2235",
    ],
    [
      "a CEL problem (issue 27)",
      "https://a.example.com",
      { on_http_request: [{ expressions: ["req.methd == 'GET'"], actions: [{ type: "deny" }] }, DENY] },
      "ERR_NGROK_2200",
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

describe("against the emulator and a fault server (in-process)", () => {
  const KEY = "key_more_commands_0123456789";

  const { cli, server, scratch, run, runF, ok, route } = useStandIns(KEY);

  describe("edgectl api against the emulator", () => {
    it("POST --input FILE, GET, PATCH --input -, DELETE: the whole life of a resource", async () => {
      const file = join(scratch, "create.json");
      writeFileSync(file, JSON.stringify({ backends: ["bkdhr_raw1", "bkdtg_raw2"], description: "via api" }));
      const c = ok(await run(["api", "POST", "/backends/failover", "--input", file]));
      const made = JSON.parse(c.stdout) as Failover;
      expect(made).toMatchObject({ description: "via api", backends: ["bkdhr_raw1", "bkdtg_raw2"] });
      expect(c.stdout).toBe(JSON.stringify(made, null, 2)); // pretty, two spaces
      expect(c.stderr).toBe("");

      const g = ok(await run(["api", "get", `/backends/failover/${made.id}`]));
      expect(JSON.parse(g.stdout)).toEqual(made);

      const p = ok(
        await run(["api", "PATCH", `/backends/failover/${made.id}`, "--input", "-"], {
          input: '{"metadata":"raw=1"}\n',
        }),
      );
      expect(JSON.parse(p.stdout)).toEqual({ ...made, metadata: "raw=1" });

      const d = ok(await run(["api", "DELETE", `/backends/failover/${made.id}`]));
      expect(d.stdout).toBe(""); // 204: no body to print
      expect(d.stderr).toBe("");

      const gone = await run(["api", "GET", `/backends/failover/${made.id}`]);
      expect(gone.exitCode).toBe(1);
      expect(JSON.parse(gone.stdout)).toMatchObject({ status_code: 404 });
      expect(gone.stderr).toMatch(/^error: .*404/);
    });

    it("PUT of a webhook module through api: the answer's secret is masked on stdout", async () => {
      const [edge, rt] = await route();
      const r = ok(
        await run(["api", "PUT", `/edges/https/${edge}/routes/${rt}/webhook_verification`, "--input", "-"], {
          input: '{"enabled":true,"provider":"github","secret":"whsec_api_put_99"}',
        }),
      );
      expect(JSON.parse(r.stdout)).toEqual({ enabled: true, provider: "github", secret: "********" });
      expect(r.stdout + r.stderr).not.toContain("whsec_api_put_99");
    });

    it("an API validation error: the error body on stdout, `error:` with status and code on stderr, exit 1", async () => {
      const r = await run(["api", "POST", "/backends/failover", "--input", "-"], { input: '{"backends":["nope"]}' });
      expect(r.exitCode).toBe(1);
      const body = JSON.parse(r.stdout) as { status_code: number; error_code: string; msg: string };
      expect(body.status_code).toBe(400);
      expect(body.error_code).toMatch(/^ERR_NGROK_\d+$/);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).toContain("400");
      expect(r.stderr).toContain(body.error_code);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);

      const j = await run(["api", "POST", "/backends/failover", "--input", "-", "-o", "json"], {
        input: '{"backends":["nope"]}',
      });
      expect(j.exitCode).toBe(1);
      expect(JSON.parse(j.stdout)).toMatchObject({ status_code: 400, error_code: body.error_code });
      expect(parseJsonError(j.stderr).error).toMatchObject({
        kind: "api",
        status_code: 400,
        error_code: body.error_code,
      });
    });
  });
  describe("edgectl api: exit codes and retries (fault server)", () => {
    it("401: the error body on stdout, `error:` on stderr, exit 4", async () => {
      server.script(apiError(401, "The API key is invalid", "ERR_NGROK_205"));
      const r = await runF(["api", "GET", "/backends/failover"]);
      expect(r.exitCode).toBe(4);
      expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 401, error_code: "ERR_NGROK_205" });
      expect(r.stderr).toMatch(/^error: .*401/);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    });

    it("403 is exit 4 too; 500 is exit 1", async () => {
      server.script(apiError(403, "forbidden", "ERR_NGROK_218"), apiError(500, "boom", "ERR_NGROK_500"));
      const a = await runF(["api", "GET", "/backends/failover"]);
      const b = await runF(["api", "DELETE", "/backends/failover/bkdfo_abc", "--retries", "0"]);
      expect([a.exitCode, b.exitCode]).toEqual([4, 1]);
      expect(JSON.parse(b.stdout)).toMatchObject({ status_code: 500 });
    });

    it("GET is retried on 503 like every other command; only the final answer is printed", async () => {
      server.script(
        apiError(503, "busy"),
        { ...apiError(503, "busy"), headers: { "Retry-After": "0" } },
        json(200, { backends: [FB], uri: "u", next_page_uri: null }),
      );
      const r = await runF(["api", "GET", "/backends/failover", "--retries", "2"]);
      expect(r.exitCode).toBe(0);
      expect(server.requests.map((q) => q.method)).toEqual(["GET", "GET", "GET"]);
      expect(JSON.parse(r.stdout)).toEqual({ backends: [FB], uri: "u", next_page_uri: null });
    });

    it("DELETE and PUT are retried on 503 too", async () => {
      server.script(
        apiError(503, "busy"),
        { status: 204 },
        apiError(503, "busy"),
        json(200, { enabled: true, provider: "sns" }),
      );
      const d = await runF(["api", "DELETE", "/backends/failover/bkdfo_abc"]);
      const p = await runF(
        ["api", "PUT", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification", "--input", "-"],
        { input: '{"enabled":true,"provider":"sns"}' },
      );
      expect([d.exitCode, p.exitCode]).toEqual([0, 0]);
      expect(server.requests.map((q) => q.method)).toEqual(["DELETE", "DELETE", "PUT", "PUT"]);
    });

    it.each(["POST", "PATCH"])(
      "%s is not retried on 503: one request, the error body on stdout, exit 1",
      async (method) => {
        server.script(apiError(503, "busy", "ERR_NGROK_503"));
        server.fallback = () => json(201, FB); // what a repeat would have got
        const r = await runF(
          ["api", method, method === "POST" ? "/backends/failover" : "/backends/failover/bkdfo_abc", "--input", "-"],
          { input: '{"description":"x"}' },
        );
        expect(r.exitCode).toBe(1);
        expect(server.requests).toHaveLength(1);
        expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 503 });
        expect(r.stderr).toMatch(/^error: /);
      },
    );

    it("POST --input FILE sends the file's JSON with the contract's headers", async () => {
      const file = join(scratch, "post.json");
      writeFileSync(file, '{\n  "backends": ["bkdhr_a"],\n  "metadata": "ünï"\n}\n');
      server.script(json(201, FB));
      const r = await runF(["api", "post", "backends/failover", "--input", file]);
      expect(r.exitCode).toBe(0);
      const req = server.requests[0]!;
      expect([req.method, req.path]).toEqual(["POST", "/backends/failover"]);
      expect(JSON.parse(req.body)).toEqual({ backends: ["bkdhr_a"], metadata: "ünï" });
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers["content-length"]).toBe(String(Buffer.byteLength(req.body)));
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.headers["ngrok-version"]).toBe("2");
    });
  });
  describe("--dry-run on edgectl api", () => {
    it.each([
      [
        "POST",
        "/backends/failover",
        '{"backends":["bkdhr_a"]}',
        `POST {url}/backends/failover\n{\n  "backends": [\n    "bkdhr_a"\n  ]\n}`,
      ],
      [
        "PATCH",
        "/backends/failover/bkdfo_abc",
        '{"description":"eu"}',
        `PATCH {url}/backends/failover/bkdfo_abc\n{\n  "description": "eu"\n}`,
      ],
      [
        "PUT",
        "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification",
        '{"enabled":true,"provider":"github","secret":"whsec_dry_777"}',
        `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": true,\n  "provider": "github",\n  "secret": "********"\n}`,
      ],
      ["DELETE", "/backends/failover/bkdfo_abc", undefined, "DELETE {url}/backends/failover/bkdfo_abc"],
    ])(
      "api %s --dry-run prints the request (secrets masked) and sends nothing",
      async (method, path, body, expected) => {
        const r = await runF(
          ["api", method, path, ...(body === undefined ? [] : ["--input", "-"]), "--dry-run"],
          body === undefined ? {} : { input: body },
        );
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe(expected.replace("{url}", server.url));
        expect(r.stderr).toBe("");
        expect(r.stdout).not.toContain("whsec_dry_777");
        expect(server.requests).toEqual([]);
      },
    );

    it("api POST --dry-run -o json is one JSON document", async () => {
      const r = await runF(["api", "POST", "/backends/failover", "--input", "-", "--dry-run", "-o", "json"], {
        input: '{"backends":["bkdhr_a"]}',
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        dry_run: true,
        request: { method: "POST", url: `${server.url}/backends/failover`, body: { backends: ["bkdhr_a"] } },
      });
      expect(server.requests).toEqual([]);
    });

    it.each([
      [
        "a body that is not JSON",
        ["api", "POST", "/backends/failover", "--input", "-", "--dry-run"],
        "{nope",
        /--input/,
      ],
      ["an unknown method", ["api", "FETCH", "/backends/failover", "--dry-run"], undefined, /<method>/],
      [
        "a body on DELETE",
        ["api", "DELETE", "/backends/failover/bkdfo_abc", "--input", "-", "--dry-run"],
        "{}",
        /--input/,
      ],
    ])("api --dry-run with %s is still exit 2", async (_name, args, input, message) => {
      const r = await runF(args, input === undefined ? {} : { input });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(server.requests).toEqual([]);
    });

    it("every command that changes something offers --dry-run", async () => {
      const changing = [
        ["failover", "create"],
        ["failover", "update"],
        ["failover", "delete"],
        ["webhook-verification", "replace"],
        ["webhook-verification", "delete"],
        ["api"],
      ];
      for (const command of changing) {
        const r = await runCli(cli, [...command, "--help"]);
        expect(r.stdout, command.join(" ")).toMatch(/^\s+--dry-run\b/m);
      }
    });
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

  describe("edgectl api", () => {
    it("sends the --input - body as JSON", async () => {
      ctx.server.script(json(200, FB));
      const r = await run(["api", "PATCH", "/backends/failover/bkdfo_abc", "--input", "-"], {
        env: env(),
        input: '{ "description": "eu" }',
      });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"description":"eu"}');
      expectContractHeaders(ctx.server.requests[0]!, true);
    });

    it("prints the API's error body on stdout (like gh api) and exits 1", async () => {
      ctx.server.script(apiError(404, "not found", "ERR_NGROK_404"));
      const r = await run(["api", "GET", "/backends/failover/bkdfo_nope"], { env: env() });
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 404, msg: "not found" });
      expect(r.stderr).toMatch(/^error: /);
    });
  });
});

describe("what scripts run into (in-process, fault server)", () => {
  const KEY = "key_script_edges_7777";
  const suite = useFaultServer(KEY, appSandbox);
  const { run } = suite;
  const resource = (id: string) => failoverAt(suite.server.url, id);

  describe("edgectl api: paths that would leave the base URL's prefix", () => {
    it.each([
      ["/%2e%2e/%2e%2e/admin"],
      ["/%2E%2E/admin"],
      ["/..\\..\\admin"],
      ["/a/%5c../admin"],
      ["/a/..%2fadmin"],
      [""],
    ])("%j: exit 2, nothing sent", async (path) => {
      const r = await run(["api", "GET", path], { env: { EDGECTL_BASE_URL: `${suite.server.url}/api/v2` } });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: <path>: /);
      expect(suite.server.requests).toEqual([]);
    });

    it("a dot inside a name is fine", async () => {
      suite.server.fallback = () => json(200, { ok: true });
      const r = await run(["api", "GET", "/backends/failover/bkdfo_a.b"]);
      expect(r.exitCode).toBe(0);
      expect(suite.server.requests[0]!.path).toBe("/backends/failover/bkdfo_a.b");
    });
  });
  describe("edgectl api --input", () => {
    it("a body that is not JSON is refused without quoting it (it may hold a secret)", async () => {
      const r = await run(
        ["api", "PUT", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification", "--input", "-"],
        {
          input: '{"secret":SuperSecretValue99}',
        },
      );
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^error: --input: not valid JSON/);
      expect(r.stderr).not.toMatch(/SuperSecre/);
      expect(suite.server.requests).toEqual([]);
    });

    it("a file that starts with a byte-order mark is read as JSON", async () => {
      const file = join(suite.cli.configDir, "body.json");
      writeFileSync(file, '\ufeff{"backends":["bkdhr_a"]}');
      suite.server.fallback = () => json(201, resource("bkdfo_bom"));
      const r = await run(["api", "POST", "/backends/failover", "--input", file]);
      expect(r.exitCode).toBe(0);
      expect(suite.server.requests[0]!.body).toBe('{"backends":["bkdhr_a"]}');
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

  it("sends a raw authenticated request and prints the JSON body", async () => {
    ctx.server.script(json(200, { backends: [], uri: "u", next_page_uri: null }));
    const r = await run(["api", "get", "/backends/failover?limit=5"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ backends: [], uri: "u", next_page_uri: null });
    expect(ctx.server.requests[0]!.method).toBe("GET");
    expect(ctx.server.requests[0]!.path).toBe("/backends/failover?limit=5");
    expectContractHeaders(ctx.server.requests[0]!, false);
  });
});

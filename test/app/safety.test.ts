// Things that must never leave the machine or reach any output: --dry-run sends nothing,
// plain http goes only to loopback, and --debug never shows the key or a webhook secret.
// Run in-process (test/helpers/app.ts).
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import type { RunOptions } from "../helpers/cli.js";
import { apiError, json } from "../helpers/fault-server.js";
import { FB } from "../e2e/support.js";
import { useSafetySuite } from "../e2e/safety.support.js";

const ctx = useSafetySuite(appSandbox);
const { KEY, SECRET, run } = ctx;

describe("--dry-run prints the request and sends nothing", () => {
  const wv = ["webhook-verification"];
  const cases: [string, string[], RunOptions, string][] = [
    [
      "failover create",
      ["failover", "create", "--backends", "bkdhr_a,bkdtg_b", "--backends", "bkdwd_c", "--description", "eu"],
      {},
      `POST ${"{url}"}/backends/failover\n{\n  "backends": [\n    "bkdhr_a",\n    "bkdtg_b",\n    "bkdwd_c"\n  ],\n  "description": "eu"\n}`,
    ],
    [
      "failover update",
      ["failover", "update", "bkdfo_abc", "--metadata", "m"],
      {},
      `PATCH {url}/backends/failover/bkdfo_abc\n{\n  "metadata": "m"\n}`,
    ],
    [
      "failover delete (no --yes needed)",
      ["failover", "delete", "bkdfo_abc"],
      {},
      "DELETE {url}/backends/failover/bkdfo_abc",
    ],
    [
      "failover delete of several ids",
      ["failover", "delete", "bkdfo_a", "bkdfo_b", "--yes"],
      {},
      "DELETE {url}/backends/failover/bkdfo_a\nDELETE {url}/backends/failover/bkdfo_b",
    ],
    [
      "webhook-verification replace with --secret",
      [...wv, "replace", "edghts_1", "edghtsrt_1", "--provider", "GitHub", "--secret", SECRET],
      {},
      `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": true,\n  "provider": "github",\n  "secret": "********"\n}`,
    ],
    [
      "webhook-verification replace with --secret-stdin",
      [...wv, "replace", "edghts_1", "edghtsrt_1", "--provider", "stripe", "--secret-stdin", "--disabled"],
      { input: `${SECRET}\n` },
      `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": false,\n  "provider": "stripe",\n  "secret": "********"\n}`,
    ],
    [
      "webhook-verification replace with EDGECTL_WEBHOOK_SECRET",
      [...wv, "replace", "edghts_1", "edghtsrt_1", "--provider", "slack"],
      { env: { EDGECTL_WEBHOOK_SECRET: SECRET } },
      `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": true,\n  "provider": "slack",\n  "secret": "********"\n}`,
    ],
    [
      "webhook-verification replace for sns",
      [...wv, "replace", "edghts_1", "edghtsrt_1", "--provider", "sns"],
      {},
      `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": true,\n  "provider": "sns"\n}`,
    ],
    [
      "webhook-verification delete",
      [...wv, "delete", "edghts_1", "edghtsrt_1"],
      {},
      "DELETE {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification",
    ],
  ];

  it.each(cases)("%s", async (_name, args, opts, expected) => {
    const r = await run([...args, "--dry-run"], opts);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(expected.replaceAll("{url}", ctx.server.url));
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("invalid input with --dry-run is still exit 2", async () => {
    const r = await run(["failover", "create", "--backends", "bkdhr_a,nope", "--dry-run"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("plain http only to loopback", () => {
  it.each([
    ["http://example.com", "example.com"],
    ["http://localhost.example.com", "localhost.example.com"],
    ["http://127.0.0.1.nip.io", "127.0.0.1.nip.io"],
    ["http://192.0.2.10:8080", "192.0.2.10"],
  ])("--base-url %s: exit 2 before anything is sent", async (url, host) => {
    const r = await run(["failover", "get", "bkdfo_abc", "--base-url", url]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: --base-url: /);
    expect(r.stderr).toContain(host);
    expect(r.stderr).not.toContain(KEY);
  });

  it("EDGECTL_BASE_URL with plain http to a remote host is refused too, naming the variable", async () => {
    const r = await run(["failover", "list"], { env: { EDGECTL_BASE_URL: "http://example.com/v2" } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("EDGECTL_BASE_URL");
  });

  it("even --dry-run refuses such a base URL", async () => {
    const r = await run(["failover", "delete", "bkdfo_abc", "--dry-run", "--base-url", "http://example.com"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
  });

  it.each(["localhost", "127.0.0.1", "127.1"])("http://%s is a loopback host and is used", async (host) => {
    ctx.server.script(json(200, FB));
    const port = new URL(ctx.server.url).port;
    const r = await run(["failover", "get", "bkdfo_abc", "-o", "json", "--base-url", `http://${host}:${port}`]);
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests).toHaveLength(1);
  });
});

describe("--debug logs requests on stderr without the key or secrets", () => {
  it("EDGECTL_DEBUG=1 does the same", async () => {
    ctx.server.script(json(201, FB));
    const r = await run(["failover", "create", "--backends", "bkdhr_a"], { env: { EDGECTL_DEBUG: "1" } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`POST ${ctx.server.url}/backends/failover`);
    expect(r.stderr).toContain('"backends":["bkdhr_a"]');
    expect(r.stderr).not.toContain(KEY);
  });

  it("without --debug nothing is logged", async () => {
    ctx.server.script(json(200, FB));
    const r = await run(["failover", "get", "bkdfo_abc"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
  });

  it("an error message that quotes the key or the secret is redacted, with and without --debug", async () => {
    for (const debug of [[], ["--debug"]]) {
      ctx.server.script(apiError(400, `rejected secret ${SECRET} for key ${KEY}`, "ERR_NGROK_215"));
      const r = await run([
        "webhook-verification",
        "replace",
        "edghts_1",
        "edghtsrt_1",
        "--provider",
        "github",
        "--secret",
        SECRET,
        ...debug,
      ]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: rejected secret/m);
      expect(r.stderr).not.toContain(SECRET);
      expect(r.stderr).not.toContain(KEY);
    }
  });

  it("a refused connection with --debug shows no key either", async () => {
    const r = await run([
      "failover",
      "get",
      "bkdfo_abc",
      "--debug",
      "--retries",
      "0",
      "--base-url",
      "http://127.0.0.1:1",
    ]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("GET http://127.0.0.1:1/backends/failover/bkdfo_abc");
    expect(r.stderr).not.toContain(KEY);
  });
});

describe("the cases that ran the real bin, in-process", () => {
  const ctx = useSafetySuite(appSandbox);
  const { KEY, SECRET, run } = ctx;

  describe("--dry-run prints the request and sends nothing", () => {
    it("with -o json the dry run is one JSON document (secret redacted), path prefix kept", async () => {
      const r = await run(
        [
          "webhook-verification",
          "replace",
          "edghts_1",
          "edghtsrt_1",
          "--provider",
          "github",
          "--secret",
          SECRET,
          "--dry-run",
          "-o",
          "json",
        ],
        {
          env: { EDGECTL_BASE_URL: `${ctx.server.url}/prefix` },
        },
      );
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        dry_run: true,
        request: {
          method: "PUT",
          url: `${ctx.server.url}/prefix/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification`,
          body: { enabled: true, provider: "github", secret: "********" },
        },
      });
      expect(ctx.server.requests).toHaveLength(0);
    });
  });

  describe("plain http only to loopback", () => {
    it("0.0.0.0 (which reaches this machine's loopback listeners) is refused: the server receives nothing", async () => {
      const port = new URL(ctx.server.url).port;
      const r = await run(["failover", "delete", "bkdfo_abc", "--yes", "--base-url", `http://0.0.0.0:${port}`]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(ctx.server.requests).toHaveLength(0);
    });
  });

  describe("--debug logs requests on stderr without the key or secrets", () => {
    it("shows the request line and the response status; stdout stays the result alone", async () => {
      ctx.server.script(json(200, FB));
      const r = await run(["failover", "get", "bkdfo_abc", "-o", "json", "--debug"]);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(FB);
      expect(r.stderr).toContain(`GET ${ctx.server.url}/backends/failover/bkdfo_abc`);
      expect(r.stderr).toContain("200");
      expect(r.stderr).toContain("Bearer ********");
      expect(r.stderr).not.toContain(KEY);
    });

    it("replace: neither the request body nor a response echoing the secret shows it", async () => {
      ctx.server.script(json(200, { enabled: true, provider: "github", secret: SECRET }));
      const r = await run(
        [
          "webhook-verification",
          "replace",
          "edghts_1",
          "edghtsrt_1",
          "--provider",
          "github",
          "--secret-stdin",
          "--debug",
        ],
        {
          input: SECRET,
        },
      );
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toContain(SECRET); // it was really sent…
      expect(r.stderr).toContain(`PUT ${ctx.server.url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification`);
      expect(r.stderr).not.toContain(SECRET); // …but never shown
      expect(r.stderr).not.toContain(KEY);
      expect(r.stdout).not.toContain(SECRET);
    });
  });
});

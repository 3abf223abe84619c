import { describe, expect, it } from "vitest";
import { run as createRun } from "../../src/commands/failover/create.js";
import { run as deleteRun } from "../../src/commands/failover/delete.js";
import { run as updateRun } from "../../src/commands/failover/update.js";
import { printDryRun, printDryRuns } from "../../src/commands/dry-run.js";
import { fakeDeps } from "./fake-deps.js";

describe("failover create --dry-run", () => {
  it("prints the POST with only the fields given and sends nothing", async () => {
    const deps = fakeDeps();
    await createRun({ backends: ["bkdhr_a", "bkdtg_b"], description: "eu", dryRun: true }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toBe(
      `POST https://api.example.test/backends/failover\n{\n  "backends": [\n    "bkdhr_a",\n    "bkdtg_b"\n  ],\n  "description": "eu"\n}\n`,
    );
    expect(deps.err.text).toBe("");
  });

  it("prints one JSON document with -o json", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await createRun({ backends: ["bkdhr_a"], metadata: "{}", dryRun: true }, deps);
    expect(JSON.parse(deps.out.text)).toEqual({
      dry_run: true,
      request: {
        method: "POST",
        url: "https://api.example.test/backends/failover",
        body: { backends: ["bkdhr_a"], metadata: "{}" },
      },
    });
  });
});

describe("failover update --dry-run", () => {
  it("prints the PATCH with only the fields given, an empty description included", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await updateRun({ id: "bkdfo_1", description: "", dryRun: true }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(JSON.parse(deps.out.text).request).toEqual({
      method: "PATCH",
      url: "https://api.example.test/backends/failover/bkdfo_1",
      body: { description: "" },
    });
  });
});

describe("failover delete --dry-run", () => {
  it("prints one DELETE per id, in order, without asking or sending", async () => {
    const deps = fakeDeps();
    await deleteRun({ ids: ["bkdfo_1", "bkdfo_2"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toBe(
      "DELETE https://api.example.test/backends/failover/bkdfo_1\nDELETE https://api.example.test/backends/failover/bkdfo_2\n",
    );
  });

  it("with several ids and -o json prints ONE JSON array of the requests, in order", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1", "bkdfo_2"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" } },
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_2" } },
    ]);
  });

  it("with one id from stdin (a list) and -o json prints an array of one", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1"], many: true, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" } },
    ]);
  });

  it("with a single id argument and -o json keeps printing one object", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await deleteRun({ ids: ["bkdfo_1"], many: false, yes: false, dryRun: true, concurrency: 8 }, deps);
    expect(JSON.parse(deps.out.text)).toEqual({
      dry_run: true,
      request: { method: "DELETE", url: "https://api.example.test/backends/failover/bkdfo_1" },
    });
  });
});

describe("printDryRun", () => {
  it("keeps the base URL's path prefix and masks secrets by structure, no other value", async () => {
    const deps = fakeDeps({ settings: { baseUrl: "https://gw.example.com/ngrok" } });
    await printDryRun(deps, "PUT", "/x", { provider: "github", note: "github inside", secret: "github" });
    expect(deps.out.text).toContain("PUT https://gw.example.com/ngrok/x\n");
    expect(JSON.parse(deps.out.text.slice(deps.out.text.indexOf("{")))).toEqual({
      provider: "github",
      note: "github inside",
      secret: "********",
    });
  });

  it("masks the secrets inside a traffic_policy text where they stand", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    const policy = JSON.stringify({
      on_http_request: [
        {
          actions: [
            { type: "verify-webhook", config: { provider: "github", secret: "internal" } },
            { type: "forward-internal", config: { url: "https://service-app.internal" } },
          ],
        },
      ],
    });
    await printDryRun(deps, "POST", "/endpoints", { type: "cloud", url: "https://a.internal", traffic_policy: policy });
    const body = JSON.parse(deps.out.text).request.body;
    expect(body.url).toBe("https://a.internal");
    expect(body.traffic_policy).toBe(policy.replace('"secret":"internal"', '"secret":"********"'));
  });
});

describe("printDryRuns", () => {
  it("text: each request as printDryRun would print it, one after another", async () => {
    const deps = fakeDeps();
    await printDryRuns(deps, [
      { method: "DELETE", path: "/a" },
      { method: "PATCH", path: "/b", body: { description: "x" } },
    ]);
    expect(deps.out.text).toBe(
      `DELETE https://api.example.test/a\nPATCH https://api.example.test/b\n{\n  "description": "x"\n}\n`,
    );
  });

  it("json: one array document, secrets masked, in a single write", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    let writes = 0;
    const write = deps.out.write.bind(deps.out);
    deps.out.write = (chunk: string) => {
      writes++;
      return write(chunk);
    };
    await printDryRuns(deps, [
      { method: "PUT", path: "/x", body: { secret: "s3cr3t-value" } },
      { method: "DELETE", path: "/y" },
    ]);
    expect(writes).toBe(1);
    expect(deps.out.text).not.toContain("s3cr3t-value");
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "PUT", url: "https://api.example.test/x", body: { secret: "********" } } },
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/y" } },
    ]);
  });
});

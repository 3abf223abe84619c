// Data on stdout is never altered (issue 9 item 5): with the key `anything` (the README's
// example), a description "anything goes" prints as the API sent it, in every format and
// from `edgectl api`; redaction is for logs, messages and --debug. The CLI and the emulator
// in-process (test/helpers/app.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { call, startInProcessEmulator } from "../helpers/emulator.js";
import { runCli } from "../e2e/support.js";

const KEY = "anything";
let emulator: Awaited<ReturnType<typeof startInProcessEmulator>>;
let cli: AppSandbox;
let id: string;
const run = (args: string[]) => runCli(cli, args, { env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emulator.url } });

beforeAll(async () => {
  emulator = await startInProcessEmulator();
  cli = appSandbox();
  const created = await call(emulator.url, "POST", "/backends/failover", {
    body: { description: "anything goes", metadata: "anything", backends: ["bkdhr_a"] },
  });
  id = created.json.id as string;
});
afterAll(async () => {
  await emulator.stop();
  cli.cleanup();
});

describe("with the API key `anything`", () => {
  it("`failover get -o json` prints the description as sent", async () => {
    const r = await run(["failover", "get", id, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, description: "anything goes", metadata: "anything" });
  });

  it("`failover list` and the table print it as sent", async () => {
    const list = await run(["failover", "list", "-o", "json"]);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ description: "anything goes" })]);
    const table = await run(["failover", "get", id]);
    expect(table.stdout).toContain("anything goes");
    expect(table.stdout).not.toContain("********");
  });

  it("`api GET` prints the body as sent", async () => {
    const r = await run(["api", "GET", `/backends/failover/${id}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ description: "anything goes", metadata: "anything" });
    expect(r.stdout).not.toContain("********");
  });

  it("still keeps the key out of --debug logs", async () => {
    const r = await run(["failover", "get", id, "--debug"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("Bearer ********");
    expect(r.stderr).not.toMatch(/Bearer anything/);
  });

  it("`api GET /endpoints` masks the webhook secrets inside Traffic Policies, JSON or YAML", async () => {
    const json = JSON.stringify({
      on_http_request: [
        {
          actions: [
            { type: "verify-webhook", config: { provider: "github", secret: "whsec_json_1" } },
            { type: "custom-response", config: { status_code: 200 } },
          ],
        },
      ],
    });
    const yaml =
      "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config:\n          provider: stripe\n          secret: whsec_yaml_2\n      - type: custom-response\n        config:\n          status_code: 200\n";
    await call(emulator.url, "POST", "/endpoints", {
      body: { type: "cloud", url: "https://a.example.com", traffic_policy: json, description: "anything goes" },
    });
    await call(emulator.url, "POST", "/endpoints", {
      body: { type: "cloud", url: "https://b.example.com", traffic_policy: yaml },
    });
    const r = await run(["api", "GET", "/endpoints"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("whsec_");
    const endpoints = (JSON.parse(r.stdout) as { endpoints: { description: string; traffic_policy: string }[] })
      .endpoints;
    expect(
      endpoints
        .map((e) => e.traffic_policy)
        .join("\n")
        .match(/\*{8}/g),
    ).toHaveLength(2);
    expect(endpoints.map((e) => e.description)).toContain("anything goes");
  });
});

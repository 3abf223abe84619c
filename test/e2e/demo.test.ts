// `npm run demo` is the README's first command for a new user: it must keep working.
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { parse } from "yaml";
import { expect, it } from "vitest";

/** The text a step printed: from its `$ edgectl <step>` line to the next `$ ` line. */
function stepOutput(stdout: string, step: string): string {
  const start = stdout.indexOf(`$ edgectl ${step}`);
  if (start < 0) throw new Error(`no step "${step}" in:\n${stdout}`);
  const body = stdout.slice(stdout.indexOf("\n", start) + 1);
  const end = body.indexOf("\n$ ");
  return end < 0 ? body : body.slice(0, end);
}

it("npm run demo runs failover create → … → delete, then builds an edge, migrates it, applies the plan and lists the endpoint", async () => {
  const script = fileURLToPath(new URL("../../scripts/demo.mjs", import.meta.url));
  const r = await execa("node", [script], { reject: false, stdin: "ignore", timeout: 90_000 });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(r.stdout).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/m);
  const steps = [
    "failover create",
    "failover get",
    "failover list",
    "api POST /edges/https --input -",
    "api POST /edges/https/edghts_",
    "webhook-verification replace edghts_",
    "webhook-verification get",
    "failover delete",
    "api POST /backends/tunnel_group --input -",
    "api POST /backends/http_response --input -",
    "failover create --backends bkdtg_",
    "migrate edge edghts_",
    "api GET /endpoints",
  ];
  let at = -1;
  for (const step of steps) {
    const next = r.stdout.indexOf(`$ edgectl ${step}`, at + 1);
    expect(next, `step "${step}" after the one before`).toBeGreaterThan(at);
    at = next;
  }
  expect(r.stdout).toMatch(/^PROVIDER\s+github$/m);
  expect(r.stdout).toMatch(/^SECRET\s+\*{8}$/m);
  expect(r.stdout).not.toContain("s3cr3t-from-stdin");
  expect(r.stdout).toMatch(/^bkdfo_\w+\s+true$/m);

  // The plan, as YAML after its `# <url>` line: the webhook route first, secret masked; the
  // failover route as a forward-internal chain that falls through to the 503 response.
  const edgeId = /\$ edgectl migrate edge (edghts_\w+)\n/.exec(r.stdout)![1]!;
  const yamlText = stepOutput(r.stdout, `migrate edge ${edgeId}\n`);
  expect(yamlText.split("\n")[0]).toBe(`# https://shop.example.com (edge ${edgeId})`);
  const policy = parse(yamlText) as {
    on_http_request: {
      name: string;
      expressions?: string[];
      actions: { type: string; config: Record<string, unknown> }[];
    }[];
  };
  expect(policy.on_http_request).toHaveLength(2);
  const [hookRule, rootRule] = policy.on_http_request;
  expect(hookRule!.expressions).toEqual(['req.url.path == "/hooks/github"']);
  expect(hookRule!.actions).toEqual([
    { type: "verify-webhook", config: { provider: "github", secret: "********" } },
    { type: "forward-internal", config: { url: "https://dc-eu-service-app.internal" } },
  ]);
  expect(rootRule!.expressions).toBeUndefined();
  expect(rootRule!.actions).toEqual([
    { type: "forward-internal", config: { url: "https://dc-eu-service-app.internal", on_error: "continue" } },
    { type: "forward-internal", config: { url: "https://dc-us-service-app.internal", on_error: "continue" } },
    { type: "custom-response", config: { status_code: 503, body: "down for maintenance" } },
  ]);
  expect(stepOutput(r.stdout, `migrate edge ${edgeId}\n`)).not.toContain("gh-s3cr3t");

  // --apply prints the new endpoint's id and url; the raw listing holds that endpoint and policy.
  const applied = stepOutput(r.stdout, `migrate edge ${edgeId} --apply`);
  const [, endpointId] = /^(ep_\w+)\s+https:\/\/shop\.example\.com\s+edghts_\w+$/m.exec(applied)!;
  expect(applied).not.toContain("gh-s3cr3t");
  const listed = JSON.parse(stepOutput(r.stdout, "api GET /endpoints")) as {
    endpoints: { id: string; url: string; traffic_policy: string }[];
  };
  expect(listed.endpoints.map((e) => [e.id, e.url])).toEqual([[endpointId, "https://shop.example.com"]]);
  // (The secret inside is the API's text; whether `api` masks it is that command's business.)
  expect(JSON.parse(listed.endpoints[0]!.traffic_policy)).toEqual({
    on_http_request: [
      {
        ...hookRule,
        actions: [
          { type: "verify-webhook", config: { provider: "github", secret: expect.any(String) } },
          hookRule!.actions[1],
        ],
      },
      rootRule,
    ],
  });
});

// `npm run demo` is the README's first command for a new user: it must keep working.
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { parse } from "yaml";
import { beforeAll, expect, it } from "vitest";

/** The text a step printed: from its `$ edgectl <step>` line to the next `$ ` line. */
function stepOutput(stdout: string, step: string): string {
  const start = stdout.indexOf(`$ edgectl ${step}`);
  if (start < 0) throw new Error(`no step "${step}" in:\n${stdout}`);
  const body = stdout.slice(stdout.indexOf("\n", start) + 1);
  const end = body.indexOf("\n$ ");
  return end < 0 ? body : body.slice(0, end);
}

type Rule = { name: string; expressions?: string[]; actions: { type: string; config: Record<string, unknown> }[] };

// One demo run, read by every test below (it is a whole session: running it once per test
// would only repeat it).
let r: { exitCode?: number; stdout: string; stderr: string };
beforeAll(async () => {
  const script = fileURLToPath(new URL("../../scripts/demo.mjs", import.meta.url));
  const run = await execa("node", [script], { reject: false, stdin: "ignore", timeout: 90_000 });
  r = { exitCode: run.exitCode, stdout: String(run.stdout), stderr: String(run.stderr) };
}, 100_000);

it("npm run demo runs every step in order and exits 0", () => {
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/m);
  // It says where the emulator listens once (the emulator's own "listening on" line is not repeated).
  expect(`${r.stdout}${r.stderr}`.match(/listening/g)).toHaveLength(1);
  // JSON sent with `--input -` is printed as a heredoc after the command, so the line replays as shown.
  expect(r.stdout).toMatch(
    /^\$ edgectl api POST \/edges\/https --input - <<'EOF'\n\{\n {2}"description": "demo edge",\n[\s\S]*?\n\}\nEOF\n/m,
  );
  const steps = [
    "failover create",
    "failover get",
    "failover list",
    "api POST /edges/https --input -",
    "api POST /edges/https/edghts_",
    "webhook-verification replace edghts_",
    "webhook-verification get",
    "failover delete",
    "api DELETE /edges/https/edghts_",
    "api POST /backends/tunnel_group --input -",
    "api POST /backends/http_response --input -",
    "failover create --backends bkdtg_",
    "migrate edge edghts_",
    "api GET /endpoints",
    "policy check bad.yml",
    "policy check hooks.yml",
    "endpoint create --url https://hooks.example.com --traffic-policy-file hooks.yml",
    "endpoint webhook-verification replace ep_",
    "endpoint get ep_",
    "api POST /edges/https --input -",
    "migrate edge --all --verify\n",
    "migrate edge --all --apply\n",
    "migrate edge --all --apply --allow-partial\n",
    "migrate edge --all --apply --allow-partial\n",
    "endpoint list",
  ];
  let at = -1;
  for (const step of steps) {
    const next = r.stdout.indexOf(`$ edgectl ${step}`, at + 1);
    expect(next, `step "${step}" after the one before`).toBeGreaterThan(at);
    at = next;
  }
  // No secret the session typed or posted is ever printed by edgectl: only the JSON the session
  // itself sends (a heredoc after its `$ edgectl api … --input -` line, there to be replayed) holds one.
  const printed = r.stdout.replace(/ <<'EOF'\n[\s\S]*?\nEOF\n/g, "\n");
  for (const secret of ["s3cr3t-from-stdin", "gh-s3cr3t", "gh-hooks-s3cr3t", "g00gle-s3cr3t"])
    expect(printed).not.toContain(secret);
});

it("the demo's first part: failover, webhook verification on a route, an edge migrated by id and applied", () => {
  expect(r.stdout).toMatch(/^PROVIDER\s+github$/m);
  expect(r.stdout).toMatch(/^SECRET\s+\*{8}$/m);
  expect(r.stdout).toMatch(/^bkdfo_\w+\s+true$/m);

  // The plan, as YAML after its `# <url>` line: the webhook route first, secret masked; the
  // failover route as a forward-internal chain that falls through to the 503 response.
  const edgeId = /\$ edgectl migrate edge (edghts_\w+)\n/.exec(r.stdout)![1]!;
  const yamlText = stepOutput(r.stdout, `migrate edge ${edgeId}\n`);
  expect(yamlText.split("\n")[0]).toBe(`# https://shop.example.com (edge ${edgeId})`);
  const policy = parse(yamlText) as { on_http_request: Rule[] };
  expect(policy.on_http_request).toHaveLength(2);
  const [hookRule, rootRule] = policy.on_http_request;
  expect(hookRule!.expressions).toEqual(['req.url.path == "/hooks/github"']);
  expect(hookRule!.actions).toEqual([
    { type: "verify-webhook", config: { provider: "github", secret: "********" } },
    { type: "forward-internal", config: { url: "https://dc-eu-service-app-a6db399e.internal" } },
  ]);
  expect(rootRule!.expressions).toBeUndefined();
  expect(rootRule!.actions).toEqual([
    { type: "forward-internal", config: { url: "https://dc-eu-service-app-a6db399e.internal", on_error: "continue" } },
    { type: "forward-internal", config: { url: "https://dc-us-service-app-14890f0a.internal", on_error: "continue" } },
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

it("policy check refuses the bad policy with each problem (exit 2) and passes the good one", () => {
  const bad = stepOutput(r.stdout, "policy check bad.yml");
  expect(bad.split("\n").slice(0, 5)).toEqual([
    "on_http_request[0].actions[0].config.secret: is required",
    "on_http_request[0].actions[1].config.headers: at most 10 headers (got 11)",
    // A conditional last rule: a warning (issue 27), on stderr.
    expect.stringMatching(/^warning: on_http_request\[0\]\.expressions: not guaranteed to handle traffic: /),
    "error: bad.yml: the policy has 2 problems (for a public https endpoint)",
    "(exit 2)",
  ]);
  expect(stepOutput(r.stdout, "policy check hooks.yml").trim()).toBe("ok");
});

it("endpoint create, webhook-verification replace and get keep the YAML and its comments, the secret masked", () => {
  const created = JSON.parse(stepOutput(r.stdout, "endpoint create --url https://hooks.example.com")) as {
    id: string;
    url: string;
    traffic_policy: string;
  };
  expect(created.url).toBe("https://hooks.example.com");
  expect(created.traffic_policy).toMatch(/^# GitHub webhooks: verified/);
  const id = created.id;
  const replaced = stepOutput(r.stdout, `endpoint webhook-verification replace ${id} --provider github --secret-stdin`);
  const got = stepOutput(r.stdout, `endpoint get ${id}`);
  for (const shown of [replaced, got]) {
    expect(shown).toMatch(new RegExp(`^ID\\s+${id}$`, "m"));
    const policyText = shown.slice(shown.indexOf("TRAFFIC POLICY\n") + "TRAFFIC POLICY\n".length);
    // The comments stay where they were written, the secret (now the one from stdin) masked.
    expect(policyText).toMatch(/^# GitHub webhooks: verified, then forwarded/);
    expect(policyText).toContain('secret: "********" # set with `edgectl endpoint webhook-verification replace`');
    const policy = parse(policyText) as { on_http_request: Rule[] };
    expect(policy.on_http_request.map((rule) => rule.name)).toEqual(["hooks", "not found"]);
    expect(policy.on_http_request[0]!.actions[0]).toEqual({
      type: "verify-webhook",
      config: { provider: "github", secret: "********" },
    });
  }
  expect(got).not.toContain("change-me");
});

it("migrate edge --all plans OAuth, the IP restriction, response headers and the failover chain; the SAML route denies 503", () => {
  const planned = stepOutput(r.stdout, "migrate edge --all --verify\n");
  // --verify: every generated request through the edges' models and the plans; only the SAML
  // route differs (it fails closed), and nothing is let through or sent elsewhere.
  expect(planned).toMatch(
    /^verify: \d+ request\(s\); [1-9]\d* differ, 0 let through or routed elsewhere what the edge did not$/m,
  );
  const differing = planned.split("\n").filter((l) => /^verify: (?!\d)/.test(l));
  expect(differing.length).toBeGreaterThan(0);
  for (const line of differing)
    expect(line).toMatch(
      /^verify: (refused|other): POST https:\/\/app\.example\.com\/sso.*plan refused 503 \(fails closed/,
    );
  const [first, ...others] = planned.split("\n---\n");
  const [, appEdge] = /^# https:\/\/app\.example\.com \(edge (edghts_\w+)\)\n/.exec(first!)!;
  expect(others.map((doc) => doc.split("\n")[0])).toEqual([expect.stringMatching(/^# https:\/\/shop\.example\.com /)]);
  const policy = parse(first!) as { on_http_request: Rule[]; on_http_response: Rule[] };
  const [sso, main, email, forward] = policy.on_http_request;
  expect(policy.on_http_request).toHaveLength(4);
  // Fail closed: the route that could not be carried over keeps its expressions and denies.
  expect(sso!.expressions).toEqual(['req.url.path.startsWith("/sso")']);
  expect(sso!.actions).toEqual([{ type: "deny", config: { status_code: 503 } }]);
  expect(main!.expressions).toBeUndefined();
  expect(main!.actions).toEqual([
    { type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_office"] } },
    { type: "oauth", config: { provider: "google", client_id: "app-client-id", client_secret: "********" } },
  ]);
  expect(email!.expressions).toEqual(['!(actions.ngrok.oauth.identity.email.endsWith("@example.com"))']);
  expect(email!.actions).toEqual([{ type: "deny", config: { status_code: 403 } }]);
  expect(forward!.actions.map((a) => [a.type, a.config.url ?? a.config.status_code])).toEqual([
    ["forward-internal", "https://dc-eu-service-app-a6db399e.internal"],
    ["forward-internal", "https://dc-us-service-app-14890f0a.internal"],
    ["custom-response", 503],
  ]);
  expect(policy.on_http_response).toEqual([
    {
      name: main!.name,
      expressions: ['!(req.url.path.startsWith("/sso"))'],
      actions: [
        { type: "remove-headers", config: { headers: ["server"] } },
        { type: "add-headers", config: { headers: { "strict-transport-security": "max-age=31536000" } } },
      ],
    },
  ]);
  const samlWarning = new RegExp(`^warning: not migrated: edge ${appEdge} route ${sso!.name}: saml: `, "m");
  expect(planned).toMatch(samlWarning);

  // --apply alone refuses (exit 2) and creates nothing; the error sends the reader to the warnings.
  const refused = stepOutput(r.stdout, "migrate edge --all --apply\n");
  expect(refused).toMatch(
    /^error: 1 item\(s\) cannot be migrated \(each a "not migrated" warning\); nothing was created/m,
  );
  expect(refused).toMatch(samlWarning);
  expect(refused).toMatch(/^\(exit 2\)$/m);
  expect(refused).not.toMatch(/^ep_/m);

  // --allow-partial creates app's endpoint (shop's exists with this policy: skipped) …
  const at = r.stdout.indexOf("$ edgectl migrate edge --all --apply --allow-partial\n");
  const partial = stepOutput(r.stdout.slice(at), "migrate edge --all --apply --allow-partial\n");
  const rows = partial.split("\n").filter((line) => line.startsWith("ep_"));
  expect(rows).toHaveLength(1);
  const [, appEndpoint] = new RegExp(`^(ep_\\w+)\\s+https://app\\.example\\.com\\s+${appEdge}$`).exec(rows[0]!)!;
  expect(partial).toMatch(
    /^warning: exists: https:\/\/shop\.example\.com is already endpoint ep_\w+ with this policy/m,
  );
  expect(partial).toMatch(samlWarning);

  // … and run again it creates nothing: both URLs have their endpoint with this policy.
  const again = stepOutput(r.stdout.slice(at + 1), "migrate edge --all --apply --allow-partial\n");
  expect(again).not.toMatch(/^ep_/m);
  expect(again).toContain(
    `warning: exists: https://app.example.com is already endpoint ${appEndpoint} with this policy`,
  );
  expect(again).toMatch(/^warning: exists: https:\/\/shop\.example\.com is already endpoint ep_\w+ with this policy/m);

  const listed = stepOutput(r.stdout, "endpoint list");
  expect(listed.split("\n").filter((line) => line.startsWith("ep_"))).toHaveLength(3);
});

it("ends with the traffic port: a signed webhook reaches the app, a bad signature and an outside address are refused", () => {
  const sends = r.stdout.split("$ edgectl webhook sign --provider github").slice(1);
  expect(sends).toHaveLength(2);
  // The delivery signed with the endpoint's secret goes through verify-webhook to the local app.
  expect(sends[0]).toMatch(/^200 OK$/m);
  expect(sends[0]).toMatch(/^ {2}app: POST \/hooks\/github /m);
  // Another secret: ngrok's verify-webhook refusal (ERR_NGROK_3204), exit 1.
  expect(sends[1]).toMatch(/^403 Forbidden$/m);
  expect(sends[1]).toMatch(/deny by signed by github \(verify-webhook\); 403 ERR_NGROK_3204/);
  // An address outside the restrict-ips allow list: ERR_NGROK_3205.
  expect(r.stdout).toMatch(/^ngrok-error-code: ERR_NGROK_3205$/m);
  expect(r.stdout).toMatch(/deny by sender addresses \(restrict-ips\); 403 ERR_NGROK_3205/);
});

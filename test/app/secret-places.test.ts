// Issue 25 items 2, 3 and 4 through the CLI, against the emulator: every secret place of the
// table (src/secrets) is masked wherever a command prints a policy (endpoint create/get/list/
// policy get, --dry-run, --debug, api, export, migrate), a route's or a TLS edge's
// traffic_policy module included, and shown with --show-secret; a problem message never
// quotes a secret (stderr, -o json, the emulator's 400 msg that `api` prints).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { call, makeRoute } from "../helpers/emulator.js";

/** Every secret of the policy below: none may appear unless --show-secret. */
const SECRETS = [
  "Sup3rS3cret",
  "0psPassw0rdQ",
  "whsecQ1xyz",
  "oaSecQ2xyz",
  "oidcQ3xyz",
  "tokQ5xyzzy",
  "ckQ6xyzzy",
  "prxQ7xyzzy",
];
const POLICY_YAML = `# every secret place
on_http_request:
  - name: gate
    actions:
      - type: basic-auth
        config:
          realm: admin
          credentials:
            - admin:Sup3rS3cret
            - "ops:0psPassw0rdQ"
      - type: verify-webhook
        config: { provider: github, secret: whsecQ1xyz }
      - type: add-headers
        config:
          headers:
            Authorization: Bearer tokQ5xyzzy
            COOKIE: sid=ckQ6xyzzy
            x-kept: plainvalue
      - type: http-request
        config:
          url: https://audit.internal
          headers: { proxy-authorization: "Basic prxQ7xyzzy" }
  # one authentication action a rule (ERR_NGROK_2239)
  - expressions: ["req.url.path.startsWith('/sso')"]
    actions:
      - type: oauth
        config: { provider: google, client_secret: oaSecQ2xyz }
  - expressions: ["req.url.path.startsWith('/oidc')"]
    actions:
      - type: openid-connect
        config:
          issuer_url: https://id.example.com
          client_secret: 'oidcQ3xyz'
  - actions:
      - type: deny
`;

let emu: Emulator;
let cli: AppSandbox;
let dir: string;
let policyFile: string;
const env = () => ({ EDGECTL_API_KEY: "key_secret_places_1", EDGECTL_BASE_URL: emu.url });
const run = (args: string[], input?: string) => cli.run(args, { env: env(), input });

function expectNoSecret(text: string, where: string): void {
  for (const s of SECRETS) expect(text.includes(s), `${where} shows ${s}:\n${text}`).toBe(false);
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  cli = appSandbox();
  dir = mkdtempSync(join(tmpdir(), "edgectl-secret-places-"));
  policyFile = join(dir, "policy.yml");
  writeFileSync(policyFile, POLICY_YAML);
});
afterAll(async () => {
  cli.cleanup();
  rmSync(dir, { recursive: true, force: true });
  await emu.close();
});

describe("every secret place is masked wherever a policy is printed", () => {
  let id = "";
  it("endpoint create (table and JSON), --dry-run and --debug", async () => {
    const dry = await run([
      "endpoint",
      "create",
      "--url",
      "https://places.example.com",
      "--traffic-policy-file",
      policyFile,
      "--dry-run",
    ]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expectNoSecret(dry.stdout + dry.stderr, "--dry-run");
    const made = await run([
      "endpoint",
      "create",
      "--url",
      "https://places.example.com",
      "--traffic-policy-file",
      policyFile,
      "-o",
      "json",
      "--debug",
    ]);
    expect(made.exitCode, made.stderr).toBe(0);
    expectNoSecret(made.stdout, "create -o json");
    expectNoSecret(made.stderr, "--debug");
    id = (JSON.parse(made.stdout) as { id: string }).id;
    // The policy is stored as written: the secrets are really there.
    const stored = await call(emu.url, "GET", `/endpoints/${id}`);
    for (const s of SECRETS) expect(stored.text).toContain(s);
  });

  it("endpoint get, list, policy get and api (every format); --show-secret shows them", async () => {
    for (const args of [
      ["endpoint", "get", id],
      ["endpoint", "get", id, "-o", "json"],
      ["endpoint", "list", "-o", "json"],
      ["endpoint", "policy", "get", id],
      ["api", "GET", `/endpoints/${id}`],
      ["api", "GET", "/endpoints"],
      ["endpoint", "get", id, "--debug"],
    ]) {
      const r = await run(args);
      expect(r.exitCode, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expectNoSecret(r.stdout + r.stderr, args.join(" "));
      expect(r.stdout, args.join(" ")).toContain("********");
      expect(r.stdout, args.join(" ")).toContain("plainvalue");
    }
    const shown = await run(["endpoint", "policy", "get", id, "--show-secret"]);
    expect(shown.stdout).toBe(POLICY_YAML.replace(/\n$/, ""));
    const api = await run(["api", "GET", `/endpoints/${id}`, "--show-secret"]);
    for (const s of SECRETS) expect(api.stdout).toContain(s);
  });
});

describe("api and export mask a route's and a TLS edge's policy module (item 4)", () => {
  it("GET and PUT /edges/https/{id}/routes/{id}/traffic_policy, the route, the edge, export, migrate", async () => {
    const route = await makeRoute(emu.url);
    const input = join(dir, "module.json");
    writeFileSync(input, JSON.stringify({ enabled: true, value: POLICY_YAML }));
    const put = await run(["api", "PUT", `${route.path}/traffic_policy`, "--input", input]);
    expect(put.exitCode, put.stderr).toBe(0);
    expectNoSecret(put.stdout, "api PUT traffic_policy");
    expect(put.stdout).toContain("# every secret place");
    for (const extra of [["--dry-run"], ["--dry-run", "-o", "json"], ["--debug"]]) {
      const r = await run(["api", "PUT", `${route.path}/traffic_policy`, "--input", input, ...extra]);
      expect(r.exitCode, r.stderr).toBe(0);
      expectNoSecret(r.stdout + r.stderr, `api PUT traffic_policy ${extra.join(" ")}`);
    }
    const debugGet = await run(["api", "GET", `${route.path}/traffic_policy`, "--debug"]);
    expectNoSecret(debugGet.stdout + debugGet.stderr, "api GET traffic_policy --debug");
    for (const path of [`${route.path}/traffic_policy`, route.path, `/edges/https/${route.edgeId}`, "/edges/https"]) {
      const r = await run(["api", "GET", path]);
      expect(r.exitCode, r.stderr).toBe(0);
      expectNoSecret(r.stdout, `api GET ${path}`);
      expect(r.stdout).toContain("plainvalue");
    }
    const shown = await run(["api", "GET", `${route.path}/traffic_policy`, "--show-secret"]);
    for (const s of SECRETS) expect(shown.stdout).toContain(s);

    const ex = await run(["export"]);
    expect(ex.exitCode, ex.stderr).toBe(0);
    expectNoSecret(ex.stdout, "export");
    const exShown = await run(["export", "--show-secret"]);
    for (const s of SECRETS) expect(exShown.stdout).toContain(s);

    for (const args of [
      ["migrate", "edge", route.edgeId],
      ["migrate", "edge", route.edgeId, "-o", "json"],
    ]) {
      const m = await run(args);
      expectNoSecret(m.stdout + m.stderr, args.join(" "));
    }
  });

  it("a TLS edge's traffic_policy module", async () => {
    const tlsPolicy = `on_tcp_connect:\n  - actions:\n      - type: terminate-tls\n        config:\n          server_private_key: "-----BEGIN PRIVATE KEY-----\\nMIIEkeyQ4xyzzy\\n-----END PRIVATE KEY-----"\n`;
    const edge = await call(emu.url, "POST", "/edges/tls", {
      body: { description: "tls", traffic_policy: { enabled: true, value: tlsPolicy } },
    });
    expect(edge.status, edge.text).toBe(201);
    const id = edge.json.id as string;
    for (const path of [`/edges/tls/${id}`, `/edges/tls/${id}/traffic_policy`, "/edges/tls"]) {
      const r = await run(["api", "GET", path]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).not.toContain("MIIEkeyQ4xyzzy");
    }
    const ex = await run(["export"]);
    expect(ex.stdout).not.toContain("MIIEkeyQ4xyzzy");
  });
});

describe("a problem message never quotes a secret (item 3)", () => {
  const NUMBER = "86753091234567";
  const cases: [string, string][] = [
    ["verify-webhook secret", `{type: verify-webhook, config: {provider: github, secret: ${NUMBER}}}`],
    ["oauth client_secret", `{type: oauth, config: {provider: google, client_secret: ${NUMBER}}}`],
    [
      "openid-connect client_secret",
      `{type: openid-connect, config: {issuer_url: "https://i.example.com", client_secret: ${NUMBER}}}`,
    ],
    ["add-headers Authorization", `{type: add-headers, config: {headers: {Authorization: ${NUMBER}}}}`],
    ["add-headers cookie (wrong value: a list)", `{type: add-headers, config: {headers: {cookie: [${NUMBER}]}}}`],
    ["basic-auth credentials", `{type: basic-auth, config: {credentials: [${NUMBER}]}}`],
  ];
  it.each(cases)(
    "%s: policy check (stderr, -o json), endpoint create, the emulator's 400 via api",
    async (_n, action) => {
      const text = `on_http_request:\n  - actions:\n      - ${action}\n      - {type: deny}\n`;
      const file = join(dir, "bad.yml");
      writeFileSync(file, text);
      for (const args of [
        ["policy", "check", file],
        ["policy", "check", file, "-o", "json"],
        ["endpoint", "create", "--url", "https://bad.example.com", "--traffic-policy-file", file],
        ["endpoint", "create", "--url", "https://bad.example.com", "--traffic-policy-file", file, "-o", "json"],
      ]) {
        const r = await run(args);
        expect(r.stdout + r.stderr, args.join(" ")).not.toContain(NUMBER);
      }
      const body = join(dir, "body.json");
      writeFileSync(body, JSON.stringify({ url: "https://bad.example.com", traffic_policy: text }));
      const api = await run(["api", "POST", "/endpoints", "--input", body]);
      const raw = await call(emu.url, "POST", "/endpoints", {
        body: { url: "https://bad.example.com", traffic_policy: text },
      });
      for (const out of [api.stdout, api.stderr, raw.text]) expect(out).not.toContain(NUMBER);
    },
  );

  it("migrate's reasons name the kind of a route policy's secret, not the value", async () => {
    const route = await makeRoute(emu.url);
    const value = `on_http_request:\n  - actions:\n      - {type: verify-webhook, config: {provider: github, secret: ${NUMBER}}}\n`;
    const put = await call(emu.url, "PUT", `${route.path}/traffic_policy`, { body: { enabled: true, value } });
    expect(put.status, put.text).toBe(200);
    for (const args of [
      ["migrate", "edge", route.edgeId],
      ["migrate", "edge", route.edgeId, "-o", "json"],
      ["migrate", "edge", route.edgeId, "--show-secret"],
    ]) {
      const m = await run(args);
      expect(m.stdout + m.stderr, args.join(" ")).toMatch(/got a number/);
      expect(m.stdout + m.stderr, args.join(" ")).not.toContain(NUMBER);
    }
  });
});

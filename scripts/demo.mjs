// npm run demo: a real session against the local emulator, as a new user would type it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/edgectl.js", import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), "edgectl-demo-"));
// The folder the session types in: the policy files it writes live there.
const workDir = mkdtempSync(join(tmpdir(), "edgectl-demo-work-"));
const emulator = spawn(process.execPath, [bin, "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
// The emulator's stderr passes through (its request count at the end, any warning), but for its
// own "listening on" line: the session says where it listens once, on stdout, below.
createInterface({ input: emulator.stderr }).on("line", (line) => {
  if (!line.startsWith("emulator: listening on ")) process.stderr.write(`${line}\n`);
});
const baseUrl = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: emulator.stdout });
  lines.once("line", resolve);
  emulator.once("exit", (code) => reject(new Error(`emulator exited (${code})`)));
});
console.log(`emulator listening on ${baseUrl}\n`);

const env = { ...process.env, EDGECTL_BASE_URL: baseUrl, EDGECTL_API_KEY: "demo-key", EDGECTL_CONFIG_DIR: configDir };
/** Runs one command as typed, prints it and what it printed; any exit code but `expected` stops the demo. */
function edgectl(args, input, expected = 0) {
  const typed = `$ edgectl ${args.map((a) => (/[\s"']/.test(a) ? `'${a}'` : a)).join(" ")}`;
  // JSON sent with `--input -` is shown as a heredoc, so the line can be replayed as printed.
  const json = args.at(-1) === "-" && args.at(-2) === "--input" && input !== undefined;
  console.log(json ? `${typed} <<'EOF'\n${JSON.stringify(JSON.parse(input), null, 2)}\nEOF` : typed);
  const r = spawnSync(process.execPath, [bin, ...args], { env, input, cwd: workDir, encoding: "utf8" });
  process.stdout.write(r.stdout);
  process.stdout.write(r.stderr);
  if (expected !== 0) console.log(`(exit ${r.status})`);
  console.log();
  if (r.status !== expected) throw new Error(`edgectl ${args[0]} ${args[1]} exited ${r.status}, not ${expected}`);
  return r.stdout;
}

/** Writes a file in the session's folder and shows it, as `cat` would. */
function writeShown(name, text) {
  writeFileSync(join(workDir, name), text);
  console.log(`$ cat ${name}\n${text}`);
}

let failed = false;
try {
  const created = JSON.parse(
    edgectl([
      "failover",
      "create",
      "--backends",
      "bkdhr_primary,bkdhr_standby",
      "--description",
      "eu pair",
      "-o",
      "json",
    ]),
  );
  edgectl(["failover", "get", created.id]);
  edgectl(["failover", "list"]);
  // Webhook verification lives on a route of an HTTPS edge, so make both first (raw API calls).
  const edge = JSON.parse(
    edgectl(
      ["api", "POST", "/edges/https", "--input", "-"],
      JSON.stringify({ description: "demo edge", hostports: ["demo.example.com:443"] }),
    ),
  );
  const route = JSON.parse(
    edgectl(
      ["api", "POST", `/edges/https/${edge.id}/routes`, "--input", "-"],
      JSON.stringify({ match_type: "path_prefix", match: "/hooks" }),
    ),
  );
  edgectl(
    ["webhook-verification", "replace", edge.id, route.id, "--provider", "GitHub", "--secret-stdin"],
    "s3cr3t-from-stdin\n",
  );
  edgectl(["webhook-verification", "get", edge.id, route.id]);
  edgectl(["failover", "delete", created.id, "--yes"]);
  // That edge was only for webhook-verification (its route has no backend): gone before `migrate --all`.
  edgectl(["api", "DELETE", `/edges/https/${edge.id}`]);

  // Leaving Edges: an edge as operators built them — a webhook-verified route and a failover
  // route — then the Cloud Endpoint that replaces it, reviewed as YAML, applied and listed.
  const post = (path, body) => JSON.parse(edgectl(["api", "POST", path, "--input", "-"], JSON.stringify(body)));
  const eu = post("/backends/tunnel_group", { description: "eu agents", labels: { dc: "eu", service: "app" } });
  const us = post("/backends/tunnel_group", { description: "us agents", labels: { dc: "us", service: "app" } });
  const down = post("/backends/http_response", {
    description: "maintenance page",
    status_code: 503,
    body: "down for maintenance",
  });
  const chain = JSON.parse(
    edgectl([
      "failover",
      "create",
      "--backends",
      `${eu.id},${us.id},${down.id}`,
      "--description",
      "app failover",
      "-o",
      "json",
    ]),
  );
  const shop = post("/edges/https", { description: "shop", hostports: ["shop.example.com:443"] });
  const hook = post(`/edges/https/${shop.id}/routes`, {
    match_type: "exact_path",
    match: "/hooks/github",
    backend: { enabled: true, backend_id: eu.id },
  });
  edgectl(
    ["webhook-verification", "replace", shop.id, hook.id, "--provider", "github", "--secret-stdin"],
    "gh-s3cr3t\n",
  );
  post(`/edges/https/${shop.id}/routes`, {
    match_type: "path_prefix",
    match: "/",
    backend: { enabled: true, backend_id: chain.id },
  });
  edgectl(["migrate", "edge", shop.id]);
  edgectl(["migrate", "edge", shop.id, "--apply"]);
  edgectl(["api", "GET", "/endpoints"]);

  // Cloud Endpoints by hand: a policy is checked before anything is sent. This one verifies a
  // webhook without its secret, sends 11 headers (10 at most), and lets a request that is not
  // for /hooks fall through unhandled.
  writeShown(
    "bad.yml",
    `on_http_request:
  - expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github
      - type: custom-response
        config:
          status_code: 200
          headers:
${Array.from({ length: 11 }, (_, i) => `            x-demo-${i + 1}: "${i + 1}"`).join("\n")}
`,
  );
  edgectl(["policy", "check", "bad.yml"], undefined, 2);
  writeShown(
    "hooks.yml",
    `# GitHub webhooks: verified, then forwarded to the agents; anything else is 404.
on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github
          secret: change-me # set with \`edgectl endpoint webhook-verification replace\`
      - type: forward-internal
        config:
          url: https://hooks.internal
  - name: not found
    actions:
      - type: custom-response
        config:
          status_code: 404
`,
  );
  edgectl(["policy", "check", "hooks.yml"]);
  const hooksEndpoint = JSON.parse(
    edgectl([
      "endpoint",
      "create",
      "--url",
      "https://hooks.example.com",
      "--traffic-policy-file",
      "hooks.yml",
      "-o",
      "json",
    ]),
  );
  edgectl(
    ["endpoint", "webhook-verification", "replace", hooksEndpoint.id, "--provider", "github", "--secret-stdin"],
    "gh-hooks-s3cr3t\n",
  );
  edgectl(["endpoint", "get", hooksEndpoint.id]);

  // Leaving Edges with --all: an edge whose main route signs users in with Google, admits only
  // an IP policy's addresses, sets response headers and fails over eu → us → a 503 page; its
  // /sso route uses SAML, which has no Traffic Policy equivalent and so fails closed.
  const app = post("/edges/https", { description: "app", hostports: ["app.example.com:443"] });
  post(`/edges/https/${app.id}/routes`, {
    match_type: "path_prefix",
    match: "/",
    backend: { enabled: true, backend_id: chain.id },
    ip_restriction: { enabled: true, ip_policy_ids: ["ipp_office"] },
    oauth: {
      enabled: true,
      provider: {
        google: { client_id: "app-client-id", client_secret: "g00gle-s3cr3t", email_domains: ["example.com"] },
      },
    },
    response_headers: {
      enabled: true,
      add: { "strict-transport-security": "max-age=31536000" },
      remove: ["server"],
    },
  });
  post(`/edges/https/${app.id}/routes`, {
    match_type: "path_prefix",
    match: "/sso",
    backend: { enabled: true, backend_id: eu.id },
    saml: { enabled: true, idp_metadata_url: "https://idp.example.com/metadata" },
  });
  edgectl(["migrate", "edge", "--all"]);
  edgectl(["migrate", "edge", "--all", "--apply"], undefined, 2);
  edgectl(["migrate", "edge", "--all", "--apply", "--allow-partial"]);
  edgectl(["migrate", "edge", "--all", "--apply", "--allow-partial"]);
  edgectl(["endpoint", "list"]);
} catch (err) {
  console.error(`demo failed: ${err.message}`);
  failed = true;
} finally {
  emulator.kill("SIGTERM");
  rmSync(configDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

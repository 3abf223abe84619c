// npm run demo: a real session against the local emulator, as a new user would type it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/edgectl.js", import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), "edgectl-demo-"));
// The folder the session types in: the policy files it writes live there.
const workDir = mkdtempSync(join(tmpdir(), "edgectl-demo-work-"));
// The small local app the traffic part of the session sends webhooks to (its own process: the
// session's commands run synchronously). It says on stdout what it received.
const APP = `// app.mjs: the local app behind the endpoint; it says what it got and answers 200.
import http from "node:http";
const server = http.createServer((req, res) => {
  let bytes = 0;
  req.on("data", (c) => (bytes += c.length));
  req.on("end", () => {
    const from = req.headers["x-forwarded-for"];
    console.log(\`app: \${req.method} \${req.url} (\${bytes} bytes, X-Forwarded-For: \${from}, signed: \${req.headers["x-hub-signature-256"] ? "yes" : "no"})\`);
    res.end("thanks\\n");
  });
});
server.listen(0, "127.0.0.1", () => console.log(\`http://127.0.0.1:\${server.address().port}\`));
`;
writeFileSync(join(workDir, "app.mjs"), APP);
const app = spawn(process.execPath, [join(workDir, "app.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
const appLines = createInterface({ input: app.stdout });
const appUrl = await new Promise((resolve) => appLines.once("line", resolve));
/** What the app and the traffic port said since the last look (shown after each traffic command). */
const heard = [];
appLines.on("line", (line) => heard.push(line));

const emulator = spawn(
  process.execPath,
  [bin, "emulator", "--port", "0", "--traffic-port", "0", "--upstream", `https://app.internal=${appUrl}`],
  { stdio: ["ignore", "pipe", "pipe"] },
);
// The emulator's stderr passes through (its request count at the end, any warning), but for its
// own "listening on" lines: the session says where it listens once, on stdout, below; and its
// line per request on the traffic port, shown with the command that sent it.
createInterface({ input: emulator.stderr }).on("line", (line) => {
  if (line.startsWith("traffic: ")) heard.push(line);
  else if (!line.startsWith("emulator: listening on ") && !line.startsWith("emulator: serving endpoints at "))
    process.stderr.write(`${line}\n`);
});
const [baseUrl, trafficUrl] = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: emulator.stdout });
  const got = [];
  lines.on("line", (line) => {
    got.push(line);
    if (got.length === 2) resolve(got);
  });
  emulator.once("exit", (code) => reject(new Error(`emulator exited (${code})`)));
});
console.log(
  `emulator listening on ${baseUrl}\nits endpoints served on ${trafficUrl} (the app behind them: ${appUrl})\n`,
);

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

/** As edgectl(), but the session goes on listening meanwhile: then what the traffic port and the app said. */
async function edgectlHeard(args, input, expected = 0) {
  const typed = `$ edgectl ${args.map((a) => (/[\s"'$]/.test(a) ? `'${a}'` : a)).join(" ")}${input === undefined ? "" : ` <<< '${input.trim()}'`}`;
  console.log(typed);
  const child = spawn(process.execPath, [bin, ...args], { env, cwd: workDir, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  child.stdin.end(input);
  const status = await new Promise((resolve) => child.once("close", resolve));
  process.stdout.write(out);
  if (expected !== 0) console.log(`(exit ${status})`);
  await showHeard();
  if (status !== expected) throw new Error(`edgectl ${args[0]} ${args[1]} exited ${status}, not ${expected}`);
}

/** Prints what the app and the emulator's traffic port said, once they have had a moment to say it. */
async function showHeard() {
  await new Promise((resolve) => setTimeout(resolve, 150));
  for (const line of heard.splice(0)) console.log(`  ${line}`);
  console.log();
}

/**
 * The traffic port (issue 30): the endpoint admits only the sender's addresses and verifies
 * GitHub's signature, then forwards to the local app. `webhook sign --send` delivers a signed webhook
 * through it, then one signed with the wrong secret; then a request from an address outside
 * the allow list (X-Forwarded-For, which the emulator reads as the client's address on a
 * loopback connection). It needs `webhook sign` (and the webhook schemes behind it and behind
 * verify-webhook): without it (a branch where it is not merged yet) the session says so and ends here.
 */
async function trafficPart() {
  const missing = [
    ["webhook", "sign"],
    ["policy", "test"],
  ].filter((words) => spawnSync(process.execPath, [bin, "help", ...words], { env }).status !== 0);
  if (missing.length > 0) {
    console.log(
      `(the traffic part needs ${missing.map((w) => `\`edgectl ${w.join(" ")}\``).join(" and ")}: not in this build)`,
    );
    return;
  }
  writeShown(
    "webhooks.yml",
    `# GitHub webhooks: from the sender's addresses (and this machine), signature checked, then to the app.
on_http_request:
  - name: sender addresses
    actions:
      - type: restrict-ips
        config:
          allow:
            - 198.51.100.0/24 # the sender's range
            - 127.0.0.0/8
  - name: signed by github
    actions:
      - type: verify-webhook
        config:
          provider: github
          secret: change-me # set with \`edgectl endpoint webhook-verification replace\`
      - type: forward-internal
        config:
          url: https://app.internal
`,
  );
  const hooks = JSON.parse(
    edgectl([
      "endpoint",
      "create",
      "--url",
      "https://webhooks.example.com",
      "--traffic-policy-file",
      "webhooks.yml",
      "-o",
      "json",
    ]),
  );
  edgectl(
    ["endpoint", "webhook-verification", "replace", hooks.id, "--provider", "github", "--secret-stdin"],
    "gh-demo-s3cret\n",
  );
  // webhook sign --send POSTs to a URL, so it names the endpoint's host in the path (the traffic port's
  // /__edgectl/endpoint/<host>/ prefix) rather than in Host.
  const hookUrl = `${trafficUrl}/__edgectl/endpoint/webhooks.example.com/hooks/github`;
  const body = '{"zen":"Design for failure.","hook_id":1}';
  const sign = [
    "webhook",
    "sign",
    "--provider",
    "github",
    "--body",
    body,
    "--url",
    hookUrl,
    "--secret-stdin",
    "--send",
  ];
  await edgectlHeard(sign, "gh-demo-s3cret\n");
  await edgectlHeard(sign, "not-the-secret\n", 1);
  // From an address outside the allow list (X-Forwarded-For: the client's address, as the emulator
  // reads it on a loopback connection), with curl where there is one.
  const curl = ["/usr/bin/curl", "/usr/local/bin/curl"].find((c) => existsSync(c));
  const args = ["-s", "-i", "-X", "POST", "-H", "X-Forwarded-For: 203.0.113.7", "-d", body, hookUrl];
  let status;
  if (curl) {
    console.log(`$ curl ${args.map((a) => (/[\s"'{]/.test(a) ? `'${a}'` : a)).join(" ")}`);
    const r = spawn(curl, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    r.stdout.on("data", (c) => (out += c));
    await new Promise((resolve) => r.once("close", resolve));
    process.stdout.write(`${out.replace(/\r\n/g, "\n").trimEnd()}\n`);
    status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(out)?.[1]);
  } else {
    console.log(`# (no curl here) POST ${hookUrl} with X-Forwarded-For: 203.0.113.7`);
    const r = await fetch(hookUrl, { method: "POST", headers: { "x-forwarded-for": "203.0.113.7" }, body });
    console.log(`${r.status} ${r.statusText} (ngrok-error-code: ${r.headers.get("ngrok-error-code")})`);
    status = r.status;
  }
  await showHeard();
  if (status !== 403) throw new Error(`the request from 203.0.113.7 got ${status}, not 403`);
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
  edgectl(["migrate", "edge", "--all", "--verify"]);
  edgectl(["migrate", "edge", "--all", "--apply"], undefined, 2);
  edgectl(["migrate", "edge", "--all", "--apply", "--allow-partial"]);
  edgectl(["migrate", "edge", "--all", "--apply", "--allow-partial"]);
  edgectl(["endpoint", "list"]);

  await trafficPart();
} catch (err) {
  console.error(`demo failed: ${err.message}`);
  failed = true;
} finally {
  emulator.kill("SIGTERM");
  app.kill("SIGTERM");
  rmSync(configDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

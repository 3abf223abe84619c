// npm run demo: a real session against the local emulator, as a new user would type it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/edgectl.js", import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), "edgectl-demo-"));
const emulator = spawn(process.execPath, [bin, "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const baseUrl = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: emulator.stdout });
  lines.once("line", resolve);
  emulator.once("exit", (code) => reject(new Error(`emulator exited (${code})`)));
});
console.log(`emulator listening on ${baseUrl}\n`);

const env = { ...process.env, EDGECTL_BASE_URL: baseUrl, EDGECTL_API_KEY: "demo-key", EDGECTL_CONFIG_DIR: configDir };
function edgectl(args, input) {
  console.log(`$ edgectl ${args.map((a) => (/[\s"']/.test(a) ? `'${a}'` : a)).join(" ")}`);
  const r = spawnSync(process.execPath, [bin, ...args], { env, input, encoding: "utf8" });
  process.stdout.write(r.stdout);
  process.stdout.write(r.stderr);
  console.log();
  if (r.status !== 0) throw new Error(`edgectl ${args[0]} ${args[1]} exited ${r.status}`);
  return r.stdout;
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
} catch (err) {
  console.error(`demo failed: ${err.message}`);
  failed = true;
} finally {
  emulator.kill("SIGTERM");
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

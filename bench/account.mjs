// A large Edges account for the emulator, and the bench row that reads it (issue 19 item 6:
// 1,000 edges and 3,000 backends planned in about 45 requests, within ngrok's 120 a minute).
//
// seedAccount() writes an emulator state file at once (no API calls): 700 HTTPS edges of two
// routes each, 200 TLS and 100 TCP edges; 1,000 tunnel groups, 1,000 failovers (each a tunnel
// group then an HTTP response), 500 HTTP responses, 250 weighted and 250 static backends.
// accountRow() serves it with `edgectl emulator --state … --rate-limit 120/60` and times one
// command against it; the emulator's own count (printed on stderr as it stops) gives the requests.
//
// Alone: `node bench/account.mjs [command words…]` (default `migrate edge --all -o json`)
// runs the row with this checkout's bin/edgectl.js and prints it, e.g.
//   node bench/account.mjs export
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const ACCOUNT = { https: 700, tls: 200, tcp: 100, backends: 3000 };
export const MIGRATE_ALL = ["migrate", "edge", "--all", "-o", "json"];

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** prefix + 27 base62 characters, ascending with n (ids sort like creation times). */
function id(prefix, n) {
  let tail = "";
  for (let i = 0; i < 27; i++) {
    tail = BASE62[n % 62] + tail;
    n = Math.floor(n / 62);
  }
  return `${prefix}${tail}`;
}

/** The emulator state file's text for the account above. */
export function seedAccount() {
  const at = "2025-09-04T10:11:37Z";
  const common = (prefix, n) => ({ id: id(prefix, n), created_at: at, description: "", metadata: "" });
  const tg = Array.from({ length: 1000 }, (_, i) => ({
    ...common("bkdtg_", i),
    fields: { labels: { app: `app${i}`, env: "prod" } },
  }));
  const hr = Array.from({ length: 500 }, (_, i) => ({
    ...common("bkdhr_", i),
    fields: { body: `down ${i}`, headers: null, status_code: 503 },
  }));
  const failover = Array.from({ length: 1000 }, (_, i) => ({
    ...common("bkdfo_", i),
    backends: [tg[i].id, hr[i % 500].id],
  }));
  const weighted = Array.from({ length: 250 }, (_, i) => ({
    ...common("bkdwd_", i),
    fields: { backends: { [tg[i].id]: 1, [tg[i + 250].id]: 3 } },
  }));
  const statics = Array.from({ length: 250 }, (_, i) => ({
    ...common("bkdsc_", i),
    fields: { address: `10.0.${i >> 8}.${i & 255}:443`, tls: { enabled: true } },
  }));
  const backendModule = (backend_id) => ({ enabled: true, backend_id });
  const route = (e, r, match_type, match, backend_id) => ({
    ...common("edghtsrt_", e * 2 + r),
    match_type,
    match,
    backend: backendModule(backend_id),
    webhook_verification: null,
    modules: {},
  });
  const https = Array.from({ length: ACCOUNT.https }, (_, e) => ({
    ...common("edghts_", e),
    hostports: [`app-${e}.example.com:443`],
    mutual_tls: null,
    tls_termination: null,
    routes: [route(e, 0, "path_prefix", "/", failover[e].id), route(e, 1, "exact_path", "/health", hr[e % 500].id)],
  }));
  const tls = Array.from({ length: ACCOUNT.tls }, (_, e) => ({
    ...common("edgtls_", e),
    hostports: [`db-${e}.example.com:443`],
    modules: { backend: backendModule(failover[ACCOUNT.https + e].id) },
  }));
  const tcp = Array.from({ length: ACCOUNT.tcp }, (_, e) => ({
    ...common("edgtcp_", e),
    hostports: [`1.tcp.ngrok.io:${20000 + e}`],
    modules: { backend: backendModule(tg[900 + e].id) },
  }));
  const list = (records) => (records.length ? `[\n${records.map((r) => JSON.stringify(r)).join(",\n")}\n]` : "[]");
  return (
    `{"version":1,\n"failover_backends":${list(failover)},\n"backends":{\n` +
    `"tunnel_group":${list(tg)},\n"http_response":${list(hr)},\n"weighted":${list(weighted)},\n"static":${list(statics)}},\n` +
    `"https_edges":${list(https)},\n"endpoints":[],\n"tls_edges":${list(tls)},\n"tcp_edges":${list(tcp)}}\n`
  );
}

/**
 * Seeds the account in `work`, serves it rate-limited like ngrok (120 requests a minute),
 * runs `node bin …args` once against it: { requests, ms, status, stderr }.
 */
export async function accountRow({ node, bin, env, work, args = MIGRATE_ALL }) {
  const state = join(work, "account-state.json");
  writeFileSync(state, seedAccount());
  const emu = spawn(node, [bin, "emulator", "--port", "0", "--state", state, "--rate-limit", "120/60"], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let stderr = "";
  emu.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise((resolve) => emu.once("exit", resolve));
  try {
    const url = await new Promise((resolve, reject) => {
      createInterface({ input: emu.stdout }).once("line", resolve);
      void exited.then((code) => reject(new Error(`the emulator exited (${code}) before printing its URL: ${stderr}`)));
    });
    emu.stdout.resume();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(node, [bin, ...args], {
      env: { ...env, EDGECTL_BASE_URL: url },
      encoding: "utf8",
      maxBuffer: 256 << 20,
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr, requests: await stop() };
  } finally {
    await stop();
  }

  async function stop() {
    if (emu.exitCode === null && emu.signalCode === null) emu.kill("SIGTERM");
    await exited;
    const m = /stopped after (\d+) requests/.exec(stderr);
    return m ? Number(m[1]) : NaN;
  }
}

// Alone: the row with this checkout's bin.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const work = mkdtempSync(join(tmpdir(), "edgectl-account-"));
  try {
    const args = process.argv.length > 2 ? process.argv.slice(2) : MIGRATE_ALL;
    const env = { ...process.env, EDGECTL_API_KEY: "bench-key", EDGECTL_CONFIG_DIR: join(work, "config") };
    const bin = fileURLToPath(new URL("../bin/edgectl.js", import.meta.url));
    const r = await accountRow({ node: process.execPath, bin, env, work, args });
    const out = args[0] === "export" ? JSON.parse(r.stdout) : undefined;
    process.stdout.write(
      `edgectl ${args.join(" ")} on ${ACCOUNT.https + ACCOUNT.tls + ACCOUNT.tcp} edges and ${ACCOUNT.backends} backends: ` +
        `exit ${r.status}, ${r.requests} requests, ${(r.ms / 1000).toFixed(2)} s` +
        (out
          ? ` (${out.https_edges.length} https, ${out.tls_edges.length} tls, ${out.tcp_edges.length} tcp edges; ` +
            `${Object.values(out.backends).reduce((n, l) => n + l.length, 0)} backends)`
          : "") +
        `\n${r.status === 0 ? "" : r.stderr.slice(0, 2000)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The traffic port's rows (issue 30 item 7): autocannon through `edgectl emulator --traffic-port`
// with a 10-rule policy ending in forward-internal to an --upstream local server, against
// bench/bare-proxy.cjs doing the same forward to the same server (bench/bare-server.cjs).
// Throughput at 8 connections in alternating rounds (goal: ≥ 0.6× the bare proxy), then latency with one request in
// flight, whose p50 and p99 less the bare proxy's are what the policy and the emulator add.
//
// Alone: `node bench/traffic.mjs` runs the rows with this checkout's bin/edgectl.js and prints them.
import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HOST = "bench.example.com";
export const TRAFFIC_LOAD = { seconds: 2, connections: 8, rounds: 9 };
const LATENCY_REQUESTS = 2000;
const CPU_REQUESTS = 5000;

/**
 * Ten rules: nine with an expression that does not match and a header to add (each is evaluated
 * and skipped, as most rules of a real policy are for a given request), and one forwarding to
 * the agent endpoint. It needs the evaluator (src/policy/evaluate): a build without it answers
 * 500 (outcome unknown), which the rows show as non-2xx and the goal as missed.
 */
export function tenRules() {
  const rules = Array.from({ length: 9 }, (_, i) => ({
    name: `rule-${i + 1}`,
    expressions: [`req.url.path.startsWith("/never-${i + 1}")`],
    actions: [{ type: "add-headers", config: { headers: { [`x-rule-${i + 1}`]: "1" } } }],
  }));
  rules.push({ name: "to the app", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] });
  return { on_http_request: rules };
}

/**
 * A server of the bench. Its stderr goes to /dev/null, as a CI job's would go to a file or
 * nowhere: the traffic port's line per request is written (a write(2) per turn of its event
 * loop), and costs what it costs there, not what a pipe nobody reads or a terminal would.
 */
function start(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "ignore"], env });
  const lines = [];
  return new Promise((resolve, reject) => {
    const want = args.includes("--traffic-port") ? 2 : 1;
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (lines.length === want)
        resolve({
          urls: lines,
          pid: child.pid,
          stop: () =>
            new Promise((done) =>
              child.exitCode !== null ? done() : (child.once("exit", done), child.kill("SIGTERM")),
            ),
        });
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before printing its URL`)));
  });
}

function post(url, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: "POST",
        headers: { Authorization: "Bearer bench", "Ngrok-Version": "2", "Content-Type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** CPU time (user + system) of a process so far, in ms, from /proc (10 ms ticks); NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15)
  } catch {
    return NaN;
  }
}

/** The server's CPU time per request over `n` requests at 8 connections (autocannon -a), in µs. */
function cpuPerRequest(url, pid, n) {
  const before = cpuMs(pid);
  cannon(url, TRAFFIC_LOAD.connections, 0, n);
  return ((cpuMs(pid) - before) * 1000) / n;
}

function cannon(url, connections, seconds, amount) {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules", "autocannon", "autocannon.js"),
      "-j",
      "-c",
      String(connections),
      ...(amount ? ["-a", String(amount)] : ["-d", String(seconds)]),
      "-H",
      `host=${HOST}`,
      url,
    ],
    { encoding: "utf8", maxBuffer: 16 << 20 },
  );
  const res = JSON.parse(r.stdout);
  return {
    perSecond: res.requests.average,
    p50: res.latency.p50,
    p99: res.latency.p99,
    non2xx: res.non2xx,
    errors: res.errors,
  };
}

/**
 * Latency, one request in flight: `n` GETs to each server over a keep-alive connection,
 * alternating between them so that a busy moment of the machine hits both alike; each timed
 * with hrtime (autocannon's percentiles are whole milliseconds). p50 and p99 in ms.
 */
async function pairedLatency(urls, n) {
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const times = urls.map(() => []);
  const one = (url, agent) =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(url, { headers: { host: HOST }, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
      });
      req.on("error", reject);
      req.end();
    });
  for (let i = 0; i < n; i++) for (const [k, url] of urls.entries()) times[k].push(await one(url, agents[k]));
  for (const a of agents) a.destroy();
  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
  return times.map((xs) => ({ p50: pct(xs, 0.5), p99: pct(xs, 0.99) }));
}

/** The rows: { rows: [{name, ...cannon}], ratio, added: {p50, p99}, non2xx }. */
export async function trafficRows({ node, bin, env, work }) {
  const json = join(work, "traffic-body.json");
  writeFileSync(json, JSON.stringify({ ok: true, items: Array.from({ length: 8 }, (_, i) => ({ id: i })) }));
  const app = await start(node, [join(ROOT, "bench", "bare-server.cjs"), json], env);
  const appUrl = app.urls[0];
  const emu = await start(
    node,
    [bin, "emulator", "--port", "0", "--traffic-port", "0", "--upstream", `https://app.internal=${appUrl}`],
    env,
  );
  const bare = await start(node, [join(ROOT, "bench", "bare-proxy.cjs"), appUrl], env);
  try {
    const made = await post(`${emu.urls[0]}/endpoints`, {
      type: "cloud",
      url: `https://${HOST}`,
      traffic_policy: JSON.stringify(tenRules()),
    });
    if (made.status !== 201) throw new Error(`endpoint create answered ${made.status}: ${made.text}`);
    const { seconds, connections, rounds } = TRAFFIC_LOAD;
    // A warm-up of each, then rounds alternating between them, each round in the other order
    // (neither always runs first, after the other's load): a busy moment of the machine hits both
    // alike, and the ratio is the median of the per-round ratios.
    cannon(emu.urls[1], connections, 1);
    cannon(bare.urls[0], connections, 1);
    const pairs = [];
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        const a = cannon(emu.urls[1], connections, seconds);
        pairs.push([a, cannon(bare.urls[0], connections, seconds)]);
      } else {
        const b = cannon(bare.urls[0], connections, seconds);
        pairs.push([cannon(emu.urls[1], connections, seconds), b]);
      }
    }
    const mid = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const pick = (k) => ({
      perSecond: mid(pairs.map((p) => p[k].perSecond)),
      p50: mid(pairs.map((p) => p[k].p50)),
      p99: mid(pairs.map((p) => p[k].p99)),
      non2xx: pairs.reduce((n, p) => n + p[k].non2xx, 0),
      errors: pairs.reduce((n, p) => n + p[k].errors, 0),
    });
    const through = pick(0);
    const floor = pick(1);
    const ratio = mid(pairs.map(([a, b]) => a.perSecond / b.perSecond));
    const [lat, latFloor] = await pairedLatency([emu.urls[1], bare.urls[0]], LATENCY_REQUESTS);
    // CPU per request, which the machine's other load moves far less than throughput.
    const cpu = {
      through: cpuPerRequest(emu.urls[1], emu.pid, CPU_REQUESTS),
      floor: cpuPerRequest(bare.urls[0], bare.pid, CPU_REQUESTS),
    };
    return {
      rows: [
        { name: `traffic port, 10-rule policy, ${connections} connections (median of ${rounds})`, ...through },
        { name: `bare node:http reverse proxy, ${connections} connections (median of ${rounds})`, ...floor },
      ],
      latency: { through: lat, floor: latFloor },
      cpu,
      ratio,
      non2xx: through.non2xx,
      added: { p50: lat.p50 - latFloor.p50, p99: lat.p99 - latFloor.p99 },
    };
  } finally {
    await Promise.all([emu.stop(), bare.stop(), app.stop()]);
  }
}

export function formatTraffic(t) {
  const lines = t.rows.map(
    (v) =>
      `  ${v.name.padEnd(52)}  ${Math.round(v.perSecond)} req/s, p50 ${v.p50} ms, p99 ${v.p99} ms, ${v.non2xx} non-2xx, ${v.errors} errors`,
  );
  const f = (x) => `${x.toFixed(3)} ms`;
  lines.push(
    `  one request in flight, ${LATENCY_REQUESTS} each, alternating: traffic port p50 ${f(t.latency.through.p50)}, p99 ${f(t.latency.through.p99)}; bare proxy p50 ${f(t.latency.floor.p50)}, p99 ${f(t.latency.floor.p99)}`,
    `  server CPU per request (${CPU_REQUESTS} requests, 8 connections): traffic port ${Math.round(t.cpu.through)} µs, bare proxy ${Math.round(t.cpu.floor)} µs (${(t.cpu.through / t.cpu.floor).toFixed(2)}×)`,
    `  through the policy / bare proxy: ${t.ratio.toFixed(2)}× the throughput (median of the per-round ratios); latency added: p50 ${f(t.added.p50)}, p99 ${f(t.added.p99)}`,
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const work = mkdtempSync(join(tmpdir(), "edgectl-bench-traffic-"));
  try {
    const t = await trafficRows({
      node: process.execPath,
      bin: join(ROOT, "bin", "edgectl.js"),
      env: process.env,
      work,
    });
    process.stdout.write(`${formatTraffic(t).join("\n")}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// `npm run bench`: start-up and batch timings of the built CLI against its own emulator,
// printed as one table. Every timing is a whole process, from spawn to exit. The edgectl
// and @ngrok/ngrok-api rows run interleaved, round by round, with `node -e 0`, and their
// ratio is the median of the per-round ratios, so that a busy moment of the machine hits
// them all alike; curl loops (slow) run after. Nothing here asserts: the goals of issue 4
// are checked against this run and printed at the end.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "edgectl.js");
const NODE = process.execPath;
const KEY = "bench-key";
const CURL = ["/usr/bin/curl", "/usr/local/bin/curl"].find((p) => existsSync(p));
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const ROUNDS = 30; // rounds of the start-up rows, after a warm-up round; the batch rows run in every third
const SIZES = [10, 100, 1000];
const CURL_RUNS = { 10: 3, 100: 2, 1000: 1 };
const RATE = { requests: 60, seconds: 10, ids: 300 };
const LOAD_SECONDS = 3;

const work = mkdtempSync(join(tmpdir(), "edgectl-bench-"));
const rows = [];
const started = Date.now();
let nodeMedian = NaN; // `node -e 0`, the unit of the ratios
const batch = {}; // rows by key: node, version, help, get1, get10, del1000, curlget100, ngrok1000…
const marginals = { small: [], big: [] }; // ms per further id: 10→100 and 100→1000 deletes

// ---------------------------------------------------------------- helpers

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 2 : 1)} ms`);
const log = (line) => process.stderr.write(`bench: ${line}\n`);

function cliEnv(baseUrl) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(EDGECTL_|NGROK_|HTTPS?_PROXY$|NO_PROXY$)/i.test(k)) env[k] = v;
  return { ...env, EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: baseUrl, EDGECTL_CONFIG_DIR: join(work, "config"), NO_COLOR: "1" };
}

/** Runs a process to its end: wall time in ms, exit status and output. */
function timed(cmd, args, { input, env } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { input, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], maxBuffer: 64 << 20 });
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms: elapsed, status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function mustSucceed(what, r) {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return r;
}

/** Peak RSS in MB of one more run, through /usr/bin/time -f %M. */
function peakRss(cmd, args, opts = {}) {
  if (!TIME) return undefined;
  const r = spawnSync(TIME, ["-f", "%M", cmd, ...args], { input: opts.input, env: opts.env, stdio: [opts.input === undefined ? "ignore" : "pipe", "ignore", "pipe"], maxBuffer: 64 << 20 });
  const kb = Number(String(r.stderr).trim().split("\n").pop());
  return Number.isFinite(kb) ? kb / 1024 : undefined;
}

async function startEmulator(args = []) {
  const child = spawn(NODE, [BIN, "emulator", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"], env: cliEnv("") });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  child.once("exit", (code, signal) => {
    if (!stopping) log(`the emulator exited (${code ?? signal}) while in use: ${stderr.trim()}`);
  });
  let stopping = false;
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before printing its URL`)));
  });
  child.stdout.resume();
  return {
    url,
    stop: () => {
      stopping = true;
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM"))));
    },
  };
}

function request(agent, baseUrl, method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Authorization: `Bearer ${KEY}`, "Ngrok-Version": "2", ...(payload ? { "Content-Type": "application/json" } : {}) };
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** Creates n Failover backends through the API directly (16 at a time); returns their ids. */
async function createIds(baseUrl, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const ids = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = await request(agent, baseUrl, "POST", "/backends/failover", { backends: ["bkdhr_bench"], description: `bench ${i}` });
      if (r.status !== 201) throw new Error(`create answered ${r.status}: ${r.text}`);
      ids[i] = JSON.parse(r.text).id;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  agent.destroy();
  return ids;
}

function addRow(row) {
  rows.push(row);
  log(`${row.name}: ${ms(row.median)}`);
}

function summarize(name, times, extra = {}) {
  return { name, runs: times.length, median: median(times), min: Math.min(...times), max: Math.max(...times), ...extra };
}

function curlArgs(method, url) {
  return ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", method, "-H", `Authorization: Bearer ${KEY}`, "-H", "Ngrok-Version: 2", url];
}

/** One loop of curl processes, one per id, as a shell script would do it. */
function curlLoop(baseUrl, method, ids, okStatus) {
  const t0 = process.hrtime.bigint();
  for (const id of ids) {
    const r = spawnSync(CURL, curlArgs(method, `${baseUrl}/backends/failover/${id}`), { stdio: ["ignore", "pipe", "ignore"] });
    if (String(r.stdout) !== String(okStatus)) throw new Error(`curl ${method} ${id} answered ${r.stdout}`);
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// ---------------------------------------------------------------- measurements

const emu = await startEmulator();
const env = cliEnv(emu.url);
try {
  // Every process below the curl loops runs once per round, in the same round as `node -e 0`,
  // so each ratio is taken against a `node -e 0` of the same moment. Batches give N ids on
  // stdin (`-`) with JSON output (checked: N results) and the default --concurrency (8);
  // each delete run gets N fresh ids, made (untimed) just before it.
  const getIds = await createIds(emu.url, Math.max(...SIZES));
  writeFileSync(join(work, "ids-1.txt"), getIds[0]);
  for (const n of SIZES) writeFileSync(join(work, `ids-${n}.txt`), `${getIds.slice(0, n).join("\n")}\n`);
  const expectN = (n) => (res) => {
    if (JSON.parse(res.stdout).length !== n) throw new Error(`not ${n} results`);
  };
  const plan = [
    { key: "node", name: "node -e 0", cmd: NODE, args: ["-e", "0"], everyRound: true },
    { key: "version", name: "edgectl --version", cmd: NODE, args: [BIN, "--version"], everyRound: true },
    { key: "help", name: "edgectl --help", cmd: NODE, args: [BIN, "--help"], everyRound: true },
    { key: "get1", name: "edgectl failover get <id> (table)", cmd: NODE, args: [BIN, "failover", "get", getIds[0]], everyRound: true },
    ...SIZES.map((n) => ({ key: `get${n}`, n, name: `edgectl failover get - (N=${n})`, cmd: NODE, args: [BIN, "failover", "get", "-", "-o", "json"], input: () => `${getIds.slice(0, n).join("\n")}\n`, check: expectN(n) })),
    ...SIZES.map((n) => ({ key: `del${n}`, n, name: `edgectl failover delete - --yes (N=${n})`, cmd: NODE, args: [BIN, "failover", "delete", "-", "--yes", "-o", "json"], input: async () => `${(await createIds(emu.url, n)).join("\n")}\n`, check: expectN(n) })),
    ...SIZES.map((n) => ({
      key: `ngrok${n}`,
      n,
      name: `@ngrok/ngrok-api: ${n} gets, one process`,
      cmd: NODE,
      args: [join(ROOT, "bench", "ngrok-gets.mjs"), emu.url, join(work, `ids-${n}.txt`)],
      check: (res) => {
        if (res.stdout.trim() !== String(n)) throw new Error(`got ${res.stdout.trim()} of ${n}`);
      },
    })),
  ];
  const times = Object.fromEntries(plan.map((p) => [p.key, []]));
  const ratios = Object.fromEntries(plan.map((p) => [p.key, []]));
  for (let round = -1; round < ROUNDS; round++) {
    const t = {};
    const all = round < 0 || round % 3 === 0;
    for (const p of plan) {
      if (!p.everyRound && !all) continue;
      const input = p.input ? await p.input() : undefined;
      const res = mustSucceed(p.name, timed(p.cmd, p.args, { input, env }));
      p.check?.(res);
      t[p.key] = res.ms;
    }
    if (round < 0) continue; // warm-up
    for (const p of plan) {
      if (t[p.key] === undefined) continue;
      times[p.key].push(t[p.key]);
      ratios[p.key].push(t[p.key] / t.node);
    }
    if (!all) continue;
    // Linear growth: the cost of each further id, between batch sizes of the same round.
    marginals.small.push((t.del100 - t.del10) / 90);
    marginals.big.push((t.del1000 - t.del100) / 900);
  }
  nodeMedian = median(times.node);
  for (const p of plan) {
    const input = p.input ? await p.input() : undefined;
    batch[p.key] = summarize(p.name, times[p.key], { n: p.n, ratio: median(ratios[p.key]), rss: peakRss(p.cmd, p.args, { input, env }) });
  }

  // Loops of curl processes: one process per id, as a shell script would do it.
  if (CURL) {
    for (const n of SIZES) {
      const gets = [];
      const dels = [];
      for (let r = 0; r < CURL_RUNS[n]; r++) {
        gets.push(curlLoop(emu.url, "GET", getIds.slice(0, n), 200));
        dels.push(curlLoop(emu.url, "DELETE", await createIds(emu.url, n), 204));
      }
      batch[`curlget${n}`] = summarize(`curl loop: ${n} GETs`, gets, { n, ratio: median(gets) / nodeMedian, rss: peakRss(CURL, curlArgs("GET", `${emu.url}/backends/failover/${getIds[0]}`)) });
      batch[`curldel${n}`] = summarize(`curl loop: ${n} DELETEs`, dels, { n, ratio: median(dels) / nodeMedian });
      batch[`get${n}`].vsCurl = batch[`get${n}`].median / batch[`curlget${n}`].median;
      batch[`del${n}`].vsCurl = batch[`del${n}`].median / batch[`curldel${n}`].median;
    }
  }
  for (const n of SIZES) batch[`ngrok${n}`].vsCli = batch[`ngrok${n}`].median / batch[`get${n}`].median;
  for (const key of ["node", "version", "help", "get1", ...["get", "del", "curlget", "curldel", "ngrok"].flatMap((k) => SIZES.map((n) => `${k}${n}`))]) {
    if (batch[key]) addRow(batch[key]);
  }

  // Emulator throughput: keep-alive GETs from this process, 8 at a time.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let served = 0;
  const until = Date.now() + LOAD_SECONDS * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < until) {
        const r = await request(agent, emu.url, "GET", `/backends/failover/${getIds[served % 100]}`);
        if (r.status !== 200) throw new Error(`load GET answered ${r.status}`);
        served++;
      }
    }),
  );
  const perSecond = served / ((Date.now() - t0) / 1000);
  agent.destroy();
  rows.push({ name: `emulator: keep-alive GETs for ${LOAD_SECONDS} s (8 in flight)`, runs: 1, throughput: perSecond });
  log(`emulator: ${Math.round(perSecond)} requests/s`);
} finally {
  await emu.stop();
}

// The rate-limited batch: ids are made on an unlimited emulator with a state file, which a
// second emulator with --rate-limit then serves, so that making them does not use the limit.
const stateFile = join(work, "state.json");
const maker = await startEmulator(["--state", stateFile]);
const rateIds = await createIds(maker.url, RATE.ids);
await maker.stop();
const limited = await startEmulator(["--state", stateFile, "--rate-limit", `${RATE.requests}/${RATE.seconds}`]);
let rateRow;
try {
  log(`rate-limited batch: ${RATE.ids} deletes at ${RATE.requests}/${RATE.seconds} s (about ${Math.round((RATE.ids / RATE.requests - 1) * RATE.seconds)} s)…`);
  const res = timed(NODE, [BIN, "failover", "delete", "-", "--yes", "-o", "json"], { input: `${rateIds.join("\n")}\n`, env: cliEnv(limited.url) });
  const deleted = res.status === 0 ? JSON.parse(res.stdout).filter((d) => d.deleted).length : 0;
  const failed = (res.stderr.match(/"error"|error:/g) ?? []).length;
  const allowed = RATE.requests / RATE.seconds;
  const achieved = deleted / (res.ms / 1000);
  rateRow = summarize(`rate-limited: ${RATE.ids} deletes vs --rate-limit ${RATE.requests}/${RATE.seconds}`, [res.ms], {
    n: RATE.ids,
    note: `exit ${res.status}, ${deleted} deleted, ${failed} failed; ${achieved.toFixed(2)}/s of ${allowed.toFixed(2)}/s allowed (${Math.round((achieved / allowed) * 100)}%)`,
    deleted,
    failed,
    status: res.status,
    achievedShare: achieved / allowed,
  });
  addRow(rateRow);
} finally {
  await limited.stop();
}
rmSync(work, { recursive: true, force: true });

// ---------------------------------------------------------------- the table

const cpuModel = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();
const header = ["measurement", "runs", "median", "min – max", "× node -e 0", "per id", "compared", "peak RSS"];
const table = rows.map((r) => {
  if (r.throughput !== undefined) return [r.name, "1", `${Math.round(r.throughput)} req/s`, "", "", "", "", ""];
  return [
    r.name,
    String(r.runs),
    ms(r.median),
    r.runs > 1 ? `${ms(r.min)} – ${ms(r.max)}` : "",
    r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}×`,
    r.n ? ms(r.median / r.n) : "",
    r.vsCurl !== undefined ? `1/${(1 / r.vsCurl).toFixed(0)} of curl` : r.vsCli !== undefined ? `${r.vsCli.toFixed(2)}× edgectl` : "",
    r.rss === undefined ? "" : `${r.rss.toFixed(1)} MB`,
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
const out = [];
const curlVersion = CURL ? String(spawnSync(CURL, ["--version"]).stdout).split(" ")[1] : undefined;
out.push(`edgectl bench — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; node ${process.versions.node}; ${cpus().length} CPUs (nproc), ${cpuModel}; ${CURL ? `curl ${curlVersion} (${CURL})` : "curl not found: curl rows skipped"}`);
out.push("");
out.push(line(header));
out.push(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const row of table) out.push(line(row));
if (rateRow) out.push("", `rate-limited batch: ${rateRow.note}`);

// Goals (issue 4), checked against this run.
const goal = (ok, text) => out.push(`${ok ? "met   " : "MISSED"}  ${text}`);
out.push("", "goals (issue 4):");
goal(batch.version.ratio <= 1.2, `edgectl --version ≤ 1.2× node -e 0: ${batch.version.ratio.toFixed(2)}×`);
goal(batch.help.ratio <= 1.2, `edgectl --help ≤ 1.2×: ${batch.help.ratio.toFixed(2)}×`);
const single = batch.get1;
goal(single.ratio <= 1.5 && (single.rss ?? 0) <= 60, `failover get <id> ≤ 1.5× and ≤ 60 MB: ${single.ratio.toFixed(2)}×, ${single.rss?.toFixed(1) ?? "?"} MB`);
if (batch.curldel1000) goal(batch.del1000.median * 20 <= batch.curldel1000.median, `1000 deletes ≤ 1/20 of 1000 curl processes: 1/${(batch.curldel1000.median / batch.del1000.median).toFixed(0)}`);
const [small, big] = [median(marginals.small), median(marginals.big)];
goal(big <= 1.5 * small, `linear: each further id costs ${ms(big)} from N=100 to 1000 vs ${ms(small)} from N=10 to 100 (${(big / small).toFixed(2)}×, ≤ 1.5×)`);
if (rateRow) goal(rateRow.status === 0 && rateRow.deleted === RATE.ids && rateRow.failed === 0 && rateRow.achievedShare >= 0.85, `rate-limited batch: all ${RATE.ids} deleted, none failed, ≥ 85% of the allowed rate: ${rateRow.note}`);
const load = rows.find((r) => r.throughput !== undefined);
goal(load.throughput >= 3000, `emulator ≥ 3,000 requests/s: ${Math.round(load.throughput)}`);
out.push("", `bench took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${out.join("\n")}\n`);

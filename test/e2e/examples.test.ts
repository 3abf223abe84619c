// Every example runs (issue 26, item 1): each `$ edgectl …` line of every command's --help and
// each command line of the README's ```sh blocks runs in bash (-o pipefail, `edgectl` a command
// on PATH) against the emulator, and must exit as it says (0 unless a comment on it or just
// above it says `# exit N`). The examples of one help text, or of one README
// block, run in order in one shell (later lines use what earlier ones made: `$edge`,
// policy.yml, emu.url), with a fresh HOME, config folder, working folder and emulator of their
// own, so that one block's `delete - --yes` cannot race another's `list`. The emulator is
// in-process (no process of its own); the blocks run in parallel.
//
// bash runs every line as written (its pipes, redirections, `$(…)`, `&&`, `set -e`), but the
// `edgectl` it finds on PATH is a small bash script that hands its own process id over a
// loopback socket to this test, which reads that process's argv, environment, folder and stdin
// from /proc and runs the command in-process (src/app.ts's runApp); the script prints the
// captured stdout and stderr and exits with the command's code. So each line costs a bash, not
// a Node start-up (about 150 of them took most of this file's 17 s). What is about the process
// itself is tested elsewhere (CONTRIBUTING.md, Layout); only `edgectl emulator`, which runs
// until `kill %1`, starts the real bin/edgectl.js here.
//
// Placeholders are filled, never skipped: ids (`bkdfo_2abc`, `edghts_1`, `ep_2abc`…) become
// those of resources this test makes through the API, variables (`$SECRET`, `$EDGE`…) are set,
// and the files the examples name (policy.yml, ./gh.secret…) are written to the working folder,
// those the README shows inline (a ```yaml block whose info string names the file, such as
// ```yaml hooks.yml) as the README shows them. `jq` is the machine's, or, where there is none, a
// small node stand-in for the filters the examples use (EDGECTL_TEST_JQ_SHIM=1 forces it). Lines that need a terminal or
// run forever are listed in EXCEPTIONS with the reason; a listed line that no longer exists
// fails the test, so the list stays true.
import {
  chmodSync,
  constants,
  createReadStream,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, Socket, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runApp } from "../../src/app.js";
import { REGISTRY } from "../../src/commands/registry.js";
import type { InStream } from "../../src/io/iostreams.js";
import { runInProcess } from "../helpers/app.js";
import { BIN, NODE, baseEnv } from "../helpers/cli.js";
import { call, makeRoute, startInProcessEmulator } from "../helpers/emulator.js";

/** Lines not run, each with why. Matched against the example as written. */
const EXCEPTIONS: Record<string, string> = {
  "edgectl emulator --port 0": "runs until stopped (the CI lines of `emulator --help` start and stop one instead)",
  "edgectl emulator --port 8040 --state ./emulator-state.json --api-key test-key": "runs until stopped",
  "edgectl emulator --port 0 --edges read-only": "runs until stopped",
  "edgectl emulator --port 0 --traffic-port 0 --upstream https://app.internal=http://127.0.0.1:3000":
    "runs until stopped (test/emulator/traffic/process.test.ts runs it)",
  "edgectl emulator --port 0 --traffic-port 0 --jwks https://issuer.example/.well-known/jwks.json=./jwks.json":
    "runs until stopped (test/emulator/traffic/engine.test.ts serves a policy's keys from a file)",
  "edgectl emulator --port 4040 &                 # prints http://127.0.0.1:4040":
    "runs until stopped, on a fixed port; the test's emulator stands in for it (its URL replaces http://127.0.0.1:4040)",
  "edgectl auth login": "asks for the key on a terminal",
  "edgectl auth login                                   # asks for the key without echo":
    "asks for the key on a terminal",
  "edgectl failover delete bkdfo_2abc": "asks first on a terminal (without one it needs --yes)",
  'edgectl failover delete bkdfo_2abc                   # asks "Delete Failover backend bkdfo_2abc? [y/N]"':
    "asks first on a terminal (without one it needs --yes)",
  "edgectl endpoint delete ep_2abc": "asks first on a terminal (without one it needs --yes)",
  "edgectl webhook-verification delete edghts_1 edghtsrt_1": "asks first on a terminal (without one it needs --yes)",
  "edgectl webhook sign --provider github --secret s3cret --body '{\"a\":1}' --url http://127.0.0.1:3000/hook --send":
    "POSTs to a local app on a fixed port (test/commands/webhook/sign.test.ts sends to a server on port 0)",
  "source <(edgectl completion zsh)":
    "zsh's syntax, sourced in zsh (`edgectl completion zsh` itself runs in the line after it)",
};

/** Placeholder ids in the examples, by what stands for them. */
const PLACEHOLDERS: Record<string, keyof Fixtures> = {
  bkdfo_2abc: "failover",
  bkdfo_123: "failover",
  edghts_1: "edge",
  edghts_2abc: "edge",
  edghtsrt_1: "route",
  edgtcp_3def: "tcpEdge",
  ep_2abc: "endpoint",
  ep_1: "endpoint",
  "http://127.0.0.1:4040": "url",
};

interface Fixtures {
  url: string;
  failover: string;
  /** A Failover backend without a description. */
  bare: string;
  edge: string;
  route: string;
  tcpEdge: string;
  endpoint: string;
}

const POLICY = `# GitHub webhooks: verified, then forwarded to the agents; anything else is 404.
on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github
          secret: first-secret
      - type: forward-internal
        config:
          url: https://hooks.internal
  - name: not found
    actions:
      - type: custom-response
        config:
          status_code: 404
`;
const TCP_POLICY = JSON.stringify({ on_tcp_connect: [{ actions: [{ type: "deny" }] }] });

/** The files the examples name, as the working folder of each block holds them. */
const FILES: Record<string, string> = {
  "policy.yml": POLICY,
  "p.yml": POLICY,
  "internal.yml": POLICY,
  "policy.json": JSON.stringify({
    on_http_request: [{ actions: [{ type: "forward-internal", config: { url: "https://api-v2.internal" } }] }],
  }),
  "tls-policy.json": TCP_POLICY,
  "tcp-policy.json": TCP_POLICY,
  "gh.secret": "gh-secret",
  "meta.json": '{"team": "edge"}',
  "key.txt": "staging-key\n",
};

/** The files the README shows inline: each ```yaml (or ```json, ```http) block whose info string names a file. */
function readmeFiles(readme: string): Record<string, string> {
  const files: Record<string, string> = {};
  const re = /^```(?:yaml|json|http) ([\w.-]+)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(readme); m; m = re.exec(readme)) files[m[1]!] = m[2]!;
  return files;
}

/** Variables the examples read, as a CI job would set them. */
const VARIABLES = (f: Fixtures): Record<string, string> => ({
  SECRET: "whsec-example",
  STRIPE_SECRET: "whsec-stripe",
  GH_SECRET: "gh-secret",
  WEBHOOK_SECRET: "whsec-example",
  NGROK_API_KEY: "ci-key",
  PRIMARY: "bkdhr_primary",
  STANDBY: "bkdhr_standby",
  CI_COMMIT: "abc123",
  EDGE: f.edge,
  ROUTE: f.route,
  ID: f.failover,
  old_id: f.bare,
});

interface Example {
  /** The line as written (without `$ `). */
  text: string;
  expectedExit: number;
}

interface Block {
  name: string;
  source: "help" | "README";
  examples: Example[];
}

const exitIn = (comment: string): number | undefined => {
  const m = /#.*\bexit (\d+)\b/.exec(comment);
  return m ? Number(m[1]) : undefined;
};

/** The examples of a help text: its `$ …` lines after "Examples:", `# …` lines as comments. */
function helpExamples(help: string): Example[] {
  const examples: Example[] = [];
  let comment = "";
  for (const line of help.slice(help.indexOf("\nExamples:\n")).split("\n")) {
    const m = /^ {2}(\$ |# )(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === "# ") comment = m[2]!;
    else {
      examples.push({ text: m[2]!, expectedExit: exitIn(m[2]!) ?? exitIn(comment) ?? 0 });
      comment = "";
    }
  }
  return examples;
}

/**
 * The command lines of the README's ```sh blocks that run edgectl (a block of `$ ` lines and
 * their output: the `$ ` lines; any other block: every line that is not a comment), each
 * block's lines in order. A block that never names edgectl (the development commands) is not one.
 */
function readmeBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  const re = /^```sh\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(readme); m; m = re.exec(readme)) {
    const lines = m[1]!.split("\n").filter((l) => l.trim() !== "");
    if (!lines.some((l) => /\bedgectl\b/.test(l) && !l.trimStart().startsWith("#"))) continue;
    if (lines.some((l) => /^\s*(npm|npx) /.test(l))) continue;
    const prompted = lines.some((l) => l.startsWith("$ "));
    const examples: Example[] = [];
    let comment = "";
    for (const line of lines) {
      if (line.startsWith("#")) comment = line;
      else if (!prompted || line.startsWith("$ ")) {
        const text = prompted ? line.slice(2) : line;
        examples.push({ text, expectedExit: exitIn(text) ?? exitIn(comment) ?? 0 });
        comment = "";
      }
    }
    const at = readme.slice(0, m.index).split("\n").length;
    blocks.push({ name: `README.md line ${at}`, source: "README", examples });
  }
  return blocks;
}

async function helpBlocks(configDir: string): Promise<Block[]> {
  const commands = [[], ...REGISTRY.map((e) => e.command.split(" "))];
  return Promise.all(
    commands.map(async (words) => {
      const r = await runInProcess([...words, "--help"], { configDir });
      if (r.exitCode !== 0) throw new Error(`edgectl ${words.join(" ")} --help exited ${r.exitCode}: ${r.stderr}`);
      return {
        name: `edgectl ${[...words, "--help"].join(" ")}`,
        source: "help" as const,
        examples: helpExamples(r.stdout),
      };
    }),
  );
}

/** A jq for the filters the examples use, for machines without one: `.a.b[]`, `.[0]`, `select(.k == v)`, `length`, `|`. */
const JQ_SHIM = String.raw`
const args = process.argv.slice(2);
const raw = args.includes("-r"), compact = args.includes("-c");
const [filter, file] = args.filter((a) => !/^-[rc]$/.test(a));
const text = file ? require("node:fs").readFileSync(file, "utf8") : require("node:fs").readFileSync(0, "utf8");
const split = (s) => { const out = []; let depth = 0, quote = false, start = 0;
  for (let i = 0; i < s.length; i++) { const c = s[i];
    if (c === '"' && s[i - 1] !== "\\") quote = !quote;
    else if (!quote && c === "(") depth++; else if (!quote && c === ")") depth--;
    else if (!quote && depth === 0 && c === "|") { out.push(s.slice(start, i)); start = i + 1; } }
  return [...out, s.slice(start)].map((p) => p.trim()); };
const path = (p, v) => { let vals = [v]; if (p === ".") return vals;
  for (const [, name, iter, index] of p.matchAll(/\.?([A-Za-z_][\w]*)|(\[\])|\[(\d+)\]/g)) {
    vals = vals.flatMap((x) => iter ? Object.values(x ?? {}) : name ? [x?.[name] ?? null] : [x?.[Number(index)] ?? null]); }
  return vals; };
const stage = (s, v) => { if (s === "length") return [Array.isArray(v) || typeof v === "string" ? v.length : Object.keys(v ?? {}).length];
  const sel = /^select\((.+?) == (.+)\)$/.exec(s);
  if (sel) return path(sel[1], v)[0] === JSON.parse(sel[2]) ? [v] : [];
  if (!/^\.[\w.[\]]*$/.test(s)) { console.error("jq stand-in: unsupported filter " + s); process.exit(3); }
  return path(s, v); };
let vals = [JSON.parse(text)];
for (const s of split(filter)) vals = vals.flatMap((v) => stage(s, v));
for (const v of vals) console.log(raw && typeof v === "string" ? v : JSON.stringify(v, null, compact ? 0 : 2));
`;

let work: string;
let binDir: string;
let blocks: Block[] = [];
let inline: Record<string, string> = {};
let runner: Runner;

/** The commands the `edgectl` on PATH handed to this process: each ran in-process. */
interface Runner {
  server: Server;
  port: number;
  /** How many command lines ran in-process. */
  served: number;
}

/** A capture of everything a command writes, as bytes (no newline stripped: bash prints it as is). */
class Bytes {
  readonly isTTY = false;
  readonly chunks: Buffer[] = [];
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
    (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
    return true;
  }
}

/** The fields of a /proc file of NUL-separated strings. */
const nulSeparated = (file: string): string[] => {
  const parts = readFileSync(file, "utf8").split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
};

/**
 * The stdin of process `pid`, opened when a command first reads it (most never do), without
 * blocking a libuv thread on a pipe whose writer is another command of the same line: a pipe is
 * read as a socket, as src/files/read-bounded.ts reads a FIFO.
 */
function stdinOf(pid: number): { get(): InStream; close(): void } {
  let stream: (InStream & { destroy(): void }) | undefined;
  return {
    get() {
      if (!stream) {
        const fd = openSync(`/proc/${pid}/fd/0`, constants.O_RDONLY | constants.O_NONBLOCK);
        const stats = fstatSync(fd);
        stream =
          stats.isFIFO() || stats.isSocket()
            ? new Socket({ fd, readable: true, writable: false })
            : createReadStream("", { fd, autoClose: true });
      }
      return stream;
    },
    close: () => stream?.destroy(),
  };
}

/**
 * The server behind the `edgectl` on PATH: a client sends its process id and a line; this reads
 * its argv (after the script's path), environment and folder from /proc, runs the command
 * in-process, writes stdout and stderr to two files, and answers `<exit code> <out> <err>`.
 */
async function startRunner(script: string, outDir: string): Promise<Runner> {
  let count = 0;
  const state: Runner = { server: createServer(), port: 0, served: 0 };
  state.server.on("connection", (socket) => {
    let line = "";
    socket.setEncoding("utf8");
    socket.on("error", () => {});
    socket.on("data", (chunk: string) => {
      line += chunk;
      if (!line.includes("\n")) return;
      const pid = Number(line.slice(0, line.indexOf("\n")));
      socket.pause();
      void (async () => {
        const argv = nulSeparated(`/proc/${pid}/cmdline`);
        const args = argv.slice(argv.indexOf(script) + 1);
        const env = Object.fromEntries(
          nulSeparated(`/proc/${pid}/environ`).map((kv) => [
            kv.slice(0, kv.indexOf("=")),
            kv.slice(kv.indexOf("=") + 1),
          ]),
        );
        const stdout = new Bytes();
        const stderr = new Bytes();
        const stdin = stdinOf(pid);
        let code: number;
        try {
          code = await runApp(args, {
            env,
            cwd: readlinkSync(`/proc/${pid}/cwd`),
            stdout,
            stderr,
            get stdin() {
              return stdin.get();
            },
          });
        } catch (err) {
          stderr.write(`the in-process run threw: ${String(err)}\n`);
          code = 70;
        } finally {
          stdin.close();
        }
        const n = ++count;
        const out = join(outDir, `${n}.out`);
        const err = join(outDir, `${n}.err`);
        writeFileSync(out, Buffer.concat(stdout.chunks));
        writeFileSync(err, Buffer.concat(stderr.chunks));
        state.served++;
        socket.end(`${code} ${out} ${err}\n`);
      })();
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "edgectl-examples-"));
  // `edgectl` on PATH as an install puts it (a shell function would outlive `kill %1` as a
  // subshell's child), and jq where the machine has none. It runs each command in this process
  // (startRunner), except `edgectl emulator`: the emulator as a process, which `kill %1` stops.
  binDir = join(work, "bin");
  mkdirSync(binDir);
  const outDir = join(work, "out");
  mkdirSync(outDir);
  const shim = join(binDir, "edgectl");
  runner = await startRunner(shim, outDir);
  const { stdout: bash } = await execa("bash", ["-c", "command -v bash"]);
  writeFileSync(
    shim,
    [
      `#!${bash}`,
      `if [ "$1" = emulator ]; then exec "${NODE}" "${BIN}" "$@"; fi`,
      `exec 3<>/dev/tcp/127.0.0.1/${runner.port} || exit 125`,
      `echo $$ >&3`,
      // -u 3, not <&3: a redirection would stand fd 3 in for stdin while this process waits.
      `read -r -u 3 code out err`,
      `exec 3>&-`,
      `[ -s "$out" ] && cat "$out"`,
      `[ -s "$err" ] && cat "$err" >&2`,
      `exit "\${code:-125}"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const { exitCode } = await execa("bash", ["-c", "command -v jq"], { reject: false });
  if (exitCode !== 0 || process.env.EDGECTL_TEST_JQ_SHIM === "1") {
    writeFileSync(join(binDir, "jq.cjs"), JQ_SHIM);
    writeFileSync(join(binDir, "jq"), `#!/bin/sh\nexec "${NODE}" "${join(binDir, "jq.cjs")}" "$@"\n`, { mode: 0o755 });
  }
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  inline = readmeFiles(readme);
  const helpDir = join(work, "help-config");
  blocks = [...readmeBlocks(readme), ...(await helpBlocks(helpDir))].filter((b) => b.examples.length > 0);
});

afterAll(async () => {
  await new Promise((resolve) => runner.server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

async function makeFixtures(url: string): Promise<Fixtures> {
  const made = async (path: string, body: unknown): Promise<string> => {
    const r = await call(url, "POST", path, { body });
    if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${r.text}`);
    return r.json.id as string;
  };
  // Everything here can be migrated: the edges forward to a tunnel group that exists.
  const group = await made("/backends/tunnel_group", { labels: { app: "shop" } });
  const failover = await made("/backends/failover", { description: "eu pair", backends: [group] });
  const bare = await made("/backends/failover", { backends: [group] });
  const {
    edgeId: edge,
    routeId: route,
    webhook,
  } = await makeRoute(url, {
    edge: { hostports: ["app.example.com:443"] },
    route: { backend: { backend_id: group } },
  });
  const put = await call(url, "PUT", webhook, { body: { enabled: true, provider: "github", secret: "gh-secret" } });
  if (put.status !== 200) throw new Error(`PUT ${webhook} answered ${put.status}: ${put.text}`);
  const tcpEdge = await made("/edges/tcp", { hostports: ["1.tcp.ngrok.io:12345"], backend: { backend_id: group } });
  const endpoint = await made("/endpoints", {
    type: "cloud",
    url: "https://fixture.example.com",
    traffic_policy: POLICY,
  });
  await made("/endpoints", { type: "cloud", url: "https://other.example.com", traffic_policy: POLICY });
  return { url, failover, bare, edge, route, tcpEdge, endpoint };
}

const fill = (text: string, f: Fixtures): string =>
  text.replace(
    new RegExp(
      `(?<![\\w])(${Object.keys(PLACEHOLDERS)
        .map((k) => k.replace(/[.:/]/g, "\\$&"))
        .join("|")})(?![\\w])`,
      "g",
    ),
    (p) => f[PLACEHOLDERS[p]!],
  );

interface Outcome {
  example: Example;
  /** Its exit code; undefined when the shell stopped before it (a `set -e` line that failed). */
  exitCode?: number;
}

/** Runs a block's examples in order in one bash, each line's exit code written to a file. */
async function runBlock(block: Block): Promise<{ outcomes: Outcome[]; log: string }> {
  const dir = mkdtempSync(join(work, "block-"));
  const home = join(dir, "home");
  const cwd = join(dir, "cwd");
  const configDir = join(home, ".config", "edgectl");
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  mkdirSync(cwd);
  for (const [name, text] of Object.entries({ ...FILES, ...inline })) writeFileSync(join(cwd, name), text);
  const emu = await startInProcessEmulator();
  try {
    const f = await makeFixtures(emu.url);
    const config = join(configDir, "config.json");
    // The profiles the examples name (`--profile ci`, `--profile staging`) exist, as they would
    // for the reader; each points at the emulator, as any new one does through EDGECTL_BASE_URL.
    const profile = { api_key: "test-key", base_url: emu.url };
    writeFileSync(config, JSON.stringify({ profiles: { default: profile, ci: profile, staging: profile } }));
    chmodSync(config, 0o600);
    const results = join(dir, "results");
    const run = block.examples.filter((e) => !(e.text in EXCEPTIONS));
    const script = [...run.map((e, i) => `${fill(e.text, f)}\necho "${i} $?" >> "${results}"`), "exit 0"].join("\n");
    const env: Record<string, string | undefined> = {
      ...baseEnv(configDir),
      ...VARIABLES(f),
      EDGECTL_BASE_URL: emu.url,
      HOME: home,
      XDG_CONFIG_HOME: undefined,
      XDG_DATA_HOME: undefined,
      PATH: `${binDir}:${process.env.PATH}`,
    };
    // Output to a file, not a pipe, and a process group of its own: whatever an example leaves
    // running cannot hold the test, and is killed with the group.
    const log = join(dir, "log");
    const child = execa("bash", ["-o", "pipefail", "-c", script], {
      cwd,
      env,
      extendEnv: false,
      stdin: "ignore",
      stdout: { file: log },
      stderr: { file: log },
      detached: true,
      reject: false,
      timeout: 15_000,
    });
    const r = await child;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group is gone
    }
    let codes: string[] = [];
    try {
      codes = readFileSync(results, "utf8").trim().split("\n");
    } catch {
      // no line ran
    }
    const exits = new Map(codes.map((l) => l.split(" ").map(Number) as [number, number]));
    return {
      outcomes: run.map((example, i) => ({ example, exitCode: exits.get(i) })),
      log: `bash exited ${r.exitCode}${r.timedOut ? " (timed out)" : ""}\n${readFileSync(log, "utf8")}`,
    };
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `work` over `items`, at most `n` at a time, results in order. */
async function inParallel<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}

describe("every example runs", () => {
  it("each README and --help example exits as it says, against the emulator", async () => {
    const all = blocks.flatMap((b) => b.examples.map((e) => ({ ...e, source: b.source })));
    const help = all.filter((e) => e.source === "help");
    const readme = all.filter((e) => e.source === "README");
    // Enough of each that a broken extraction cannot pass with nothing run.
    expect(help.length).toBeGreaterThan(80);
    expect(readme.length).toBeGreaterThan(20);
    // The policy files the README's examples use are shown where they are used, and taken from there.
    expect(Object.keys(inline)).toEqual(expect.arrayContaining(["hooks.yml", "bad.yml", "problems.yml"]));
    const unused = Object.keys(EXCEPTIONS).filter((text) => !all.some((e) => e.text === text));
    expect(unused, "EXCEPTIONS lists lines no example has").toEqual([]);

    const ran = await inParallel(blocks, 6, async (block) => ({ block, ...(await runBlock(block)) }));
    const failures = ran.flatMap(({ block, outcomes, log }) =>
      outcomes
        .filter((o) => o.exitCode !== o.example.expectedExit)
        .map(
          (o) =>
            `${block.name}: ${o.example.text}\n  exited ${o.exitCode ?? "(did not run)"}, expected ${o.example.expectedExit}\n  ${log.trim().replace(/\n/g, "\n  ")}`,
        ),
    );
    expect(failures.join("\n\n")).toBe("");
    // Each `edgectl` of a line ran in this process (about 150 of them), none through Node's start-up.
    expect(runner.served).toBeGreaterThan(help.length + readme.length - Object.keys(EXCEPTIONS).length - 10);
  }, 60_000);
});

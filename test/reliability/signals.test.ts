// Ctrl-C (SIGINT) and SIGTERM abort an in-flight request: exit 130 at once, one line on
// stderr, nothing on stdout, no stack trace; and SIGTERM is heard while
// migrate edge plans nested failovers.
import { execFileSync, spawn as nodeSpawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, NODE, baseEnv } from "../helpers/cli.js";
import { FB, envFor, expectNoStack, out, sandbox, spawn, withServer, type CliSandbox } from "./support.js";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, route, tunnelGroup } from "../migrate/fixtures.js";
import { useFaultServer } from "../e2e/support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const COMMANDS: { name: string; args: string[] }[] = [
  { name: "get (GET)", args: ["failover", "get", "bkdfo_abc"] },
  { name: "create (POST)", args: ["failover", "create", "--backends", "bkdhr_a"] },
  { name: "list --all (GET)", args: ["failover", "list", "--all"] },
  {
    name: "webhook replace (PUT)",
    args: [
      "webhook-verification",
      "replace",
      "edghts_a",
      "edghtsrt_b",
      "--provider",
      "stripe",
      "--secret",
      "whsec_sig_12345",
    ],
  },
];

describe.concurrent("a signal while a request hangs", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const { name, args } of COMMANDS) {
      it(`${signal} during ${name}: exit 130 promptly, one line on stderr, empty stdout`, async () => {
        await withServer(async (server) => {
          server.fallback = () => ({ hang: true });
          const child = spawn(cli, args, { env: envFor(server) });
          await server.waitForRequests(1);
          child.kill(signal);
          // The request hangs for ever and --timeout is 30 s: a signal not heard at once would
          // end in exit 3 (timed out), not 130, so no clock is needed to tell.
          const r = await child;
          expect(r.exitCode).toBe(130);
          expect(out(r.stdout)).toBe("");
          const stderr = out(r.stderr);
          expect(stderr.trim().split("\n")).toHaveLength(1);
          expect(stderr.trimStart()).toMatch(/^error: interrupted/);
          expect(stderr).toContain(signal);
          expectNoStack(stderr);
          expect(server.requests).toHaveLength(1);
        });
      });
    }
  }

  it("SIGINT while waiting to retry: exit 130 at once, no further attempt", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 503,
        headers: { "Retry-After": "30" },
        body: { status_code: 503, msg: "later" },
      });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "--timeout", "120"], { env: envFor(server) });
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 200));
      child.kill("SIGINT");
      // Not heard at once, the retry would go out after 30 s: a second request, not exit 130.
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
      expect(server.requests).toHaveLength(1);
    });
  });

  it("with -o json the one stderr line is a JSON error of kind interrupted", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      await server.waitForRequests(1);
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
      const lines = out(r.stderr).trim().split("\n");
      expect(lines).toHaveLength(1);
      const parsed = JSON.parse(lines[0]!) as { error: { kind: string; message: string } };
      expect(parsed.error.kind).toBe("interrupted");
    });
  });

  it("stderr starts with `error:` when it is not a terminal (no leading blank line)", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ hang: true });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      await server.waitForRequests(1);
      child.kill("SIGINT");
      const r = await child;
      expect(out(r.stderr)).toMatch(/^error: interrupted \(SIGINT\)\n?$/);
    });
  });

  it("a stalled body (headers sent) is aborted just the same", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ stall: '{"id":"bkdfo_abc",' });
      const child = spawn(cli, ["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 100));
      child.kill("SIGTERM");
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(out(r.stdout)).toBe("");
    });
  });
});

describe("a signal while the result is still draining to a slow reader", () => {
  it("the result already being written is let through whole: valid JSON on stdout, exit 130", async () => {
    await withServer(async (server) => {
      const many = Array.from({ length: 2000 }, (_, i) => ({ ...FB, id: `bkdfo_${i}`, description: "d".repeat(200) }));
      server.fallback = () => ({ status: 200, body: { backends: many, uri: "u", next_page_uri: null } });
      // node's own spawn: nobody reads stdout until after the signal, so the pipe (64 KiB) fills.
      const child = nodeSpawn(process.execPath, [BIN, "failover", "list", "-o", "json"], {
        env: { ...baseEnv(cli.configDir), ...envFor(server) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const closed = new Promise((resolve) => child.stdout.on("close", resolve));
      await server.waitForRequests(1);
      // The answer is in and being written: its first bytes wait, unread, in the pipe (a fixed
      // wait here was a guess at how long parsing 2,000 backends takes on a loaded machine).
      for (let i = 0; i < 400 && child.stdout.readableLength === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(child.stdout.readableLength, "the child began writing its result").toBeGreaterThan(0);
      child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 300));
      const chunks: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => chunks.push(c));
      const code = await exited;
      await closed;
      const stdout = Buffer.concat(chunks).toString("utf8");
      expect(code).toBe(130);
      expect(stdout.length).toBeGreaterThan(200_000);
      expect((JSON.parse(stdout) as unknown[]).length).toBe(2000);
      expect(JSON.parse(stderr.trim()).error.kind).toBe("interrupted");
    });
  });
});

describe("a signal while ids are still coming in on stdin", () => {
  // A pipe is read as a stream, not at once: a blocking read would hold the signal until the
  // writer closes the pipe (`slow-producer | edgectl failover get -` under `timeout`).
  it("SIGTERM while the writer holds the pipe open: exit 130, nothing sent, empty stdout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "edgectl-fifo-"));
    const fifo = join(dir, "ids");
    execFileSync("mkfifo", [fifo]); // a real pipe, as a shell's `|` gives (node's "pipe" is a socket)
    try {
      await withServer(async (server) => {
        const child = nodeSpawn("sh", ["-c", 'exec "$0" "$1" failover get - --debug < "$2"', NODE, BIN, fifo], {
          env: { ...baseEnv(cli.configDir), ...envFor(server) },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const writer = await open(fifo, "w");
        await writer.write(`${FB.id}\n`); // and no end: the writer is still writing
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        const started = new Promise<void>((resolve) =>
          child.stderr.on("data", (c: Buffer) => {
            stderr += c.toString();
            if (stderr.includes("debug: code cache")) resolve();
          }),
        );
        const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
        await started;
        await new Promise((r) => setTimeout(r, 500)); // past start-up: its handlers are installed
        child.kill("SIGTERM");
        const code = await exited;
        await writer.close();
        expect(code).toBe(130);
        expect(stdout).toBe("");
        expect(stderr).toMatch(/^error: interrupted \(SIGTERM\)$/m);
        expect(server.requests).toHaveLength(0);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SIGTERM while planning nested repeating failovers", () => {
  const suite = useFaultServer("key_migrate_sigterm_1");

  it("is heard: once the last backend is read, the process ends (done, or 130), never spins on", async () => {
    const answers: Record<string, object> = {
      "/backends/tunnel_group/bkdtg_leaf": tunnelGroup("bkdtg_leaf", { service: "leaf" }),
    };
    let child = "bkdtg_leaf";
    for (let i = 0; i < 24; i++) {
      answers[`/backends/failover/bkdfo_${i}`] = failover(`bkdfo_${i}`, [child, child]);
      child = `bkdfo_${i}`;
    }
    answers["/edges/https/edghts_1"] = edge([route("edghtsrt_1", "path_prefix", "/", child)]);
    suite.server.fallback = (req): Reply =>
      answers[req.path] ? json(200, answers[req.path]!) : apiError(404, "Resource not found");
    const run = (suite.cli as CliSandbox).run(["migrate", "edge", "edghts_1", "-o", "json"], {
      env: { EDGECTL_API_KEY: "key_migrate_sigterm_1", EDGECTL_BASE_URL: suite.server.url },
    }) as ReturnType<CliSandbox["run"]> & { kill(signal: NodeJS.Signals): boolean };
    const leafRead = () => suite.server.requests.some((q) => q.path === "/backends/tunnel_group/bkdtg_leaf");
    for (let i = 0; i < 200 && !leafRead(); i++) await new Promise((r) => setTimeout(r, 25));
    run.kill("SIGTERM");
    const r = await run;
    expect([0, 130]).toContain(r.exitCode);
    // Each backend was read once: 1 edge + 24 failovers + 1 tunnel group.
    expect(suite.server.requests).toHaveLength(26);
  });
});

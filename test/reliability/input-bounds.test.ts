// Reads are bounded (issue 25, item 8), and reading hears the signals (item 7): what edgectl
// reads from a file or stdin is at most 16 MiB, and more is exit 2 naming the source, found
// while reading (memory stays bounded: the devices run under `ulimit -v`, where a reader that
// keeps everything dies); a FIFO whose writer is slow is read without blocking the signals.
import { execFileSync, spawn as nodeSpawn } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputTooLargeError, MAX_INPUT_BYTES, readFileBounded } from "../../src/files/read-bounded.js";
import { BIN, NODE, baseEnv } from "../helpers/cli.js";
import { expectCleanError, out, sandbox, type CliSandbox } from "./support.js";

let cli: CliSandbox;
let dir: string;
beforeAll(() => {
  cli = sandbox();
  dir = mkdtempSync(join(tmpdir(), "edgectl-bounds-"));
});
afterAll(() => {
  cli.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Once edgectl has exited, lets a writer's open of `fifo` go on: an open for writing waits for a
 * reader, and one left waiting (edgectl died before it opened the FIFO) holds the test's worker.
 */
function releaseWriter(exited: Promise<unknown>, fifo: string): void {
  void exited.then(() => {
    try {
      closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch {
      // no FIFO left: nothing waits on it
    }
  });
}

const LIMIT = /is more than 16 MiB, the most edgectl reads from a file or stdin/;

/**
 * Runs the CLI in a shell under a 4 GB address-space limit: a reader that keeps 16.8 GB dies, and
 * Node 24 starts (its V8 reserves more than 1 GB of address space for code at start-up).
 */
function bounded(
  script: string,
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = nodeSpawn("sh", ["-c", `ulimit -v 4000000; ${script}`, NODE, BIN, ...args], {
    env: { ...baseEnv(cli.configDir), EDGECTL_API_KEY: "key_bounds_1234567890" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const expectRefused = (
  r: { code: number | null; stdout: string; stderr: string },
  source: string,
  label: string,
): void => {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expectCleanError(r.stderr);
  expect(r.stderr).toMatch(LIMIT);
  expect(r.stderr).toContain(`error: ${label}: ${source} is more than`);
};

describe("what is read from a file or stdin is at most 16 MiB", () => {
  it.concurrent.each([
    ["policy check", ["policy", "check", "/dev/zero"], "<file>"],
    ["api --input", ["api", "POST", "/endpoints", "--input", "/dev/zero"], "--input"],
    [
      "endpoint create --traffic-policy-file",
      ["endpoint", "create", "--url", "https://a.example.com", "--traffic-policy-file", "/dev/zero", "--dry-run"],
      "--traffic-policy-file",
    ],
    [
      "webhook-verification replace --secret-file",
      [
        "webhook-verification",
        "replace",
        "edghts_a",
        "edghtsrt_b",
        "--provider",
        "stripe",
        "--secret-file",
        "/dev/zero",
        "--dry-run",
      ],
      "--secret-file",
    ],
  ])("%s /dev/zero: exit 2 naming it, memory bounded", async (_name, args, label) => {
    expectRefused(await bounded('exec "$0" "$@"', args), "/dev/zero", label);
  });

  it.concurrent.each([
    ["policy check -", ["policy", "check", "-"], "<file>"],
    ["api --input -", ["api", "POST", "/endpoints", "--input", "-"], "--input"],
    [
      "--secret-stdin",
      ["webhook-verification", "replace", "edghts_a", "edghtsrt_b", "--provider", "stripe", "--secret-stdin"],
      "--secret-stdin",
    ],
    ["failover get -", ["failover", "get", "-"], "<id>"],
  ])("%s with stdin from /dev/zero: exit 2 naming stdin", async (_name, args, label) => {
    expectRefused(await bounded('exec "$0" "$@" < /dev/zero', args), "stdin", label);
  });

  it("a pipe that gives more than 16 MiB on stdin: exit 2 naming stdin", async () => {
    // `cat` through a real pipe: process.stdin as a stream.
    expectRefused(await bounded('cat /dev/zero | "$0" "$@"', ["policy", "check", "-"]), "stdin", "<file>");
  });

  it("a file of 16 MiB and one byte, named or on stdin: exit 2 naming it", async () => {
    const file = join(dir, "big.yml");
    writeFileSync(file, Buffer.alloc(MAX_INPUT_BYTES + 1, "a"));
    expectRefused(await bounded('exec "$0" "$@"', ["policy", "check", file]), file, "<file>");
    expectRefused(await bounded(`exec "$0" "$@" < '${file}'`, ["policy", "check", "-"]), "stdin", "<file>");
  });

  it("a FIFO that gives more than 16 MiB: exit 2 naming it", async () => {
    const fifo = join(dir, "endless");
    execFileSync("mkfifo", [fifo]);
    const result = bounded('exec "$0" "$@"', ["policy", "check", fifo]);
    releaseWriter(result, fifo);
    const writer = await open(fifo, "w");
    const chunk = Buffer.alloc(1 << 20, "a");
    const writing = { stop: false };
    const written = (async () => {
      // EPIPE once it stops reading.
      while (!writing.stop) await writer.write(chunk).catch(() => (writing.stop = true));
    })();
    const r = await result;
    writing.stop = true;
    await written;
    await writer.close().catch(() => undefined);
    expectRefused(r, fifo, "<file>");
  });
});

describe("readFileBounded", () => {
  it("reads exactly the limit, and refuses one byte more", async () => {
    const file = join(dir, "ten");
    writeFileSync(file, "0123456789");
    expect((await readFileBounded(file, 10)).toString()).toBe("0123456789");
    await expect(readFileBounded(file, 9)).rejects.toBeInstanceOf(InputTooLargeError);
  });
});

describe("a signal while a file is still being read", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s while a FIFO's writer is slow: exit 130, kind interrupted, nothing on stdout (no `ok`)",
    async (signal) => {
      const fifo = join(dir, `slow-${signal}`);
      execFileSync("mkfifo", [fifo]);
      const child = nodeSpawn(NODE, [BIN, "policy", "check", fifo, "-o", "json"], {
        env: baseEnv(cli.configDir),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      releaseWriter(exited, fifo);
      // Opening a FIFO to write waits for its reader: once open, edgectl has started reading.
      const writer = await open(fifo, "w");
      await writer.write("on_http_request:\n"); // and the rest never comes while it runs
      await new Promise((r) => setTimeout(r, 200));
      child.kill(signal);
      // A read that holds the main thread holds the signal until the writer closes, which it
      // does only once edgectl has exited, or after 15 s: a hang, whatever comes after it.
      let hung = false;
      const timer = setTimeout(() => {
        hung = true;
        void writer.close().catch(() => undefined);
      }, 15_000);
      const code = await exited;
      clearTimeout(timer);
      await writer.close().catch(() => undefined);
      expect(hung).toBe(false);
      expect(code).toBe(130);
      expect(out(stdout)).toBe("");
      const error = JSON.parse(stderr.trim()) as { error: { kind: string; message: string } };
      expect(error.error.kind).toBe("interrupted");
      expect(error.error.message).toContain(signal);
    },
    30_000,
  );
});

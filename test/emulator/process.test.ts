// `edgectl emulator` as a process (the real bin/edgectl.js): one emulator per state file,
// where it says it listens, and inputs too large to hold it up.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { call, makeRoute, spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";

let cli: CliSandbox;
let dir: string;
beforeAll(async () => {
  cli = sandbox();
  dir = await mkdtemp(join(tmpdir(), "edgectl-emu-process-"));
});
afterAll(async () => {
  cli.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const create = async (emu: SpawnedEmulator, description: string) => {
  const r = await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"], description } });
  expect(r.status).toBe(201);
  return r.json.id as string;
};
const ids = async (emu: SpawnedEmulator) =>
  ((await call(emu.url, "GET", "/backends/failover?limit=100")).json.backends as { id: string }[]).map((b) => b.id);

/** The child's stderr once it holds `pattern`, or what it holds after `ms` (so a test without it fails, and stops its child). */
const stderrUntil = (emu: SpawnedEmulator, pattern: RegExp, ms = 10_000) =>
  new Promise<string>((resolve) => {
    let text = "";
    const done = () => {
      clearTimeout(timer);
      emu.process.stderr!.off("data", onData);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (pattern.test(text)) done();
    };
    const timer = setTimeout(done, ms);
    emu.process.stderr!.on("data", onData);
  });

describe("a second emulator on the same --state file", () => {
  it("refuses to start (exit 2, naming the process that holds it), so no acknowledged write is lost", async () => {
    const file = join(dir, "shared.json");
    const first = await spawnEmulator(["--state", file]);
    const made: string[] = [];
    try {
      made.push(await create(first, "a1"), await create(first, "a2"));
      // Started (without the lock), it is stopped at once, and the test fails.
      const second = spawnEmulator(["--state", file]).then(async (emu) => {
        await emu.stop();
        return "started";
      });
      await expect(second).rejects.toThrow(
        new RegExp(
          `exited \\(code 2\\).*error: state file .*shared\\.json is in use by another emulator \\(process ${first.process.pid}\\b`,
          "s",
        ),
      );
      made.push(await create(first, "a3"));
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const again = await spawnEmulator(["--state", file]);
    try {
      expect((await ids(again)).sort()).toEqual([...made].sort());
    } finally {
      await again.stop();
    }
  });

  it("starts when the emulator that held the file was killed (a stale lock does not block)", async () => {
    const file = join(dir, "killed.json");
    const first = await spawnEmulator(["--state", file]);
    let id: string;
    try {
      id = await create(first, "kept");
      expect((await readFile(`${file}.lock`, "utf8")).trim()).toBe(String(first.process.pid));
    } finally {
      await first.stop("SIGKILL");
    }
    const next = await spawnEmulator(["--state", file]);
    try {
      expect(await ids(next)).toEqual([id]);
      expect((await readFile(`${file}.lock`, "utf8")).trim()).toBe(String(next.process.pid));
    } finally {
      expect(await next.stop()).toBe(0);
    }
  });

  it("lets exactly one of two emulators started at once take over a stale lock", async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(dir, `race-${round}.json`);
      await writeFile(`${file}.lock`, "999999999\n");
      const results = await Promise.allSettled([spawnEmulator(["--state", file]), spawnEmulator(["--state", file])]);
      const started = results.filter((r) => r.status === "fulfilled").map((r) => r.value);
      const refused = results.filter((r) => r.status === "rejected").map((r) => String(r.reason));
      try {
        expect(started).toHaveLength(1);
        expect(refused).toEqual([expect.stringMatching(/exited \(code 2\).*is in use by another emulator/s)]);
        expect((await readFile(`${file}.lock`, "utf8")).trim()).toBe(String(started[0]!.process.pid));
      } finally {
        for (const emu of started) await emu.stop();
      }
    }
  });

  it("starts over a lock naming no live process", async () => {
    const file = join(dir, "junk-lock.json");
    await writeFile(`${file}.lock`, "999999999\n");
    const emu = await spawnEmulator(["--state", file]);
    await emu.stop();
    await expect(readFile(`${file}.lock`)).rejects.toThrow(/ENOENT/);
  });
});

describe("--host 0.0.0.0", () => {
  it("prints a usable URL on stdout, and on stderr, at start, the real address and a warning", async () => {
    const emu = await spawnEmulator(["--host", "0.0.0.0"]);
    try {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = emu.url.split(":")[2];
      const stderr = await stderrUntil(emu, /reachable beyond this machine/);
      expect(stderr).toContain(`emulator: listening on 0.0.0.0:${port}`);
      expect(stderr).toContain(`warning: listening on 0.0.0.0:${port}: plain http, reachable beyond this machine`);
      expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
    } finally {
      await emu.stop();
    }
    expect(emu.stdoutLines).toEqual([emu.url]);
  });

  it("gives no warning on loopback", async () => {
    const emu = await spawnEmulator([]);
    await emu.stop();
    const { stderr } = await emu.process;
    expect(String(stderr)).toMatch(/^emulator: listening on 127\.0\.0\.1:\d+, at http:\/\/127\.0\.0\.1:\d+ /);
    expect(String(stderr)).not.toContain("warning");
  });
});

describe("a provider name of 500 KB", () => {
  it("gets its 400 from the emulator at once, without the name echoed whole, and the emulator serves on", async () => {
    const emu = await spawnEmulator([]);
    try {
      const { webhook } = await makeRoute(emu.url);
      const provider = "github".repeat(85_000);
      const [refused, other] = await Promise.all([
        call(emu.url, "PUT", webhook, { body: { enabled: true, provider, secret: "s" }, timeoutMs: 5_000 }),
        call(emu.url, "GET", "/backends/failover", { timeoutMs: 5_000 }),
      ]);
      expect(refused.status).toBe(400);
      expect(refused.json.error_code).toBe("ERR_NGROK_215");
      expect(refused.json.msg).toMatch(
        /^provider "[a-z]{64}"… \(510000 bytes\) is not a supported webhook verification provider/,
      );
      expect(refused.text.length).toBeLessThan(1000);
      expect(other.status).toBe(200);
    } finally {
      await emu.stop();
    }
  });

  it("is refused by the CLI (exit 2) without the name echoed whole", async () => {
    const provider = "github".repeat(20_000); // 120 KB, near the 128 KiB a single argument may be
    const r = await cli.run(
      [
        "webhook-verification",
        "replace",
        "edghts_1",
        "edghtsrt_1",
        "--provider",
        provider,
        "--secret",
        "s",
        "--dry-run",
      ],
      { timeoutMs: 5_000 },
    );
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/^error: --provider: "[a-z]{80}…" \(120000 bytes\) is not a supported provider/);
    expect(String(r.stderr).length).toBeLessThan(1000);
  });
});

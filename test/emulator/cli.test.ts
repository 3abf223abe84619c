// `edgectl emulator` as a user runs it: the real CLI in a child process. What it refuses before
// it starts (flags, a state file it cannot load) and its help are its command's, not its
// process's, and the commands that talk to it need no process of their own: those run the CLI
// in-process (test/helpers/app.ts).
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { call, spawnEmulator } from "../helpers/emulator.js";

let app: AppSandbox;
let dir: string;
beforeAll(async () => {
  app = appSandbox();
  dir = await mkdtemp(join(tmpdir(), "edgectl-emu-cli-"));
});
afterAll(async () => {
  app.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe("edgectl emulator", () => {
  it("prints its base URL as the only stdout line, serves the API, and exits 0 on SIGTERM", async () => {
    const emu = await spawnEmulator();
    try {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const created = await call(emu.url, "POST", "/backends/failover", {
        body: { backends: ["bkdhr_a"], description: "via cli" },
      });
      expect(created.status).toBe(201);
      expect(created.json.uri).toBe(`${emu.url}/backends/failover/${created.json.id}`);
    } finally {
      expect(await emu.stop("SIGTERM")).toBe(0);
    }
    expect(emu.stdoutLines).toEqual([emu.url]);
  });

  it("exits 0 on SIGINT (Ctrl-C)", async () => {
    const emu = await spawnEmulator();
    expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
    expect(await emu.stop("SIGINT")).toBe(0);
    const result = await emu.process;
    expect(String(result.stderr)).not.toMatch(/error|at .*\.js:\d+/);
  });

  it("is what edgectl's own commands talk to", async () => {
    const emu = await spawnEmulator();
    try {
      const env = { EDGECTL_BASE_URL: emu.url, EDGECTL_API_KEY: "any-key" };
      const created = await app.run(
        ["failover", "create", "--backends", "bkdhr_a,bkdtg_b", "--description", "e2e", "-o", "json"],
        { env },
      );
      expect(created.exitCode).toBe(0);
      const id = JSON.parse(String(created.stdout)).id as string;
      const listed = await app.run(["failover", "list", "-o", "json"], { env });
      expect(JSON.parse(String(listed.stdout)).map((b: { id: string }) => b.id)).toEqual([id]);
      const missing = await app.run(["failover", "get", "bkdfo_missing"], { env });
      expect(missing.exitCode).toBe(1);
      expect(String(missing.stderr)).toMatch(/404/);
    } finally {
      await emu.stop();
    }
  });

  it("takes its key from the global --api-key flag only, not from EDGECTL_API_KEY", async () => {
    const locked = await spawnEmulator(["--api-key", "emu-key"]);
    try {
      expect(
        (await call(locked.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer emu-key" } })).status,
      ).toBe(200);
      expect(
        (await call(locked.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer other" } })).status,
      ).toBe(401);
    } finally {
      await locked.stop();
    }
    const open = await spawnEmulator([], { env: { EDGECTL_API_KEY: "env-key" } });
    try {
      expect(
        (await call(open.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer other" } })).status,
      ).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it("keeps --state across a restart, even after kill -9 during a burst of writes", async () => {
    const file = join(dir, "kill9.json");
    const first = await spawnEmulator(["--state", file]);
    const acknowledged: string[] = [];
    let killed = false;
    // Eight clients create backends non-stop; the kill lands while some are mid-write.
    const workers = Array.from({ length: 8 }, async () => {
      while (!killed) {
        try {
          const r = await call(first.url, "POST", "/backends/failover", {
            body: { backends: ["bkdhr_a"], description: "x".repeat(100) },
          });
          if (r.status === 201) acknowledged.push(r.json.id);
        } catch {
          return; // cut off by the kill
        }
      }
    });
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    const exit = first.stop("SIGKILL");
    killed = true;
    await exit;
    await Promise.all(workers);

    const second = await spawnEmulator(["--state", file]);
    try {
      const listed = await call(second.url, "GET", "/backends/failover?limit=100");
      expect(listed.status).toBe(200);
      const saved = JSON.parse(await readFile(file, "utf8")).failover_backends.map((b: { id: string }) => b.id);
      // Everything acknowledged before the kill is there.
      for (const id of acknowledged) expect(saved).toContain(id);
      // A temp file the kill cut short was cleared away at start-up.
      expect((await readdir(dir)).filter((f) => f.startsWith(".kill9"))).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it.each([
    [["--port", "70000"], /--port/],
    [["--port", "abc"], /--port/],
    [["--rate-limit", "10"], /--rate-limit/],
    [["--rate-limit", "0/1"], /--rate-limit/],
    [["--rate-limit", "5/0"], /--rate-limit/],
  ])("refuses %j with exit 2 and a message naming the flag", async (args, why) => {
    const r = await app.run(["emulator", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(String(r.stderr)).toMatch(/^error: /);
    expect(String(r.stderr)).toMatch(why);
  });

  it("refuses a corrupt state file with exit 2, naming it, without a stack and without touching it", async () => {
    const file = join(dir, "corrupt.json");
    await writeFile(file, "{ half a file");
    const r = await app.run(["emulator", "--port", "0", "--state", file]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(String(r.stderr)).toContain(file);
    expect(String(r.stderr)).toMatch(/corrupt/);
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
    expect(await readFile(file, "utf8")).toBe("{ half a file");
  });

  it("answers 429 past its --rate-limit", async () => {
    const emu = await spawnEmulator(["--rate-limit", "2/60"]);
    try {
      expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
      expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
      const r = await call(emu.url, "GET", "/backends/failover");
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await emu.stop();
    }
  });

  it("--edges read-only refuses writes under /edges with ERR_NGROK_7196 and says so on stderr", async () => {
    const emu = await spawnEmulator(["--edges", "read-only"]);
    try {
      expect((await call(emu.url, "GET", "/edges/https")).status).toBe(200);
      const r = await call(emu.url, "POST", "/edges/https", { body: {} });
      expect(r.status).toBe(403);
      expect(r.json.error_code).toBe("ERR_NGROK_7196");
    } finally {
      await emu.stop();
    }
    expect(String((await emu.process).stderr)).toMatch(/edges read-only/);
  });

  it("--edges retired answers ERR_NGROK_7008 under /backends, and edgectl reports it as an API error", async () => {
    const emu = await spawnEmulator(["--edges", "retired"]);
    try {
      const r = await app.run(["failover", "list", "-o", "json"], {
        env: { EDGECTL_BASE_URL: emu.url, EDGECTL_API_KEY: "k" },
      });
      expect(r.stdout).toBe("");
      expect(String(r.stderr)).toContain("ERR_NGROK_7008");
    } finally {
      await emu.stop();
    }
  });

  it.each([["gone"], [""]])("refuses --edges %j with exit 2, naming the flag and the choices", async (value) => {
    const r = await app.run(["emulator", "--port", "0", "--edges", value]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(String(r.stderr)).toMatch(/--edges: .* must be retired or read-only/);
  });

  it("shows examples at the end of its help", async () => {
    const r = await app.run(["emulator", "--help"]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/Examples:\n(.*\n)*\s+\$ edgectl emulator --port 0/);
    expect(String(r.stdout).trimEnd().split("\n").at(-1)).toMatch(/^\s+\$ /);
  });
});

describe("edgectl emulator --state with an empty file", () => {
  it.each([
    ["empty", "empty.json", ""],
    ["whitespace only", "blank.json", "  \n\t\n"],
  ])(
    "refuses a state file that is %s with exit 2, naming it, without a stack and without touching it",
    async (_what, name, content) => {
      const file = join(dir, name);
      await writeFile(file, content);
      // Were the file taken as empty state, the emulator would start and serve: the test times out.
      const r = await app.run(["emulator", "--port", "0", "--state", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(String(r.stderr)).toMatch(/^error: /);
      expect(String(r.stderr)).toContain(file);
      expect(String(r.stderr)).toMatch(/corrupt/);
      expect(String(r.stderr)).not.toMatch(/\n\s+at /);
      expect(await readFile(file, "utf8")).toBe(content);
    },
  );

  it("still starts empty from a state path that does not exist yet, and creates it on the first change", async () => {
    const sub = await mkdtemp(join(dir, "fresh-"));
    const file = join(sub, "state.json");
    const emu = await spawnEmulator(["--state", file]);
    try {
      expect((await call(emu.url, "GET", "/backends/failover")).json.backends).toEqual([]);
      await expect(stat(file)).rejects.toThrow();
      expect((await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } })).status).toBe(201);
      expect(JSON.parse(await readFile(file, "utf8")).failover_backends).toHaveLength(1);
    } finally {
      expect(await emu.stop("SIGTERM")).toBe(0);
    }
    expect(await readdir(sub)).toEqual(["state.json"]);
  });
});

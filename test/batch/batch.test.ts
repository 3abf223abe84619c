// Many ids at once (`failover get|delete <id>… | -`): the CLI against the emulator, a
// rate-limited server, and a scripted server for what the emulator cannot do (slow answers out
// of order, resets, refused keys). No timing thresholds: only behaviour. The CLI runs in-process
// (test/helpers/app.ts), but for what needs a process: a file as stdin itself (`- < ids.txt`)
// and a result far bigger than a pipe's buffer (`runBin`, the real bin).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { call, spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";
import { apiError, json, startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";

const KEY = "key_batch_tests_12345";
let app: AppSandbox;
let cli: CliSandbox;
beforeAll(() => {
  app = appSandbox();
  cli = sandbox();
});
afterAll(() => {
  app.cleanup();
  cli.cleanup();
});

interface Result {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}
/** The CLI in-process. */
async function run(baseUrl: string, args: string[], opts: RunOptions = {}): Promise<Result> {
  return app.run(args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: baseUrl, ...opts.env } });
}
/** The real bin, for what only a process shows (a file as stdin itself, a pipe's buffer). */
async function runBin(baseUrl: string, args: string[], opts: RunOptions = {}): Promise<Result> {
  const r = await cli.run(args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: baseUrl, ...opts.env } });
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") };
}

/** Creates n Failover backends on the emulator, 25 at a time; returns their ids in order. */
async function createIds(base: string, n: number, metadata = ""): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 25) {
    const made = await Promise.all(
      Array.from({ length: Math.min(25, n - i) }, (_, j) =>
        call(base, "POST", "/backends/failover", {
          body: { backends: ["bkdhr_a"], description: `n${i + j}`, metadata },
        }),
      ),
    );
    for (const r of made) {
      expect(r.status).toBe(201);
      ids.push((r.json as { id: string }).id);
    }
  }
  return ids;
}

/** The ID column of a table, in order. */
const tableIds = (stdout: string) =>
  stdout
    .split("\n")
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split(/\s+/)[0]);

/** Shuffles deterministically (the same order every run). */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("against the emulator", () => {
  // A process of its own: the 1000-id case keeps it busy while the bin reads its answers.
  let emu: SpawnedEmulator;
  beforeAll(async () => {
    emu = await spawnEmulator();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await emu?.stop();
  });

  it("get prints results in the order the ids were given (JSON array, table rows)", async () => {
    const ids = shuffled(await createIds(emu.url, 30));
    const asJson = await run(emu.url, ["failover", "get", ...ids, "-o", "json"]);
    expect(asJson.stderr).toBe("");
    expect(asJson.exitCode).toBe(0);
    const list = JSON.parse(asJson.stdout) as { id: string; description: string }[];
    expect(list.map((b) => b.id)).toEqual(ids);

    const asTable = await run(emu.url, ["failover", "get", ...ids, "--concurrency", "5"]);
    expect(asTable.exitCode).toBe(0);
    expect(asTable.stdout.split("\n")[0]).toMatch(/^ID\s+DESCRIPTION\s+BACKENDS\s+CREATED$/);
    expect(tableIds(asTable.stdout)).toEqual(ids);
  });

  it("reads ids from stdin with `-`, one per line, trimming blanks and CRLF", async () => {
    const ids = await createIds(emu.url, 5);
    const input = `\n  ${ids[0]}  \r\n${ids.slice(1).join("\n")}\n\n`;
    const r = await run(emu.url, ["failover", "get", "-", "-o", "json"], { input });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((b) => b.id)).toEqual(ids);
  });

  it("reads ids from a file redirected to stdin (`- < ids.txt`) just the same", async () => {
    const ids = await createIds(emu.url, 5);
    const file = join(cli.configDir, "ids.txt");
    writeFileSync(file, `${ids[0]}\r\n\n${ids.slice(1).join("\n")}`);
    const r = await runBin(emu.url, ["failover", "get", "-", "-o", "json"], { inputFile: file });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((b) => b.id)).toEqual(ids);
    writeFileSync(file, "\n");
    const empty = await runBin(emu.url, ["failover", "get", "-"], { inputFile: file });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("no ids on stdin");
  });

  it("a single id on stdin still prints a list (one array), so scripts see one shape", async () => {
    const [id] = await createIds(emu.url, 1);
    const r = await run(emu.url, ["failover", "get", "-", "-o", "json"], { input: `${id}\n` });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id })]);
  });

  it("delete takes ids from stdin and reports each one deleted, in order", async () => {
    const ids = shuffled(await createIds(emu.url, 12));
    const r = await run(emu.url, ["failover", "delete", "-", "--yes", "-o", "json"], { input: `${ids.join("\n")}\n` });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ids.map((id) => ({ id, deleted: true })));
    for (const id of ids) expect((await call(emu.url, "GET", `/backends/failover/${id}`)).status).toBe(404);
  });

  it("a failed id is reported on stderr, the others go on, and the exit code is 1", async () => {
    const ids = await createIds(emu.url, 4);
    const missing = ["bkdfo_doesnotexist1", "bkdfo_doesnotexist2"];
    const given = [ids[0]!, missing[0]!, ids[1]!, ids[2]!, missing[1]!, ids[3]!];
    const r = await run(emu.url, ["failover", "get", ...given]);
    expect(r.exitCode).toBe(1);
    // stdout: the ones found, in the order given.
    expect(tableIds(r.stdout)).toEqual(ids);
    // stderr: one line per failed id, naming it, then a count; nothing about the others.
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(3);
    missing.forEach((id, i) => {
      expect(lines[i]).toMatch(new RegExp(`^error: ${id}: .*HTTP 404`));
    });
    expect(lines[2]).toMatch(/^error: 2 of 6 ids could not be read/);
    for (const id of ids) expect(r.stderr).not.toContain(id);

    // Deleting goes on past the missing ones too, and the found ones are gone.
    const del = await run(emu.url, ["failover", "delete", ...given, "--yes", "-o", "json"]);
    expect(del.exitCode).toBe(1);
    expect(JSON.parse(del.stdout)).toEqual(ids.map((id) => ({ id, deleted: true })));
    const error = JSON.parse(del.stderr.trim()) as {
      error: { kind: string; details: { failures: { id: string; status_code: number }[] } };
    };
    expect(error.error.kind).toBe("api");
    expect(error.error.details.failures.map((f) => [f.id, f.status_code])).toEqual(missing.map((id) => [id, 404]));
    for (const id of ids) expect((await call(emu.url, "GET", `/backends/failover/${id}`)).status).toBe(404);
  });

  it("an invalid id among many is a usage error before anything is sent (exit 2)", async () => {
    const ids = await createIds(emu.url, 2);
    const r = await run(emu.url, ["failover", "delete", ids[0]!, "not-an-id", ids[1]!, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("not-an-id");
    for (const id of ids) expect((await call(emu.url, "GET", `/backends/failover/${id}`)).status).toBe(200);
  });

  it("a result far bigger than a pipe's buffer reaches stdout whole (300 ids, ~1.2 MB)", async () => {
    // 4 KB of metadata each: many times what the pipe or socket between two processes holds
    // (64 KiB a pipe, about 200 KiB each way a socket pair, as Node's stdio is, by default), so
    // exiting before stdout has drained would cut the document short.
    const ids = await createIds(emu.url, 300, "m".repeat(4000));
    const r = await runBin(emu.url, ["failover", "get", "-", "-o", "json"], { input: ids.join("\n") });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(1_200_000);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((b) => b.id)).toEqual(ids);
    const table = await runBin(emu.url, ["failover", "get", "-"], { input: ids.join("\n") });
    expect(table.exitCode).toBe(0);
    expect(tableIds(table.stdout)).toEqual(ids);
  });
});

describe("ids and --concurrency are checked before anything is sent", () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([["0"], ["65"], ["-1"], ["1.5"], ["abc"], ["8x"], [""]])("--concurrency %j: exit 2", async (value) => {
    server.requests.length = 0;
    const r = await run(server.url, ["failover", "get", "bkdfo_a", "bkdfo_b", "--concurrency", value]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/--concurrency/);
    expect(server.requests).toHaveLength(0);
  });

  it("`-` mixed with ids is refused without reading stdin", async () => {
    server.requests.length = 0;
    const r = await run(server.url, ["failover", "delete", "-", "bkdfo_a", "--yes"], { input: "bkdfo_b\n" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/`-`/);
    expect(server.requests).toHaveLength(0);
  });

  it("an empty stdin is refused", async () => {
    server.requests.length = 0;
    const r = await run(server.url, ["failover", "get", "-"], { input: "\n \n" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/no ids/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("against a scripted server", () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });
  const resource = (id: string) => ({
    id,
    uri: `http://x/backends/failover/${id}`,
    created_at: "2026-01-01T00:00:00Z",
    description: "",
    metadata: "",
    backends: ["bkdhr_a"],
  });
  const idOf = (path: string) => decodeURIComponent(path.split("/").pop() ?? "");

  it("keeps input order when answers arrive in reverse, and never has more than --concurrency in flight", async () => {
    server.requests.length = 0;
    const ids = Array.from({ length: 12 }, (_, i) => `bkdfo_order${i}`);
    let inFlight = 0;
    let most = 0;
    server.fallback = (req) => {
      const index = ids.indexOf(idOf(req.path));
      // Earlier ids answer later, so answers complete out of order.
      const delayMs = 20 + (ids.length - index) * 15;
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => inFlight--, delayMs); // fires just before the reply goes out
      return { ...json(200, resource(ids[index]!)), delayMs } as Reply;
    };
    const r = await run(server.url, ["failover", "get", ...ids, "--concurrency", "3", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((b) => b.id)).toEqual(ids);
    expect(server.requests).toHaveLength(ids.length);
    expect(most).toBe(3);
  });

  it("the exit code is the worst met: an API error and a connection failure → 3", async () => {
    server.requests.length = 0;
    server.fallback = (req) => {
      const id = idOf(req.path);
      if (id === "bkdfo_gone") return apiError(404, "Resource not found");
      if (id === "bkdfo_reset") return { reset: true };
      return json(200, resource(id));
    };
    const r = await run(server.url, [
      "failover",
      "get",
      "bkdfo_ok1",
      "bkdfo_gone",
      "bkdfo_reset",
      "bkdfo_ok2",
      "--retries",
      "0",
    ]);
    expect(r.exitCode).toBe(3);
    expect(tableIds(r.stdout)).toEqual(["bkdfo_ok1", "bkdfo_ok2"]);
    expect(r.stderr).toMatch(/^error: bkdfo_gone: .*HTTP 404/m);
    expect(r.stderr).toMatch(/^error: bkdfo_reset: /m);
  });

  it("…and with a refused key among them → 4", async () => {
    server.requests.length = 0;
    server.fallback = (req) => {
      const id = idOf(req.path);
      if (id === "bkdfo_gone") return apiError(404, "Resource not found");
      if (id === "bkdfo_denied") return apiError(403, "forbidden", "ERR_NGROK_201");
      return { status: 204 };
    };
    const r = await run(server.url, [
      "failover",
      "delete",
      "bkdfo_gone",
      "bkdfo_ok",
      "bkdfo_denied",
      "--yes",
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual([{ id: "bkdfo_ok", deleted: true }]);
    const error = JSON.parse(r.stderr.trim()) as {
      error: { kind: string; details: { failures: { id: string; kind: string }[] } };
    };
    expect(error.error.kind).toBe("auth");
    expect(error.error.details.failures.map((f) => [f.id, f.kind])).toEqual([
      ["bkdfo_gone", "api"],
      ["bkdfo_denied", "auth"],
    ]);
  });

  it("a 429 in a batch waits (Retry-After) and does not use up --retries (when retries are on)", async () => {
    server.requests.length = 0;
    const limited = new Set<string>();
    server.fallback = (req) => {
      const id = idOf(req.path);
      // Each id is refused twice with 429 before it goes through.
      const seen = server.requests.filter((q) => idOf(q.path) === id).length;
      if (seen <= 2) {
        limited.add(id);
        return { ...apiError(429, "rate limited", "ERR_NGROK_226"), headers: { "Retry-After": "0" } } as Reply;
      }
      return { status: 204 };
    };
    const ids = ["bkdfo_r1", "bkdfo_r2", "bkdfo_r3", "bkdfo_r4"];
    // Two 429s each, but --retries 1: only the batch's free rate-limit waits get them through.
    const r = await run(server.url, ["failover", "delete", ...ids, "--yes", "--retries", "1", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ids.map((id) => ({ id, deleted: true })));
    expect([...limited].sort()).toEqual(ids);
    expect(server.requests).toHaveLength(ids.length * 3);
  });

  it("--retries 0 disables retries in a batch too: a 429'd id fails once, is reported, the others go on", async () => {
    server.requests.length = 0;
    server.fallback = (req) => {
      const id = idOf(req.path);
      if (id.startsWith("bkdfo_limited"))
        return { ...apiError(429, "rate limited", "ERR_NGROK_226"), headers: { "Retry-After": "0" } } as Reply;
      return { status: 204 };
    };
    const ids = ["bkdfo_ok1", "bkdfo_limited1", "bkdfo_ok2", "bkdfo_limited2", "bkdfo_ok3"];
    const limited = ids.filter((id) => id.includes("limited"));
    const ok = ids.filter((id) => !id.includes("limited"));
    const r = await run(server.url, ["failover", "delete", ...ids, "--yes", "--retries", "0", "-o", "json"]);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual(ok.map((id) => ({ id, deleted: true })));
    const error = JSON.parse(r.stderr.trim()) as {
      error: { kind: string; details: { failures: { id: string; status_code: number }[] } };
    };
    expect(error.error.kind).toBe("api");
    expect(error.error.details.failures.map((f) => [f.id, f.status_code])).toEqual(limited.map((id) => [id, 429]));
    // Each id was asked for exactly once: no retry, no free wait.
    expect(server.requests.map((q) => idOf(q.path)).sort()).toEqual([...ids].sort());

    // The table form names each 429'd id on stderr.
    server.requests.length = 0;
    const table = await run(server.url, ["failover", "delete", ...ids, "--yes", "--retries", "0"]);
    expect(table.exitCode).toBe(1);
    for (const id of limited) expect(table.stderr).toMatch(new RegExp(`^error: ${id}: .*HTTP 429`, "m"));
    expect(server.requests).toHaveLength(ids.length);
  });
});

describe("against the API's rate limit, which sends no Retry-After", () => {
  // The batch learns the limit from the 429s and keeps to it (test/api/pacing.test.ts has the
  // schedule on a virtual clock; test/batch/batch-client.test.ts the same batch in-process).
  it("90 deletes against 30 per second: all succeed, each id deleted exactly once", async () => {
    const limited = await startFaultServer({ rateLimit: { requests: 30, windowMs: 1000 } });
    try {
      limited.fallback = () => ({ status: 204 });
      const ids = Array.from({ length: 90 }, (_, i) => `bkdfo_${String(i).padStart(3, "0")}`);
      const r = await run(limited.url, ["failover", "delete", "-", "--yes", "-o", "json"], {
        input: ids.join("\n"),
        timeoutMs: 30_000,
      });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(ids.map((id) => ({ id, deleted: true })));
      const letIn = limited.requests.filter((q) => !q.rateLimited).map((q) => `${q.method} ${q.path}`);
      expect(letIn.sort()).toEqual(ids.map((id) => `DELETE /backends/failover/${id}`));
      expect(limited.requests.some((q) => q.rateLimited)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});

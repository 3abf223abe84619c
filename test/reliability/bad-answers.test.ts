// Bad answers from the server, through the whole CLI in-process (test/helpers/app.ts; the exit codes
// of a real process are test/e2e/exit-codes.test.ts's): one case per exit code (1 for an error status,
// 3 for an unusable success, 4 for a refused key), -o json, escapes, a batch and an endless
// body; a clear message with the status and a short escaped excerpt, never a crash, never
// half a result. The whole table of bad answers runs in-process (test/api/answers.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import type { Reply } from "../helpers/fault-server.js";
import { FB, envFor, expectCleanError, expectNoRawControl, out, withServer } from "./support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => cli.cleanup());

const HTML = `<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n${"<!-- padding -->\n".repeat(40)}</body></html>\n`;

const GET = ["failover", "get", "bkdfo_abc"];
const CREATE = ["failover", "create", "--backends", "bkdhr_a"];

interface Case {
  name: string;
  args: string[];
  reply: Reply;
  exit: number;
  /** Patterns stderr must match. */
  expect: RegExp[];
}

const CASES: Case[] = [
  {
    name: "200 with malformed JSON",
    args: GET,
    reply: { status: 200, body: '{"id":"bkdfo_abc",,}' },
    exit: 3,
    expect: [/200/, /not valid JSON/, /\{"id":"bkdfo_abc",,\}/],
  },
  {
    name: "201 with truncated JSON on create",
    args: CREATE,
    reply: { truncate: '{"id":"bkdfo_abc"', status: 201 },
    exit: 3,
    expect: [/connection lost|reading the response/],
  },
  {
    name: "502 HTML error page (after retries)",
    args: GET,
    reply: { status: 502, body: HTML, headers: { "Content-Type": "text/html", "Retry-After": "0" } },
    exit: 1,
    expect: [/HTTP 502/, /<!DOCTYPE html>/, /…/],
  },
  {
    name: "401 with HTML",
    args: GET,
    reply: { status: 401, body: "<html>denied</html>" },
    exit: 4,
    expect: [/HTTP 401/, /denied/],
  },
];

describe.concurrent("unusable answers", () => {
  for (const c of CASES) {
    it(`${c.name} → exit ${c.exit}`, async () => {
      await withServer(async (server) => {
        server.fallback = () => c.reply;
        const r = await cli.run([...c.args, "--retries", "1"], { env: envFor(server) });
        expect(r.exitCode).toBe(c.exit);
        expect(out(r.stdout)).toBe("");
        const stderr = out(r.stderr);
        expectCleanError(stderr);
        for (const re of c.expect) expect(stderr).toMatch(re);
        // A short excerpt: one line, never the whole page.
        expect(stderr.trim().split("\n")).toHaveLength(1);
        expect(stderr.length).toBeLessThan(800);
      });
    });
  }

  it("the 502 HTML page is retried first (--retries 2 → 3 requests), then reported", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 502,
        body: HTML,
        headers: { "Content-Type": "text/html", "Retry-After": "0" },
      });
      const r = await cli.run([...GET, "--retries", "2"], { env: envFor(server) });
      expect(server.requests).toHaveLength(3);
      expect(r.exitCode).toBe(1);
      // The newlines of the page are shown escaped, not as line breaks.
      expect(out(r.stderr)).toContain("\\n");
    });
  });

  it("-o json: the failure is one JSON object on stderr with kind and status", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: "{nope" });
      const r = await cli.run([...GET, "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      const parsed = JSON.parse(out(r.stderr)) as { error: { kind: string; status_code?: number; message: string } };
      expect(parsed.error.kind).toBe("network");
      expect(parsed.error.status_code).toBe(200);
    });
  });

  it("an error msg with ANSI escapes shows escaped on stderr", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 400,
        body: {
          error_code: "ERR_NGROK_\x1b[5m1",
          status_code: 400,
          msg: "bad \x1b[31mred\x1b[0m \x1b]0;pwned\x07 \x9b2J thing",
          details: { operation_id: "op_\x1b[2J" },
        },
      });
      const r = await cli.run(GET, { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      const stderr = out(r.stderr);
      expectCleanError(stderr);
      expect(stderr).toContain("\\x1b[31mred\\x1b[0m");
      expect(stderr).toContain("\\x1b]0;pwned\\x07");
      expect(stderr).toContain("\\x9b2J");
    });
  });

  it("-o json: an error msg with C0 and C1 controls leaves no raw control byte on stderr", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 400, body: { status_code: 400, msg: "bad \x1b[31mred \x9b2J \u202eevil" } });
      const r = await cli.run([...GET, "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      const stderr = out(r.stderr);
      expectNoRawControl(stderr);
      expect(stderr).not.toContain("\u202e");
      expect((JSON.parse(stderr) as { error: { message: string } }).error.message).toContain("red");
    });
  });

  it("a batch with one bad answer reports it and prints the good ones", async () => {
    await withServer(async (server) => {
      server.fallback = (req) =>
        req.path.endsWith("bkdfo_bad")
          ? { status: 200, body: "<html>" }
          : { status: 200, body: { ...FB, id: req.path.split("/").pop() } };
      const r = await cli.run(["failover", "get", "bkdfo_a1", "bkdfo_bad", "bkdfo_a2", "-o", "json"], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(3);
      expect((JSON.parse(out(r.stdout)) as { id: string }[]).map((b) => b.id)).toEqual(["bkdfo_a1", "bkdfo_a2"]);
      expect(out(r.stderr)).toContain("bkdfo_bad");
    });
  });
});

describe("an answer that never ends", () => {
  it("a body without end is cut off at a size cap (exit 3) long before --timeout", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ flood: true });
      const r = await cli.run([...GET, "--timeout", "60", "--retries", "2"], {
        env: envFor(server),
        timeoutMs: 60_000,
      });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      const stderr = out(r.stderr);
      expectCleanError(stderr);
      expect(stderr).toMatch(/larger than \d+ MiB/);
      // Not worth repeating: the same answer would come back.
      expect(server.requests).toHaveLength(1);
    });
  });
});

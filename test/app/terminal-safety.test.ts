// Terminal safety: control characters in any value from the server or the user are shown
// escaped in tables, messages and --debug logs, so a description cannot retitle, recolor or
// reorder the terminal. JSON output escapes them as JSON does.
// Run in-process (test/helpers/app.ts); one case runs the real bin in reliability/terminal-safety.test.ts.
import { describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { FB, envFor, expectNoRawControl, out, withServer } from "../reliability/support.js";
import { useTerminalSafetySuite } from "../reliability/terminal-safety.support.js";

const ctx = useTerminalSafetySuite(appSandbox);
const { TITLE, RED, NASTY, EVIL_FB, expectEscaped } = ctx;

describe.concurrent("values from the server", () => {
  it("list: every row is escaped, and rows stay one line each", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 200,
        body: { backends: [EVIL_FB, { ...FB, id: "bkdfo_two", description: "line1\nline2" }], next_page_uri: null },
      });
      const r = await ctx.cli.run(["failover", "list"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const stdout = out(r.stdout);
      expectEscaped(stdout);
      expect(stdout).toContain("line1\\nline2");
      expect(stdout.trimEnd().split("\n")).toHaveLength(3);
    });
  });

  it("create and update: the table of the answer is escaped", async () => {
    await withServer(async (server) => {
      server.fallback = (req) => ({ status: req.method === "POST" ? 201 : 200, body: EVIL_FB });
      for (const args of [
        ["failover", "create", "--backends", "bkdhr_a"],
        ["failover", "update", "bkdfo_abc", "--description", "x"],
      ]) {
        const r = await ctx.cli.run(args, { env: envFor(server) });
        expect(r.exitCode).toBe(0);
        expectEscaped(out(r.stdout));
      }
    });
  });

  it("a batch get: rows escaped in the list table", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: EVIL_FB });
      const r = await ctx.cli.run(["failover", "get", "bkdfo_a", "bkdfo_b"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expectNoRawControl(out(r.stdout));
      expect(out(r.stdout)).toContain("\\x1b]0;pwned title\\x07");
    });
  });

  it("webhook verification: provider and a shown secret are escaped", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 200,
        body: { enabled: true, provider: `github${TITLE}`, secret: `s3${RED}cret` },
      });
      const r = await ctx.cli.run(["webhook-verification", "get", "edghts_a", "edghtsrt_b", "--show-secret"], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(0);
      expectNoRawControl(out(r.stdout));
      expect(out(r.stdout)).toContain("github\\x1b]0;pwned title\\x07");
      expect(out(r.stdout)).toContain("s3\\x1b[31mcret");
    });
  });

  it("-o json: the resource as returned, with no raw control character", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: EVIL_FB });
      const r = await ctx.cli.run(["failover", "get", "bkdfo_abc", "-o", "json"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expectNoRawControl(out(r.stdout));
      expect(out(r.stdout)).not.toContain("\u202e");
      expect(JSON.parse(out(r.stdout))).toEqual(EVIL_FB);
    });
  });

  it("error messages: msg, error_code and operation_id are escaped", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 404,
        body: {
          error_code: `ERR${RED}`,
          status_code: 404,
          msg: `gone ${NASTY}`,
          details: { operation_id: `op${TITLE}` },
        },
      });
      const r = await ctx.cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expect(out(r.stdout)).toBe("");
      const stderr = out(r.stderr);
      expect(stderr.startsWith("error: bkdfo_abc not found: gone ")).toBe(true);
      expectEscaped(stderr);
      expect(stderr).toContain("ERR\\x1b[31m");
      expect(stderr).toContain("op\\x1b]0;pwned title\\x07");
    });
  });

  it("a batch failure line is escaped", async () => {
    await withServer(async (server) => {
      server.fallback = (req) =>
        req.path.endsWith("bkdfo_b")
          ? { status: 404, body: { status_code: 404, msg: `no ${TITLE}` } }
          : { status: 200, body: FB };
      const r = await ctx.cli.run(["failover", "get", "bkdfo_a", "bkdfo_b"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expectNoRawControl(out(r.stderr));
      expect(out(r.stderr)).toContain("no \\x1b]0;pwned title\\x07");
    });
  });

  it("a redirect Location and an HTML error page are escaped", async () => {
    await withServer(async (server) => {
      server.script(
        // Node refuses C0 in a header value, but C1 (here CSI, \x9b) goes through as Latin-1.
        { status: 302, headers: { Location: "http://127.0.0.1:1/x\x9b2J" }, body: "" },
        { status: 500, body: `<html>${TITLE}${RED}</html>` },
      );
      for (let i = 0; i < 2; i++) {
        const r = await ctx.cli.run(["failover", "get", "bkdfo_abc", "--retries", "0"], { env: envFor(server) });
        expect(r.exitCode).toBe(1);
        expectNoRawControl(out(r.stderr));
      }
    });
  });

  it("--debug logs the exchange with what the server sent escaped", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: EVIL_FB });
      const r = await ctx.cli.run(["failover", "get", "bkdfo_abc", "--debug"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/^debug: /m);
      expectNoRawControl(stderr);
      expect(stderr).not.toContain("\u202e");
    });
  });
});

describe.concurrent("values from the user", () => {
  it("a bad provider, an unknown command and an unknown option are shown escaped", async () => {
    await withServer(async (server) => {
      for (const args of [
        [
          "webhook-verification",
          "replace",
          "edghts_a",
          "edghtsrt_b",
          "--provider",
          `git${RED}hub`,
          "--secret",
          "abcdefgh",
        ],
        ["failover", `get${TITLE}`],
        ["failover", "list", `--li${RED}mit`, "3"],
        [`fail${RED}over`],
      ]) {
        const r = await ctx.cli.run(args, { env: envFor(server) });
        expect(r.exitCode).toBe(2);
        expect(out(r.stdout)).toBe("");
        expectNoRawControl(out(r.stderr));
      }
      expect(server.requests).toHaveLength(0);
    });
  });

  it("a description with escapes is sent as given and shown escaped in --dry-run", async () => {
    await withServer(async (server) => {
      server.fallback = (req) => ({
        status: 201,
        body: { ...FB, description: (JSON.parse(req.body) as { description: string }).description },
      });
      const dry = await ctx.cli.run(
        ["failover", "create", "--backends", "bkdhr_a", "--description", NASTY, "--dry-run"],
        { env: envFor(server) },
      );
      expect(dry.exitCode).toBe(0);
      expectNoRawControl(out(dry.stdout));
      expect(server.requests).toHaveLength(0);
      const r = await ctx.cli.run(["failover", "create", "--backends", "bkdhr_a", "--description", NASTY], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(server.requests[0]!.body) as { description: string }).description).toBe(NASTY);
      expectEscaped(out(r.stdout));
    });
  });
});

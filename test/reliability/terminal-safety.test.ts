// Terminal safety: control characters in any value from the server or the user are shown
// escaped in tables, messages and --debug logs, so a description cannot retitle, recolor or
// reorder the terminal. JSON output escapes them as JSON does.
// Here the real bin runs one case; the rest run in-process in app/terminal-safety.test.ts.
import { describe, expect, it } from "vitest";
import { envFor, expectNoRawControl, out, withServer } from "./support.js";
import { useTerminalSafetySuite } from "./terminal-safety.support.js";

const ctx = useTerminalSafetySuite();
const { TITLE, EVIL_FB, expectEscaped } = ctx;

describe.concurrent("values from the server", () => {
  it("get: the FIELD/VALUE table shows description, metadata, backends and dates escaped", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: EVIL_FB });
      const r = await ctx.cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      expectEscaped(out(r.stdout));
      expect(out(r.stdout)).toContain("bkdhr_a\\x1b[31m");
      expect(out(r.stdout)).toContain("\\u2066");
    });
  });
});

describe.concurrent("values from the user", () => {
  it("a bad id with escapes is refused with the id shown escaped", async () => {
    await withServer(async (server) => {
      const r = await ctx.cli.run(["failover", "get", `bkdfo_a${TITLE}`], { env: envFor(server) });
      expect(r.exitCode).toBe(2);
      expectNoRawControl(out(r.stderr));
      expect(out(r.stderr)).toContain("\\x1b]0;pwned title\\x07");
      expect(server.requests).toHaveLength(0);
    });
  });
});

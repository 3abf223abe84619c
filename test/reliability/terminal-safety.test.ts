// Terminal safety: control characters in any value from the server or the user are shown
// escaped in tables, messages and --debug logs, so a description cannot retitle, recolor or
// reorder the terminal. JSON output escapes them as JSON does.
// Here the real bin runs one case; the rest run in-process in app/terminal-safety.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FB, envFor, expectNoRawControl, out, sandbox, withServer, type CliSandbox } from "./support.js";

let cli: CliSandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const TITLE = "\x1b]0;pwned title\x07";
const RED = "\x1b[31m";
const NASTY = `eu ${TITLE}${RED}red\x1b[0m \x9b2J \u202eevil\u202c \r\x08 done`;
const EVIL_FB = { ...FB, description: NASTY, metadata: `{"x":"${RED}"}`, backends: [`bkdhr_a${RED}`, "bkdtg_b\u2066"], created_at: `2026${TITLE}` };

/** What must show, escaped, where the raw sequence would have been. */
const ESCAPED = ["\\x1b]0;pwned title\\x07", "\\x1b[31mred\\x1b[0m", "\\x9b2J", "\\u202eevil\\u202c", "\\r\\x08"];

function expectEscaped(text: string): void {
  expectNoRawControl(text);
  for (const bidi of ["\u202e", "\u202c", "\u2066"]) expect(text).not.toContain(bidi);
  for (const shown of ESCAPED) expect(text).toContain(shown);
}

describe.concurrent("values from the server", () => {
  it("get: the FIELD/VALUE table shows description, metadata, backends and dates escaped", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: EVIL_FB });
      const r = await cli.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
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
      const r = await cli.run(["failover", "get", `bkdfo_a${TITLE}`], { env: envFor(server) });
      expect(r.exitCode).toBe(2);
      expectNoRawControl(out(r.stderr));
      expect(out(r.stderr)).toContain("\\x1b]0;pwned title\\x07");
      expect(server.requests).toHaveLength(0);
    });
  });
});

// What both halves of the terminal-safety tests share: a server value full of escapes and
// what must show instead (the CLI spawned in reliability/, in-process in app/).
import { afterAll, beforeAll, expect } from "vitest";
import type { Sandbox } from "../e2e/support.js";
import { FB, expectNoRawControl, sandbox } from "./support.js";

export function useTerminalSafetySuite(makeSandbox: () => Sandbox = sandbox) {
  let cli: Sandbox;
  beforeAll(() => {
    cli = makeSandbox();
  });
  afterAll(() => cli.cleanup());

  const TITLE = "\x1b]0;pwned title\x07";
  const RED = "\x1b[31m";
  const NASTY = `eu ${TITLE}${RED}red\x1b[0m \x9b2J \u202eevil\u202c \r\x08 done`;
  const EVIL_FB = {
    ...FB,
    description: NASTY,
    metadata: `{"x":"${RED}"}`,
    backends: [`bkdhr_a${RED}`, "bkdtg_b\u2066"],
    created_at: `2026${TITLE}`,
  };

  /** What must show, escaped, where the raw sequence would have been. */
  const ESCAPED = ["\\x1b]0;pwned title\\x07", "\\x1b[31mred\\x1b[0m", "\\x9b2J", "\\u202eevil\\u202c", "\\r\\x08"];

  function expectEscaped(text: string): void {
    expectNoRawControl(text);
    for (const bidi of ["\u202e", "\u202c", "\u2066"]) expect(text).not.toContain(bidi);
    for (const shown of ESCAPED) expect(text).toContain(shown);
  }
  return {
    get cli() {
      return cli;
    },
    TITLE,
    RED,
    NASTY,
    EVIL_FB,
    ESCAPED,
    expectEscaped,
  };
}

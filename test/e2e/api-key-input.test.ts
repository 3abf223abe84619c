// Input that cannot be a key is refused where it enters (issue 9 item 8): at login, and
// when read from the flag, the environment or the profile, exit 2 naming the source, and
// nothing is sent or stored.
// Here the real bin runs one case of each kind; the rest run in-process in app/api-key-input.test.ts.
import { describe, expect, it } from "vitest";

import { useKeyInputSuite } from "./api-key-input.support.js";

const { run, MUST } = useKeyInputSuite();

describe("auth login", () => {
  it("still takes a key with blanks around it", async () => {
    const r = await run(["auth", "login", "--with-token"], { input: "  key_fine_1234567\n\n" });
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe("keys read at every command", () => {
  it("refuses `config set api_key` with a non-ASCII key", async () => {
    const r = await run(["config", "set", "api_key", "key_caf\u00e9_1234"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: <value> for api_key: ${MUST}`);
  });
});

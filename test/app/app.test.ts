// runApp itself: the exit code comes back instead of ending the process, and the terminal
// facts come from the streams handed in (help wraps at their width), not from process.stdout.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runApp } from "../../src/app.js";

function capture(facts: { isTTY?: boolean; columns?: number } = {}) {
  let text = "";
  return {
    ...facts,
    write(chunk: string) {
      text += chunk;
      return true;
    },
    get text() {
      return text;
    },
  };
}

const run = async (args: string[], stdoutFacts: { isTTY?: boolean; columns?: number } = {}) => {
  const stdout = capture(stdoutFacts);
  const stderr = capture();
  const code = await runApp(args, {
    env: { NO_COLOR: "1", EDGECTL_CONFIG_DIR: "/nonexistent/edgectl-app-test" },
    stdout,
    stderr,
    stdin: Readable.from([]),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
};

/** The command's description: between the usage line and "Options:" (what commander wraps). */
const description = (help: string) => help.slice(help.indexOf("\n\n") + 2, help.indexOf("Options:")).trim();
const widest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));

describe("runApp", () => {
  it("returns the exit code of a usage error, with the error on the stderr given", async () => {
    const r = await run(["failover", "get", "not-an-id"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*<id>/);
  });

  it("wraps help at the width of a narrow terminal handed in as stdout", async () => {
    const narrow = await run(["failover", "create", "--help"], { isTTY: true, columns: 50 });
    expect(narrow.code).toBe(0);
    expect(widest(description(narrow.stdout))).toBeLessThanOrEqual(50);
    // Not a terminal: the width is 80, whatever columns the stream claims.
    const piped = await run(["failover", "create", "--help"], { columns: 50 });
    expect(widest(description(piped.stdout))).toBeGreaterThan(50);
  });

  it("two runs share nothing: the output format of one does not leak into the next", async () => {
    const json = await run(["failover", "get", "not-an-id", "-o", "json"]);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { kind: "usage" } });
    const plain = await run(["failover", "get", "not-an-id"]);
    expect(plain.stderr).toMatch(/^error: /);
  });
});

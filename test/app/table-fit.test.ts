// Issue 26 item 7, end to end: `endpoint list` on a terminal of N columns (the stdout handed to
// runApp says isTTY and columns) is cut to N, ids whole; piped, the same list is not cut.
import { Readable } from "node:stream";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runApp } from "../../src/app.js";
import { useFaultServer } from "../e2e/support.js";
import { appSandbox } from "../helpers/app.js";
import { json } from "../helpers/fault-server.js";

const suite = useFaultServer("key_for_fit_tests_1234", appSandbox);
const configDir = mkdtempSync(join(tmpdir(), "edgectl-fit-"));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

const ENDPOINTS = Array.from({ length: 4 }, (_, i) => ({
  id: `ep_${"2abcdefghijklmnop".slice(0, 8 + i * 3)}${i}`,
  url: `https://service-${i}.${"averylongsubdomain".repeat(i + 1)}.example.com`,
  type: "cloud",
  description: `the ${"rather long ".repeat(i + 2)}description`,
  uri: "x",
  created_at: "2026-01-01T00:00:00Z",
}));

async function list(stdoutFacts: { isTTY: boolean; columns?: number }) {
  let out = "";
  let err = "";
  const code = await runApp(["endpoint", "list"], {
    env: {
      EDGECTL_CONFIG_DIR: configDir,
      EDGECTL_API_KEY: "key_for_fit_tests_1234",
      EDGECTL_BASE_URL: suite.server.url,
      NO_COLOR: "1",
    },
    stdout: { ...stdoutFacts, write: (c: string) => ((out += c), true) },
    stderr: { write: (c: string) => ((err += c), true) },
    stdin: Readable.from([]),
  });
  return { code, out, err };
}

describe("endpoint list fits the terminal", () => {
  it("cut to the width for several widths, every id whole; piped, nothing cut", async () => {
    suite.server.fallback = () => json(200, { endpoints: ENDPOINTS, uri: "x", next_page_uri: null });
    const piped = await list({ isTTY: false, columns: 40 });
    expect(piped.err).toBe("");
    expect(piped.code).toBe(0);
    for (const e of ENDPOINTS) expect(piped.out).toContain(e.url);
    for (const columns of [50, 70, 90, 120]) {
      const r = await list({ isTTY: true, columns });
      expect(r.code).toBe(0);
      const lines = r.out.replace(/\n$/, "").split("\n");
      expect(lines).toHaveLength(ENDPOINTS.length + 1);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
      ENDPOINTS.forEach((e, i) => expect(lines[i + 1]!.split(" ")[0]).toBe(e.id));
      expect(r.out).toContain("…");
    }
  });
});

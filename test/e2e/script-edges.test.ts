// What scripts run into at the edges, end to end against a recording fault server: a reader
// that closes the pipe early, a batch whose key is refused, an id given twice to delete,
// a blank EDGECTL_API_KEY, and `edgectl api` paths and bodies that are not what they seem.
// Here the real bin runs one case of each kind; the rest run in-process in app/script-edges.test.ts.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, baseEnv } from "../helpers/cli.js";
import { json } from "../helpers/fault-server.js";
import { failoverAt, useFaultServer } from "./support.js";

const KEY = "key_script_edges_7777";
const suite = useFaultServer(KEY);
const resource = (id: string) => failoverAt(suite.server.url, id);

describe("a reader that closes the pipe early (| head, | grep -q)", () => {
  it.each([
    ["list -o json", ["failover", "list", "-o", "json"]],
    ["list as a table", ["failover", "list"]],
  ])("%s: no stack trace, the command's own exit code (0)", async (_name, args) => {
    suite.server.fallback = () =>
      json(200, { backends: Array.from({ length: 2000 }, (_, i) => resource(`bkdfo_${i}`)), next_page_uri: null });
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...baseEnv(suite.cli.configDir), EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: suite.server.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader is gone before the first byte
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(suite.server.requests).toHaveLength(1);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

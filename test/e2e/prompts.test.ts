// Prompts end honestly at a real terminal (issue 9 item 6): Ctrl-C at the delete `[y/N]`
// prompt or at `auth login`'s hidden prompt exits 130, end of input (Ctrl-D) exits 2, and
// nothing is sent or stored. The CLI runs in a pseudo-terminal made by util-linux `script`.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, baseEnv } from "../helpers/cli.js";
import { useFaultServer } from "./support.js";

const KEY = "key_prompts_Hy65Gt43";
const suite = useFaultServer(KEY);

const hasScript = (() => {
  try {
    return execFileSync("script", ["--version"], { encoding: "utf8" }).includes("util-linux");
  } catch {
    return false;
  }
})();

/** Runs edgectl in a pseudo-terminal; once `prompt` shows, types `keys`. */
async function atTerminal(args: string[], prompt: string, keys: string) {
  const command = ["node", BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = execa("script", ["-qfec", command, "/dev/null"], {
    env: { ...baseEnv(suite.cli.configDir), EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: suite.server.url, TERM: "xterm" },
    extendEnv: false,
    reject: false,
    stdin: "pipe",
    timeout: 20_000,
  });
  let shown = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const before = shown;
    shown += chunk.toString("utf8");
    if (!before.includes(prompt) && shown.includes(prompt)) child.stdin!.write(keys);
  });
  const r = await child;
  return { exitCode: r.exitCode, shown };
}

describe.skipIf(!hasScript)("at a terminal", () => {
  it("Ctrl-C at the delete [y/N] prompt exits 130 and deletes nothing", async () => {
    const r = await atTerminal(["failover", "delete", "bkdfo_abc"], "[y/N]", "\x03");
    expect(r.exitCode).toBe(130);
    expect(r.shown).toContain("error: interrupted (SIGINT)");
    expect(suite.server.requests).toEqual([]);
  });

  it("Ctrl-D at the delete [y/N] prompt exits 2 and deletes nothing", async () => {
    const r = await atTerminal(["failover", "delete", "bkdfo_abc"], "[y/N]", "\x04");
    expect(r.exitCode).toBe(2);
    expect(r.shown).toContain("error: no answer: end of input; nothing was done");
    expect(suite.server.requests).toEqual([]);
  });

  it("y at the delete prompt deletes", async () => {
    suite.server.fallback = () => ({ status: 204 });
    const r = await atTerminal(["failover", "delete", "bkdfo_abc"], "[y/N]", "y\r");
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests.map((q) => q.method)).toEqual(["DELETE"]);
  });

  it("Ctrl-C at auth login's hidden prompt exits 130 and stores nothing", async () => {
    const r = await atTerminal(["auth", "login", "--profile", "tty"], "Paste your API key:", "key_half\x03");
    expect(r.exitCode).toBe(130);
    expect(r.shown).not.toContain("key_half");
    expect(existsSync(join(suite.cli.configDir, "config.json"))).toBe(false);
  });

  it("Ctrl-D at auth login's hidden prompt exits 2 and stores nothing", async () => {
    const r = await atTerminal(["auth", "login", "--profile", "tty"], "Paste your API key:", "\x04");
    expect(r.exitCode).toBe(2);
    expect(existsSync(join(suite.cli.configDir, "config.json"))).toBe(false);
  });
});

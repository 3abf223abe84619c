// Output that could not be written is a failure (issue 9 item 1): a full disk or a closed
// stdout exits non-zero with `error: cannot write output: …`; a reader closing the pipe
// (EPIPE) stays quiet.
import { existsSync } from "node:fs";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, sandbox, type CliSandbox } from "../helpers/cli.js";
import { call, startInProcessEmulator } from "../helpers/emulator.js";
import { parseJsonError } from "./support.js";

let emulator: Awaited<ReturnType<typeof startInProcessEmulator>>;
let cli: CliSandbox;

beforeAll(async () => {
  emulator = await startInProcessEmulator();
  cli = sandbox();
  for (let i = 0; i < 3; i++)
    await call(emulator.url, "POST", "/backends/failover", { body: { description: `fb ${i}`, backends: ["bkdhr_a"] } });
});
afterAll(async () => {
  await emulator.stop();
  cli.cleanup();
});

/** Runs the CLI as `edgectl … > /dev/full` (every write fails with ENOSPC). */
async function toFullDisk(args: string[]) {
  const r = await execa("sh", ["-c", 'exec node "$0" "$@" > /dev/full', BIN, ...args], {
    env: { ...baseEnv(cli.configDir), EDGECTL_API_KEY: "test-key", EDGECTL_BASE_URL: emulator.url },
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: 20_000,
  });
  return { exitCode: r.exitCode, stderr: String(r.stderr) };
}

describe.skipIf(!existsSync("/dev/full"))("stdout on a full disk", () => {
  it("fails `failover list --all` with exit 1 and says why", async () => {
    const r = await toFullDisk(["failover", "list", "--all"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("error: cannot write output: ENOSPC: no space left on device, write");
  });

  it("fails the backup `failover list --all -o json` with one JSON error of kind internal", async () => {
    const r = await toFullDisk(["failover", "list", "--all", "-o", "json"]);
    expect(r.exitCode).toBe(1);
    expect(parseJsonError(r.stderr).error).toEqual({
      kind: "internal",
      message: "cannot write output: ENOSPC: no space left on device, write",
    });
  });

  it.each([["--version"], ["--help"], ["config", "path"], ["failover", "--help"]])(
    "fails `%s` without a stack trace",
    async (...args) => {
      const r = await toFullDisk(args);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe("error: cannot write output: ENOSPC: no space left on device, write");
    },
  );
});

describe("stdout closed by its reader", () => {
  it("stays quiet and keeps the command's own exit code", async () => {
    const r = await execa("sh", ["-c", `node "${BIN}" failover list --all -o json | head -c 1 >/dev/null`], {
      env: { ...baseEnv(cli.configDir), EDGECTL_API_KEY: "test-key", EDGECTL_BASE_URL: emulator.url },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(r.stderr).toBe("");
  });
});

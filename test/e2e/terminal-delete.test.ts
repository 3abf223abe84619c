// The delete prompts at a real terminal, end to end: the CLI runs in a pseudo-terminal made by
// util-linux `script` and the answer is typed on it (the rest of these commands' behaviour is
// in test/commands/webhook-verification/delete.test.ts, run in-process).
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { makeRoute, startInProcessEmulator } from "../helpers/emulator.js";
import { runCli, type Failover, type TextResult } from "./support.js";

const KEY = "key_more_commands_0123456789";

let cli: CliSandbox;
let emu: Awaited<ReturnType<typeof startInProcessEmulator>>;
beforeAll(async () => {
  cli = sandbox();
  emu = await startInProcessEmulator();
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  await emu?.stop();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  cli?.cleanup();
});

const run = (args: string[], opts: RunOptions = {}) =>
  runCli(cli, args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emu.url, ...opts.env } });

function ok(r: TextResult): TextResult {
  if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
async function create(...flags: string[]): Promise<Failover> {
  return JSON.parse(ok(await run(["failover", "create", ...flags, "-o", "json"])).stdout) as Failover;
}
const route = async () => {
  const made = await makeRoute(emu.url);
  return [made.edgeId, made.routeId] as const;
};
const replace = (edge: string, rt: string) =>
  run(["webhook-verification", "replace", edge, rt, "--provider", "stripe", "--secret", "whsec_more_1234"]);

// A real terminal through util-linux `script`: the prompt is answered on the pty.
describe("at a terminal (a pty from `script`)", () => {
  const atTerminal = (args: string[], answer: string) => {
    const quoted = ["node", BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    return execa("script", ["-qec", quoted, "/dev/null"], {
      env: { ...baseEnv(cli.configDir), EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emu.url, TERM: "dumb" },
      extendEnv: false,
      input: answer,
      reject: false,
      timeout: 20_000,
    });
  };

  it("webhook-verification delete asks; n keeps the module (exit 2), y deletes it", async () => {
    const [edge, rt] = await route();
    ok(await replace(edge, rt));
    const no = await atTerminal(["webhook-verification", "delete", edge, rt], "n\n");
    expect(no.exitCode).toBe(2);
    expect(String(no.stdout)).toContain(`Remove webhook verification from route ${rt} of edge ${edge}? [y/N]`);
    expect(String(no.stdout)).toContain("declined");
    expect(ok(await run(["webhook-verification", "get", edge, rt])).exitCode).toBe(0);

    const yes = await atTerminal(["webhook-verification", "delete", edge, rt], "y\n");
    expect(yes.exitCode).toBe(0);
    expect(String(yes.stdout)).toMatch(new RegExp(`${edge}/${rt}\\s+true`));
    expect((await run(["webhook-verification", "get", edge, rt])).exitCode).toBe(1);
  });

  it("failover delete asks too; an empty answer means no", async () => {
    const fb = await create("--backends", "bkdhr_tty");
    const empty = await atTerminal(["failover", "delete", fb.id], "\n");
    expect(empty.exitCode).toBe(2);
    expect(String(empty.stdout)).toContain("[y/N]");
    expect(ok(await run(["failover", "get", fb.id])).exitCode).toBe(0);
    const yes = await atTerminal(["failover", "delete", fb.id], "yes\n");
    expect(yes.exitCode).toBe(0);
    expect((await run(["failover", "get", fb.id])).exitCode).toBe(1);
  });
});

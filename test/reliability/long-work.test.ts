// Every long local computation hears SIGINT/SIGTERM at once (issue 25, item 7): a policy of
// 50,000 rules (15 MB, under the 16 MiB cap) is checked in stages that let the event loop turn
// (src/io/checkpoint.ts), so a signal once it is read is exit 130, kind interrupted, and nothing
// is printed after it (no `ok`).
import { spawn as nodeSpawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { every } from "../../src/io/checkpoint.js";
import { keepLiveSecrets } from "../../src/commands/endpoint/live-secrets.js";
import { maskPolicyText } from "../../src/output/mask.js";
import { yamlText } from "../../src/output/yaml-write.js";
import { checkPolicy, checkPolicyInterruptibly } from "../../src/policy/index.js";
import { parsePolicyText } from "../../src/policy/parse.js";
import { BIN, NODE, baseEnv } from "../helpers/cli.js";

let dir: string;
let big: string;
const policy = (rules: number) => ({
  on_http_request: [
    ...Array.from({ length: rules }, (_, i) => ({
      name: `rule ${i}`,
      expressions: [`req.url.path == "/p${i}"`],
      actions: [{ type: "add-headers", config: { headers: { "x-rule": `v${i}` } } }],
    })),
    { actions: [{ type: "deny" }] },
  ],
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "edgectl-long-"));
  big = join(dir, "big.json");
  writeFileSync(big, JSON.stringify(policy(50_000), null, 2));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a signal while a big policy is checked", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s once the policy is read: exit 130, kind interrupted, nothing on stdout",
    async (signal) => {
      const child = nodeSpawn(NODE, [BIN, "policy", "check", big, "-o", "json", "--debug"], {
        env: baseEnv(join(dir, "config")),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      // The debug line edgectl writes once the file is read: parsing and checking are still ahead.
      const read = new Promise<boolean>((resolve) => {
        child.stderr.on("data", (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes("debug: read ")) resolve(true);
        });
        void exited.then(() => resolve(false));
      });
      expect(await read).toBe(true);
      child.kill(signal);
      const code = await exited;
      expect(code).toBe(130);
      expect(stdout).toBe("");
      const last = stderr.trim().split("\n").at(-1)!;
      const error = JSON.parse(last) as { error: { kind: string; message: string } };
      expect(error.error.kind).toBe("interrupted");
      expect(error.error.message).toContain(signal);
    },
    30_000,
  );
});

describe("checkPolicyInterruptibly", () => {
  it("finds what checkPolicy finds, awaiting the checkpoint after each rule", async () => {
    const doc = policy(1000);
    (doc.on_http_request[3] as { actions: unknown }).actions = [{ type: "nope" }];
    let calls = 0;
    const problems = await checkPolicyInterruptibly(doc, { protocol: "https", internal: false }, () => {
      calls++;
      return undefined;
    });
    expect(problems).toEqual(checkPolicy(doc, { protocol: "https", internal: false }));
    expect(problems.length).toBeGreaterThan(0);
    expect(calls).toBe(1001);
  });

  it("stops where the checkpoint throws (as the process stops where a signal is heard)", async () => {
    let calls = 0;
    const stop = new Error("stopped");
    await expect(
      checkPolicyInterruptibly(policy(1000), { protocol: "https", internal: false }, () => {
        if (++calls === 10) throw stop;
        return undefined;
      }),
    ).rejects.toBe(stop);
    expect(calls).toBe(10);
  });

  it("every(n) lets the event loop turn at every nth call only", async () => {
    const checkpoint = every(3);
    const turns = [1, 2, 3, 4, 5, 6].map(() => checkpoint());
    expect(turns.map((t) => t !== undefined)).toEqual([false, false, true, false, false, true]);
    await Promise.all(turns.filter((t): t is Promise<void> => t !== undefined));
  });
});

// The reads that take longest are the yaml library's: each of them, driven lexeme by lexeme
// (src/policy/yaml.ts's yamlDocumentPausing), lets the event loop turn while it reads, where a
// signal's handler runs. Counted in turns of the loop, not in time.
describe("reading a long YAML policy lets the event loop turn", () => {
  // 1,500 rules: about 75 turns of the loop where the checkpoint lets it turn every 1,000
  // lexemes (about 50 a rule), and none where the read holds the loop.
  const bigText = yamlText(policy(1_500));
  const small = yamlText(policy(1));
  it.each([
    ["masking it (endpoint get, --dry-run, api, export)", (t: string) => maskPolicyText(t)],
    [
      "parsing it with a checkpoint (policy check, endpoint create and update)",
      (t: string) => parsePolicyText(t, every(1000)),
    ],
    ["matching its masks to the live secrets (endpoint update)", (t: string) => keepLiveSecrets(`${t}# ********\n`, t)],
  ])("%s", async (name, work) => {
    // A text of its own: the yaml library reads each text once (src/policy/yaml.ts), so a text
    // another case has read would not be read again here.
    const big = `${bigText}# ${name}\n`;
    await work(small); // the modules loaded first: their loading turns the loop too
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await work(big);
    running = false;
    expect(turns).toBeGreaterThan(20);
  });
});

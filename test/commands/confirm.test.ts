import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { confirmDeletion } from "../../src/commands/confirm.js";
import { run as deleteWebhook } from "../../src/commands/webhook-verification/delete.js";
import { fakeDeps } from "./fake-deps.js";

/** fakeDeps with stdin/stderr terminals as given, recording the questions asked. */
function terminals(stdin: boolean, stderr: boolean, answer = true) {
  const deps = fakeDeps({ stdinIsTTY: stdin, confirm: answer });
  deps.err.isTTY = stderr;
  const asked: string[] = [];
  deps.confirm = (q) => {
    asked.push(q);
    return Promise.resolve(answer);
  };
  return { deps, asked };
}

async function refusal(stdin: boolean, stderr: boolean): Promise<string> {
  const { deps, asked } = terminals(stdin, stderr);
  const err = await confirmDeletion(deps, false, "Delete it?").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  expect(asked).toEqual([]);
  return (err as Error).message;
}

describe("confirmDeletion", () => {
  it("--yes never asks, terminal or not", async () => {
    for (const [i, e] of [
      [false, false],
      [true, true],
    ] as const) {
      const { deps, asked } = terminals(i, e);
      await confirmDeletion(deps, true, "Delete it?");
      expect(asked).toEqual([]);
    }
  });

  it("asks on a terminal (stdin and stderr) and goes on when the answer is yes", async () => {
    const { deps, asked } = terminals(true, true, true);
    await confirmDeletion(deps, false, "Delete it?");
    expect(asked).toEqual(["Delete it? [y/N] "]);
  });

  it("a declined confirmation is a usage error", async () => {
    const { deps } = terminals(true, true, false);
    await expect(confirmDeletion(deps, false, "Delete it?")).rejects.toThrow(/not deleted: confirmation declined/);
  });

  it("stdin piped, stderr a terminal: names stdin, and says how to go on", async () => {
    const message = await refusal(false, true);
    expect(message).toMatch(/^refusing to delete without confirmation: /);
    expect(message).toMatch(/stdin is not a terminal/);
    expect(message).not.toMatch(/stderr is not/);
    expect(message).toMatch(/--yes/);
  });

  it("stdin a terminal, stderr redirected: does NOT claim stdin is not a terminal", async () => {
    const message = await refusal(true, false);
    expect(message).toMatch(/^refusing to delete without confirmation: /);
    expect(message).not.toMatch(/stdin is not a terminal/);
    expect(message).toMatch(/stderr is not a terminal/);
    expect(message).toMatch(/stdin and stderr must both be terminals/);
    expect(message).toMatch(/--yes/);
  });

  it("neither a terminal: names both", async () => {
    const message = await refusal(false, false);
    expect(message).toMatch(/^refusing to delete without confirmation: /);
    expect(message).toMatch(/stdin and stderr are not terminals/);
    expect(message).toMatch(/--yes/);
  });

  it("webhook-verification delete uses the same accurate refusal and sends nothing", async () => {
    const { deps } = terminals(true, false);
    await expect(
      deleteWebhook({ edgeId: "edghts_1", routeId: "edghtsrt_1", yes: false, dryRun: false }, deps),
    ).rejects.toThrow(/stderr is not a terminal/);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toBe("");
  });
});

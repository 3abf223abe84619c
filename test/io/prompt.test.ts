// A prompt at a (fake) terminal ends honestly: an answer, Ctrl-C (InterruptedError, exit
// 130) or end of input (UsageError, exit 2).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { EXIT_CODES, InterruptedError, UsageError } from "../../src/errors.js";
import { ask } from "../../src/io/prompt.js";

function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
  return { input, output, shown: () => shown };
}

describe("ask", () => {
  it.each([false, true])("resolves with the line typed (hidden: %s)", async (hidden) => {
    const t = terminal();
    const answer = ask("Key: ", hidden, t);
    t.input.write("abc\r");
    await expect(answer).resolves.toBe("abc");
    if (hidden) expect(t.shown()).not.toContain("abc");
  });

  it.each([false, true])("rejects Ctrl-C as an interruption, exit 130 (hidden: %s)", async (hidden) => {
    const t = terminal();
    const answer = ask("Delete? [y/N] ", hidden, t);
    t.input.write("y\x03");
    const err = await answer.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(EXIT_CODES[(err as InterruptedError).kind]).toBe(130);
  });

  it.each([false, true])("rejects end of input (Ctrl-D) as a refusal, exit 2 (hidden: %s)", async (hidden) => {
    const t = terminal();
    const answer = ask("Delete? [y/N] ", hidden, t);
    t.input.write("\x04");
    const err = await answer.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("no answer: end of input; nothing was done");
  });

  it("rejects a stream that simply ends", async () => {
    const t = terminal();
    const answer = ask("Key: ", true, t);
    t.input.end();
    await expect(answer).rejects.toBeInstanceOf(UsageError);
  });
});

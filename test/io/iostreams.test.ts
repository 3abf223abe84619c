import { describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { colorAllowed, IOStreams } from "../../src/io/iostreams.js";
import { capture } from "../commands/fake-deps.js";

function io(opts: { stdin?: boolean; stdout?: boolean; stderr?: boolean; color?: boolean }) {
  return new IOStreams({
    stdout: capture(opts.stdout ?? false),
    stderr: capture(opts.stderr ?? false),
    stdin: Object.assign(Readable.from([]), { isTTY: opts.stdin ?? false }),
    colorAllowed: opts.color ?? true,
  });
}

describe("IOStreams", () => {
  it("can prompt only when stdin and stderr are both terminals, and says which is not", () => {
    expect(io({ stdin: true, stderr: true }).canPrompt()).toBe(true);
    expect(io({ stdin: true, stderr: false }).promptBlocker()).toBe("stderr is not a terminal");
    expect(io({ stdin: false, stderr: true }).promptBlocker()).toBe("stdin is not a terminal");
    expect(io({}).promptBlocker()).toBe("stdin and stderr are not terminals");
    expect(io({ stdin: true, stdout: true }).canPrompt()).toBe(false);
  });

  it("colors a stream only when color is allowed and that stream is a terminal", () => {
    const tty = io({ stdout: true, stderr: false });
    expect(tty.colorOn(tty.stdout)).toBe(true);
    expect(tty.colorOn(tty.stderr)).toBe(false);
    const off = io({ stdout: true, color: false });
    expect(off.colorOn(off.stdout)).toBe(false);
  });
});

describe("colorAllowed", () => {
  it("is refused by --no-color, NO_COLOR, FORCE_COLOR=0 and TERM=dumb", () => {
    expect(colorAllowed({}, false)).toBe(true);
    expect(colorAllowed({}, true)).toBe(false);
    expect(colorAllowed({ NO_COLOR: "1" }, false)).toBe(false);
    expect(colorAllowed({ NO_COLOR: "" }, false)).toBe(true);
    expect(colorAllowed({ FORCE_COLOR: "0" }, false)).toBe(false);
    expect(colorAllowed({ TERM: "dumb" }, false)).toBe(false);
  });
});

// The progress line migrate draws while it reads (a line on a terminal only).
import { describe, expect, it } from "vitest";
import { progressOn } from "../../src/commands/migrate/edge.js";
import { fakeDeps } from "./fake-deps.js";

describe("the progress line", () => {
  it("is drawn on a terminal, one line redrawn, and cleared at the end", () => {
    const deps = fakeDeps();
    deps.err.isTTY = true;
    const progress = progressOn(deps);
    progress.update!("reading edge 1/2");
    progress.update!("reading edge 2/2");
    progress.done();
    expect(deps.err.text).toBe("\r\x1b[2Kreading edge 1/2\r\x1b[2Kreading edge 2/2\r\x1b[2K");
    expect(deps.out.text).toBe("");
  });

  it("stays quiet off a terminal", () => {
    const deps = fakeDeps();
    const progress = progressOn(deps);
    expect(progress.update).toBeUndefined();
    progress.done();
    expect(deps.err.text).toBe("");
  });
});

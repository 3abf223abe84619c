import { formatError } from "../../src/output/error.js";
import { describe, expect, it } from "vitest";
import { ApiError, AuthError, BatchError, NetworkError, UsageError } from "../../src/errors.js";
import { Throttle, collectIds, progressLine, reportFailures, runBatch } from "../../src/commands/batch.js";
import { fakeDeps } from "./fake-deps.js";

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("runBatch", () => {
  it("keeps input order when work completes out of order", async () => {
    const ids = ["a", "b", "c", "d", "e"];
    const pending = new Map<string, Deferred<string>>();
    const started: string[] = [];
    const batch = runBatch(ids, 5, (id) => {
      started.push(id);
      const d = deferred<string>();
      pending.set(id, d);
      return d.promise;
    });
    await tick();
    expect(started).toEqual(ids);
    for (const id of ["e", "c", "a", "d", "b"]) {
      if (id === "d") pending.get(id)!.reject(new ApiError("gone", { statusCode: 404 }));
      else pending.get(id)!.resolve(id.toUpperCase());
      await tick();
    }
    const outcomes = await batch;
    expect(outcomes.map((o) => o.id)).toEqual(ids);
    expect(outcomes.map((o) => o.value)).toEqual(["A", "B", "C", undefined, "E"]);
    expect(outcomes[3]!.error).toBeInstanceOf(ApiError);
  });

  it("never has more than the concurrency in flight, and uses all of it", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `id${i}`);
    let inFlight = 0;
    let maxInFlight = 0;
    const outcomes = await runBatch(ids, 4, async (id) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, (Number(id.slice(2)) * 7) % 5));
      inFlight--;
      return id;
    });
    expect(maxInFlight).toBe(4);
    expect(outcomes.map((o) => o.value)).toEqual(ids);
  });

  it("goes on after failures and reports progress for each id", async () => {
    const progress: [number, number][] = [];
    const outcomes = await runBatch(
      ["ok1", "bad", "ok2"],
      2,
      async (id) => {
        if (id === "bad") throw new NetworkError("reset");
        return id;
      },
      (done, total) => progress.push([done, total]),
    );
    expect(outcomes.map((o) => (o.error ? "error" : o.value))).toEqual(["ok1", "error", "ok2"]);
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it("returns an empty list for no ids", async () => {
    expect(await runBatch([], 8, async () => 1)).toEqual([]);
  });

  it("narrows the window after a rate limit and widens it again as requests succeed", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `id${i}`);
    const pending: Deferred<string>[] = [];
    const started: string[] = [];
    const batch = runBatch(ids, 8, (id, onRateLimited) => {
      started.push(id);
      if (id === "id0") {
        onRateLimited();
        onRateLimited(); // 8 → 4 → 2
      }
      const d = deferred<string>();
      pending.push(d);
      return d.promise;
    });
    await tick();
    expect(started).toEqual(["id0", "id1"]);
    pending[0]!.resolve("0"); // 1 success of 2 needed: window stays 2
    await tick();
    expect(started).toHaveLength(3);
    pending[1]!.resolve("1"); // 2 successes: window grows to 3
    await tick();
    expect(started).toHaveLength(5);
    for (let i = 2; i < 12; i++) {
      await tick();
      pending[i]!.resolve(String(i));
    }
    const outcomes = await batch;
    expect(outcomes.map((o) => o.value)).toEqual(ids.map((_, i) => String(i)));
  });
});

describe("Throttle", () => {
  it("starts at the maximum", () => {
    expect(new Throttle(8).limit).toBe(8);
  });

  it("halves on each rate limit, never below 1", () => {
    const t = new Throttle(8);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      t.rateLimited();
      seen.push(t.limit);
    }
    expect(seen).toEqual([4, 2, 1, 1, 1]);
  });

  it("grows back by one after a window's worth of successes, up to the maximum", () => {
    const t = new Throttle(4);
    t.rateLimited();
    t.rateLimited();
    expect(t.limit).toBe(1);
    t.succeeded();
    expect(t.limit).toBe(2);
    t.succeeded();
    expect(t.limit).toBe(2);
    t.succeeded();
    expect(t.limit).toBe(3);
    for (let i = 0; i < 3; i++) t.succeeded();
    expect(t.limit).toBe(4);
    for (let i = 0; i < 20; i++) t.succeeded();
    expect(t.limit).toBe(4);
  });

  it("forgets successes counted before a rate limit", () => {
    const t = new Throttle(8);
    t.rateLimited(); // 4
    t.succeeded();
    t.succeeded();
    t.succeeded(); // 3 of 4
    t.rateLimited(); // 2, count reset
    t.succeeded();
    expect(t.limit).toBe(2);
    t.succeeded();
    expect(t.limit).toBe(3);
  });
});

describe("collectIds", () => {
  it("takes ids from the arguments", async () => {
    expect(await collectIds(["bkdfo_1"], fakeDeps())).toEqual({ ids: ["bkdfo_1"], many: false });
    expect(await collectIds(["bkdfo_1", "bkdfo_2"], fakeDeps())).toEqual({ ids: ["bkdfo_1", "bkdfo_2"], many: true });
  });

  it("reads one id per line from stdin for -, skipping blank lines and trimming", async () => {
    const deps = fakeDeps({ stdin: "bkdfo_1\n\n  bkdfo_2  \r\nbkdfo_3\r\n\n" });
    expect(await collectIds(["-"], deps)).toEqual({ ids: ["bkdfo_1", "bkdfo_2", "bkdfo_3"], many: true });
  });

  it("treats a single id on stdin as many (a list)", async () => {
    expect(await collectIds(["-"], fakeDeps({ stdin: "bkdfo_1\n" }))).toEqual({ ids: ["bkdfo_1"], many: true });
  });

  it("refuses - mixed with ids, without reading stdin", async () => {
    const deps = fakeDeps({ stdin: "bkdfo_9\n" });
    await expect(collectIds(["bkdfo_1", "-"], deps)).rejects.toThrow(UsageError);
    await expect(collectIds(["-", "bkdfo_1"], deps)).rejects.toThrow(/must be the only argument/);
    expect(deps.stdinReads).toBe(0);
  });

  it("refuses - when stdin is a terminal", async () => {
    const deps = fakeDeps({ stdinIsTTY: true });
    await expect(collectIds(["-"], deps)).rejects.toThrow(/stdin is a terminal/);
    expect(deps.stdinReads).toBe(0);
  });

  it("refuses an empty stdin", async () => {
    await expect(collectIds(["-"], fakeDeps({ stdin: "\n \n" }))).rejects.toThrow(/no ids on stdin/);
  });
});

describe("reportFailures", () => {
  it("does nothing when all succeeded", () => {
    const deps = fakeDeps();
    reportFailures(deps, [{ id: "a", value: 1 }], "read");
    expect(deps.err.text).toBe("");
  });

  it("rethrows the error itself for a single id, printing nothing", () => {
    const deps = fakeDeps();
    const err = new ApiError("gone", { statusCode: 404 });
    expect(() => reportFailures(deps, [{ id: "bkdfo_1", error: err }], "read")).toThrow(err);
    expect(deps.err.text).toBe("");
  });

  it("reports each failed id on stderr and throws a BatchError with the worst kind", () => {
    const deps = fakeDeps();
    let thrown: unknown;
    try {
      reportFailures(
        deps,
        [
          { id: "bkdfo_1", value: 1 },
          { id: "bkdfo_2", error: new ApiError("gone", { statusCode: 404 }) },
          { id: "bkdfo_3", error: new AuthError("refused", { statusCode: 403 }) },
        ],
        "deleted",
      );
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BatchError);
    expect((thrown as BatchError).kind).toBe("auth");
    expect((thrown as BatchError).message).toBe("2 of 3 ids could not be deleted");
    expect(deps.err.text).toBe("error: bkdfo_2: gone (HTTP 404)\nerror: bkdfo_3: refused (HTTP 403)\n");
    expect(deps.out.text).toBe("");
  });

  it("with -o json writes nothing per id: the one BatchError object lists the failures", () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    let thrown: unknown;
    try {
      reportFailures(
        deps,
        [
          { id: "a", error: new NetworkError("reset") },
          { id: "b", value: 1 },
        ],
        "read",
      );
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BatchError);
    expect(deps.err.text).toBe("");
    expect(JSON.parse(formatError(thrown, { json: true }))).toEqual({
      error: {
        kind: "network",
        message: "1 of 2 ids could not be read",
        details: { failures: [{ kind: "network", message: "reset", id: "a" }] },
      },
    });
  });
});

describe("progressLine", () => {
  it("stays quiet off a terminal or for small batches", () => {
    expect(progressLine(fakeDeps(), "getting", 100)).toBeUndefined();
    const tty = fakeDeps();
    tty.err.isTTY = true;
    expect(progressLine(tty, "getting", 20)).toBeUndefined();
  });

  it("redraws one line on a terminal and clears it at the end", () => {
    const deps = fakeDeps();
    deps.err.isTTY = true;
    const progress = progressLine(deps, "deleting", 21)!;
    progress(1, 21);
    expect(deps.err.text).toBe("\r\x1b[2Kdeleting 1/21");
    progress(21, 21);
    expect(deps.err.text.endsWith("deleting 21/21\r\x1b[2K")).toBe(true);
    expect(deps.out.text).toBe("");
  });
});

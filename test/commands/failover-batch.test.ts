// failover get/delete run() with a fake API client: what reaches stdout when ids fail, and
// which rate-limit patience each request is given.
import { describe, expect, it } from "vitest";
import type { ApiClient, RequestOptions } from "../../src/api/client.js";
import { ApiError, BatchError } from "../../src/errors.js";
import { rateLimitWaits } from "../../src/commands/batch.js";
import { run as getRun } from "../../src/commands/failover/get.js";
import { run as deleteRun } from "../../src/commands/failover/delete.js";
import { fakeDeps, type FakeDeps } from "./fake-deps.js";
import type { Settings } from "../../src/settings/resolve.js";

const resource = (id: string) => ({
  id,
  uri: `https://api.example.test/backends/failover/${id}`,
  created_at: "2026-01-01T00:00:00Z",
  description: "d",
  metadata: "",
  backends: ["bkdhr_a"],
});

/** Ids containing "ok" succeed; the others get a 404. Records each request's options. */
function withClient(settings: Partial<Settings> = {}): FakeDeps & { seen: { id: string; opts: RequestOptions }[] } {
  const deps = fakeDeps({ settings }) as FakeDeps & { seen: { id: string; opts: RequestOptions }[] };
  deps.seen = [];
  const answer = async (path: string, opts: RequestOptions) => {
    const id = decodeURIComponent(path.split("/").pop()!);
    deps.seen.push({ id, opts });
    if (!id.includes("ok")) throw new ApiError("Resource not found", { statusCode: 404 });
    return { status: 200, headers: {}, text: JSON.stringify(resource(id)) };
  };
  const client = {
    request: (_m: string, path: string, opts: RequestOptions = {}) => answer(path, opts),
    requestJson: async (_m: string, path: string, parse: (d: unknown) => unknown, opts: RequestOptions = {}) =>
      parse(JSON.parse((await answer(path, opts)).text)),
    close() {},
  } as unknown as ApiClient;
  deps.client = () => {
    deps.clientCalls++;
    return client;
  };
  return deps;
}

const failing = async (p: Promise<void>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("a batch where no id succeeded writes nothing to stdout", () => {
  for (const output of ["table", "json"] as const) {
    it(`get, ${output}`, async () => {
      const deps = withClient({ output });
      const err = await failing(getRun({ ids: ["bkdfo_a", "bkdfo_b"], many: true, concurrency: 8 }, deps));
      expect(err).toBeInstanceOf(BatchError);
      expect(deps.out.text).toBe("");
    });

    it(`delete, ${output}`, async () => {
      const deps = withClient({ output });
      const err = await failing(
        deleteRun({ ids: ["bkdfo_a", "bkdfo_b"], many: true, yes: true, dryRun: false, concurrency: 8 }, deps),
      );
      expect(err).toBeInstanceOf(BatchError);
      expect(deps.out.text).toBe("");
    });

    it(`one id from stdin (many), failing, ${output}`, async () => {
      const deps = withClient({ output });
      expect(await failing(getRun({ ids: ["bkdfo_a"], many: true, concurrency: 8 }, deps))).toBeInstanceOf(ApiError);
      expect(deps.out.text).toBe("");
      const del = withClient({ output });
      expect(
        await failing(deleteRun({ ids: ["bkdfo_a"], many: true, yes: true, dryRun: false, concurrency: 8 }, del)),
      ).toBeInstanceOf(ApiError);
      expect(del.out.text).toBe("");
    });

    it(`a single id argument, failing, ${output}: the error itself, stdout empty`, async () => {
      const deps = withClient({ output });
      expect(await failing(getRun({ ids: ["bkdfo_a"], many: false, concurrency: 8 }, deps))).toBeInstanceOf(ApiError);
      expect(deps.out.text).toBe("");
      const del = withClient({ output });
      expect(
        await failing(deleteRun({ ids: ["bkdfo_a"], many: false, yes: true, dryRun: false, concurrency: 8 }, del)),
      ).toBeInstanceOf(ApiError);
      expect(del.out.text).toBe("");
    });
  }

  it("partial success still prints the successes in input order", async () => {
    const deps = withClient({ output: "json" });
    expect(
      await failing(getRun({ ids: ["bkdfo_ok1", "bkdfo_x", "bkdfo_ok2"], many: true, concurrency: 8 }, deps)),
    ).toBeInstanceOf(BatchError);
    expect((JSON.parse(deps.out.text) as { id: string }[]).map((b) => b.id)).toEqual(["bkdfo_ok1", "bkdfo_ok2"]);
    const del = withClient({ output: "json" });
    expect(
      await failing(
        deleteRun({ ids: ["bkdfo_x", "bkdfo_ok1"], many: true, yes: true, dryRun: false, concurrency: 8 }, del),
      ),
    ).toBeInstanceOf(BatchError);
    expect(JSON.parse(del.out.text)).toEqual([{ id: "bkdfo_ok1", deleted: true }]);
  });
});

describe("rate-limit waits that do not use up --retries", () => {
  it("rateLimitWaits: only for a batch, and only when retries are allowed at all", () => {
    expect(rateLimitWaits(1, 3)).toBe(0);
    expect(rateLimitWaits(2, 3)).toBe(10);
    expect(rateLimitWaits(2, 1)).toBe(10);
    expect(rateLimitWaits(2, 0)).toBe(0);
    expect(rateLimitWaits(500, 0)).toBe(0);
  });

  for (const [name, ids, retries, waits] of [
    ["get, --retries 0", ["bkdfo_ok1", "bkdfo_ok2"], 0, 0],
    ["get, --retries 3", ["bkdfo_ok1", "bkdfo_ok2"], 3, 10],
    ["get, one id", ["bkdfo_ok1"], 3, 0],
  ] as const) {
    it(`${name}: each request gets rateLimitWaits ${waits}`, async () => {
      const deps = withClient({ retries, output: "json" });
      await getRun({ ids: [...ids], many: ids.length > 1, concurrency: 8 }, deps);
      expect(deps.seen.map((s) => s.opts.rateLimitWaits)).toEqual(ids.map(() => waits));
    });
  }

  for (const [name, retries, waits] of [
    ["delete, --retries 0", 0, 0],
    ["delete, --retries 2", 2, 10],
  ] as const) {
    it(`${name}: each request gets rateLimitWaits ${waits}`, async () => {
      const deps = withClient({ retries, output: "json" });
      await deleteRun(
        { ids: ["bkdfo_ok1", "bkdfo_ok2", "bkdfo_ok3"], many: true, yes: true, dryRun: false, concurrency: 8 },
        deps,
      );
      expect(deps.seen.map((s) => s.opts.rateLimitWaits)).toEqual([waits, waits, waits]);
    });
  }
});

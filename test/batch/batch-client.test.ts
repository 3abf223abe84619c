// A batch in-process: runBatch driving one ApiClient against the fault server's rolling-window
// rate limit, on skipped time shared by client and server. What the server let in, per id.
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { deleteFailover } from "../../src/api/failover.js";
import { ApiError } from "../../src/errors.js";
import { rateLimitWaits, runBatch, succeeded } from "../../src/commands/batch.js";
import { startFaultServer, type FaultServer, type FaultServerOptions } from "../helpers/fault-server.js";
import { skippedTime, type SkippedTime } from "../helpers/skipped-time.js";

let server: FaultServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const idOf = (path: string) => decodeURIComponent(path.split("/").pop() ?? "");
const ids = (n: number) => Array.from({ length: n }, (_, i) => `bkdfo_${String(i).padStart(3, "0")}`);

async function deleteAll(
  list: string[],
  rateLimit: NonNullable<FaultServerOptions["rateLimit"]>,
  retries = 3,
  concurrency = 8,
) {
  const time: SkippedTime = skippedTime();
  server = await startFaultServer({ rateLimit, now: time.now });
  server.fallback = () => ({ status: 204 });
  const debug: string[] = [];
  client = new ApiClient({
    baseUrl: server.url,
    apiKey: "key_batch_inproc_1234",
    timeoutMs: 30_000,
    retries,
    maxSockets: concurrency,
    now: time.now,
    sleep: time.sleep,
    debug: (l) => debug.push(l),
  });
  const c = client;
  const outcomes = await runBatch(list, concurrency, (id, onRateLimited) =>
    deleteFailover(c, id, { onRateLimited, rateLimitWaits: rateLimitWaits(list.length, retries) }),
  );
  /** DELETEs the server let in, per id. */
  const letIn = new Map<string, number>();
  for (const q of server.requests) if (!q.rateLimited) letIn.set(idOf(q.path), (letIn.get(idOf(q.path)) ?? 0) + 1);
  return { outcomes, letIn, refused: server.requests.filter((q) => q.rateLimited).length, pacer: c.pacer, debug };
}

describe("a rate-limited batch", () => {
  it("15 deletes at 5 per second with Retry-After: all succeed with the default retries, each deleted once", async () => {
    const list = ids(15);
    const { outcomes, letIn, refused } = await deleteAll(list, { requests: 5, windowMs: 1000, retryAfter: true });
    expect(succeeded(outcomes).map((o) => o.id)).toEqual(list);
    expect(refused).toBeGreaterThan(0);
    expect([...letIn.entries()].sort()).toEqual(list.map((id) => [id, 1]));
  });

  it("with --retries 0 the 429'd ids fail, none is asked for twice, the rest are deleted", async () => {
    const list = ids(15);
    const { outcomes, refused } = await deleteAll(list, { requests: 5, windowMs: 1000, retryAfter: true }, 0);
    const failed = outcomes.filter((o) => o.error !== undefined);
    expect(failed).toHaveLength(refused);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect((f.error as ApiError).statusCode).toBe(429);
    expect(succeeded(outcomes)).toHaveLength(15 - failed.length);
    expect(server!.requests.map((q) => idOf(q.path)).sort()).toEqual(list);
  });

  it("90 deletes at 30 per 5 s without Retry-After: the limit is learned, each id deleted once, none failed", async () => {
    const list = ids(90);
    const { outcomes, letIn, refused, pacer, debug } = await deleteAll(list, { requests: 30, windowMs: 5000 });
    expect(outcomes.filter((o) => o.error !== undefined)).toEqual([]);
    expect(debug.find((l) => l.startsWith("  rate limit learned from 429s: 30 requests per "))).toBeDefined();
    expect([...letIn.entries()].sort()).toEqual(list.map((id) => [id, 1]));
    expect(refused).toBeGreaterThan(0);
    expect(pacer.learned?.limit).toBe(30);
  });

  it("--concurrency 1 without Retry-After: the one id in flight rides out the learning", async () => {
    const list = ids(12);
    const { outcomes, letIn } = await deleteAll(list, { requests: 4, windowMs: 1000 }, 3, 1);
    expect(outcomes.filter((o) => o.error !== undefined)).toEqual([]);
    expect([...letIn.entries()].sort()).toEqual(list.map((id) => [id, 1]));
  });
});

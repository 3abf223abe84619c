// The pacer learns a rate limit from 429s that carry no Retry-After, on a virtual clock:
// workers send through it to a simulated rolling-window limiter, and time passes only when
// everyone is asleep.
import { describe, expect, it } from "vitest";
import { RatePacer } from "../../src/api/pacing.js";

/** A clock whose sleeps end in time order, each when every other task is idle. */
function virtualClock() {
  let now = 0;
  const timers: { at: number; seq: number; wake: () => void }[] = [];
  let seq = 0;
  const idle = () => new Promise<void>((r) => setImmediate(r));
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => timers.push({ at: now + Math.max(0, ms), seq: seq++, wake })),
    /** Runs until `done` settles, moving time to the next timer whenever all tasks wait. */
    async run<T>(done: Promise<T>): Promise<T> {
      let finished = false;
      void done.finally(() => (finished = true));
      for (;;) {
        await idle();
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set in a callback the type checker does not follow
        if (finished) return done;
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers.shift();
        if (!next) throw new Error("stuck: nothing to wait for");
        now = Math.max(now, next.at);
        next.wake();
      }
    },
  };
}

/** The API's limiter: at most `limit` requests let in during any `windowMs`; refused ones do not count. */
function rollingLimiter(limit: number, windowMs: number) {
  const stamps: number[] = [];
  return (now: number): boolean => {
    while (stamps.length && stamps[0]! <= now - windowMs) stamps.shift();
    if (stamps.length >= limit) return false;
    stamps.push(now);
    return true;
  };
}

/** `total` requests, `concurrency` at a time, each repeated on 429 until let in. */
async function drive(
  pacer: RatePacer,
  clock: ReturnType<typeof virtualClock>,
  admit: (now: number) => boolean,
  total: number,
  concurrency: number,
  latencyMs = 5,
) {
  const accepted: number[] = [];
  let refused = 0;
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const id = next++;
      for (;;) {
        const { ticket } = await pacer.acquire();
        await clock.sleep(latencyMs / 2);
        const ok = admit(clock.now());
        await clock.sleep(latencyMs / 2);
        pacer.settle(ticket, { rateLimited: !ok, hinted: false, learn: true });
        if (ok) {
          accepted.push(id);
          break;
        }
        refused++;
      }
    }
  };
  await clock.run(Promise.all(Array.from({ length: concurrency }, worker)));
  return { accepted, refused, elapsed: clock.now() };
}

describe("RatePacer", () => {
  it("lets requests straight through while nothing was refused", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    const { accepted, refused, elapsed } = await drive(pacer, clock, () => true, 50, 8);
    expect(accepted).toHaveLength(50);
    expect(refused).toBe(0);
    expect(elapsed).toBeLessThan(50);
    expect(pacer.learned).toBeUndefined();
  });

  it("90 requests against 30 per 5 s: each let in once, within 90% of the ideal 10 s", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    const { accepted, elapsed } = await drive(pacer, clock, rollingLimiter(30, 5000), 90, 8);
    expect([...accepted].sort((a, b) => a - b)).toEqual(Array.from({ length: 90 }, (_, i) => i));
    expect(elapsed).toBeLessThanOrEqual(10_000 / 0.9);
    expect(pacer.learned?.limit).toBe(30);
    expect(pacer.learned?.windowMs).toBeGreaterThanOrEqual(5000);
    expect(pacer.learned?.windowMs).toBeLessThanOrEqual(5500);
  });

  it("learns the real API's 120 per rolling 60 s, and then meets no more 429s", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    const admit = rollingLimiter(120, 60_000);
    const first = await drive(pacer, clock, admit, 240, 8);
    expect(pacer.learned?.limit).toBe(120);
    expect(first.elapsed).toBeLessThanOrEqual(60_000 / 0.9);
    const before = first.refused;
    const second = await drive(pacer, clock, admit, 240, 8);
    expect(second.accepted).toHaveLength(240);
    expect(second.refused).toBe(0);
    expect(before).toBeGreaterThan(0);
  });

  it("probes one request at a time while the window is unknown", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    const admit = rollingLimiter(10, 2000);
    let sent = 0;
    let inFlightMax = 0;
    let inFlight = 0;
    const counting = (now: number) => {
      sent++;
      return admit(now);
    };
    // Sends after the first refusal, until the window is learned: never two at once.
    const worker = async () => {
      for (let i = 0; i < 5; i++) {
        for (;;) {
          const { ticket } = await pacer.acquire();
          if (ticket.probe) inFlightMax = Math.max(inFlightMax, ++inFlight);
          await clock.sleep(20);
          const ok = counting(clock.now());
          if (ticket.probe) inFlight--;
          pacer.settle(ticket, { rateLimited: !ok, hinted: false, learn: true });
          if (ok) break;
        }
      }
    };
    await clock.run(Promise.all(Array.from({ length: 4 }, worker)));
    expect(inFlightMax).toBe(1);
    expect(pacer.learned?.limit).toBe(10);
    expect(sent).toBeGreaterThan(20);
  });

  it("lowers the limit when refused while keeping to it", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    // Learn 10 per 1 s, then the API allows only 5.
    await drive(pacer, clock, rollingLimiter(10, 1000), 20, 4);
    expect(pacer.learned?.limit).toBe(10);
    await clock.run(clock.sleep(2000));
    const { accepted } = await drive(pacer, clock, rollingLimiter(5, 1000), 20, 4);
    expect(accepted).toHaveLength(20);
    expect(pacer.learned?.limit).toBeLessThanOrEqual(5);
  });

  it("a 429 with Retry-After or from a lone request teaches nothing, and Retry-After pauses every request", async () => {
    const clock = virtualClock();
    const pacer = new RatePacer(clock);
    const a = await pacer.acquire();
    pacer.settle(a.ticket, { rateLimited: true, hinted: true, learn: true });
    const b = await pacer.acquire();
    pacer.settle(b.ticket, { rateLimited: true, hinted: false, learn: false });
    expect(pacer.readyAt(clock.now())).toBe(clock.now());
    pacer.pauseUntil(1500);
    expect(pacer.readyAt(0)).toBe(1500);
    const c = await clock.run(pacer.acquire());
    expect(c.waitedMs).toBe(1500);
    expect(pacer.learned).toBeUndefined();
  });
});

// When the next request of a client may go. Two sources: a 429's Retry-After, which pauses
// the whole client, and, when the API answers 429 without one (the real API does), a limit
// learned from the 429s themselves. The API counts requests in a rolling window (120 per
// 60 s); the first 429 of a batch marks the limit reached, so the requests let in before it
// are the limit, and the first request let in again after it measures the window: it went
// through once the oldest of them had left the window. From then on the client keeps its own
// rolling log and sends at that rate, instead of meeting 429s and backing off blind.
// The clock and sleep are injected, so the schedule is tested without waiting.

export interface PacerClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** A send the pacer let through; handed back with its answer. */
export interface Ticket {
  readonly at: number;
  /** Sent to find out whether the window had moved on (while learning). */
  readonly probe: boolean;
}

/** The smallest gap between two probes while the window is unknown. */
const MIN_PROBE_STEP_MS = 100;
/**
 * Probes grow apart with the time waited: a window of W is then measured to within a tenth
 * of the wait, and learning it takes some 50 probes for a minute-long window, spread over
 * the requests waiting (each may meet only so many 429s).
 */
const PROBE_STEP_FRACTION = 0.1;

type Mode =
  | { kind: "open" }
  /** Limit reached, window unknown: one probe at a time, at `next`; `refused`, the last probe refused. */
  | { kind: "learning"; since: number; next: number; refused?: number }
  /**
   * `limit` requests per `windowMs`, kept with the log of sends. The window is taken between
   * the last probe refused and the first let in; `maxWindowMs`, the first let in, is sure.
   */
  | { kind: "paced"; limit: number; windowMs: number; maxWindowMs: number; changedAt: number };

export class RatePacer {
  private mode: Mode = { kind: "open" };
  private pausedUntil = 0;
  /** Send times of requests let in or still in flight, oldest first. */
  private log: number[] = [];

  constructor(private readonly clock: PacerClock) {}

  /** What was learned, for --debug and tests. */
  get learned(): { limit: number; windowMs: number } | undefined {
    return this.mode.kind === "paced" ? { limit: this.mode.limit, windowMs: this.mode.windowMs } : undefined;
  }

  /** Holds every request until `until` (a Retry-After). */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** When a request could go, if asked at `now`. */
  readyAt(now: number): number {
    let at = Math.max(now, this.pausedUntil);
    const mode = this.mode;
    if (mode.kind === "learning") at = Math.max(at, mode.next);
    if (mode.kind === "paced") {
      const inWindow = this.log.filter((t) => t > at - mode.windowMs);
      // The log holds the sends in time order: the send that must leave the window first.
      if (inWindow.length >= mode.limit) at = Math.max(at, inWindow[inWindow.length - mode.limit]! + mode.windowMs);
    }
    return at;
  }

  /** A request that may go now is recorded as sent, without waiting; undefined if it must wait. */
  tryAcquire(): { ticket: Ticket; waitedMs: number } | undefined {
    const now = this.clock.now();
    return this.readyAt(now) <= now ? { ticket: this.take(now), waitedMs: 0 } : undefined;
  }

  /** Waits until a request may go and records it as sent; resolves with the time waited. */
  async acquire(): Promise<{ ticket: Ticket; waitedMs: number }> {
    const start = this.clock.now();
    for (;;) {
      const now = this.clock.now();
      const at = this.readyAt(now);
      if (at <= now) return { ticket: this.take(now), waitedMs: now - start };
      // While learning, the probe in flight may end it at any moment: look again soon.
      await this.clock.sleep(this.mode.kind === "learning" ? Math.min(at - now, MIN_PROBE_STEP_MS) : at - now);
    }
  }

  /**
   * The answer to a send. `learn` is false for a request that must not teach the limit (one
   * request alone keeps the plain retry rule); a 429 with Retry-After teaches nothing either.
   */
  settle(ticket: Ticket, answer: { rateLimited: boolean; hinted: boolean; learn: boolean }): void {
    const now = this.clock.now();
    if (answer.rateLimited) {
      // A refused request did not count against the limit.
      this.forget(ticket);
      if (answer.hinted || !answer.learn) return;
      const mode = this.mode;
      if (mode.kind === "open")
        this.mode = { kind: "learning", since: this.log[0] ?? now, next: now + MIN_PROBE_STEP_MS };
      else if (mode.kind === "learning" && ticket.probe) mode.refused = ticket.at;
      else if (mode.kind === "paced" && ticket.at > mode.changedAt) {
        // Refused while keeping to the learned rate: the window is longer than the middle
        // guess, or someone else shares the limit, or it is lower. (A send made before the
        // last change says nothing about the rate now.)
        const change =
          mode.windowMs < mode.maxWindowMs ? { windowMs: mode.maxWindowMs } : { limit: Math.max(1, mode.limit - 1) };
        this.mode = { ...mode, ...change, changedAt: now };
      }
      return;
    }
    if (ticket.probe && this.mode.kind === "learning") {
      // Let in: the oldest send had left the window. Those still in the log before this one
      // (refused ones were forgotten) are what the window holds.
      const since = this.log[0] ?? this.mode.since;
      const limit = Math.max(1, this.log.filter((t) => t < ticket.at).length);
      // Measured to the answer, not the send: the server saw the probe somewhere in between.
      const maxWindowMs = Math.max(1, now - since);
      const minWindowMs = this.mode.refused === undefined ? maxWindowMs : this.mode.refused - since;
      this.mode = {
        kind: "paced",
        limit,
        windowMs: Math.max(1, (minWindowMs + maxWindowMs) / 2),
        maxWindowMs,
        changedAt: now,
      };
    }
    if (this.mode.kind === "paced") this.trim(now - this.mode.maxWindowMs);
  }

  private take(now: number): Ticket {
    const mode = this.mode;
    let probe = false;
    if (mode.kind === "learning") {
      probe = true;
      mode.next = now + Math.max(MIN_PROBE_STEP_MS, PROBE_STEP_FRACTION * (now - mode.since));
    }
    this.log.push(now);
    return { at: now, probe };
  }

  private forget(ticket: Ticket): void {
    const i = this.log.lastIndexOf(ticket.at);
    if (i >= 0) this.log.splice(i, 1);
  }

  /** Sends older than the window no longer matter. */
  private trim(before: number): void {
    let drop = 0;
    while (drop < this.log.length && this.log[drop]! <= before) drop++;
    if (drop > 0) this.log.splice(0, drop);
  }
}

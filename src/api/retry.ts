// The retry rule, as one pure decision: what happened to an attempt, and how much time and
// rate-limit budget is left, in; whether to try again, after how long, and whether the whole
// client pauses, out. No clock, no randomness, no I/O: the client supplies `now` and the
// jitter draw, so a table of cases pins the rule (README "Reliability and security").
import type { IncomingHttpHeaders } from "node:http";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How an exchange failed without an answer. */
export type FailureKind =
  /** The request provably never reached the server (connection refused): safe to repeat even a POST. */
  | "never-sent"
  /** Lost on the way (reset, timeout, cut-off body): the server may have acted on it. */
  | "lost"
  /** Not worth repeating (host not found after connecting, a certificate problem, a body too large). */
  | "fatal";

export type Outcome = { status: number; headers: IncomingHttpHeaders } | { failure: FailureKind };

export interface RetryInput {
  method: Method;
  /** This attempt's number among those counted against --retries (1 for the first). */
  attempt: number;
  /** --retries + 1. */
  maxAttempts: number;
  outcome: Outcome;
  /** Milliseconds left of --timeout for this request. */
  timeLeftMs: number;
  /** 429 answers this request may still wait out without using up --retries (a batch's). */
  rateLimitWaits: number;
  /** Date.now() when the answer came, for a Retry-After given as an HTTP date. */
  now: number;
  /** A draw in [0, 1) for the backoff's jitter. */
  jitter: number;
  /** The first backoff step; doubled per attempt. */
  backoffBaseMs: number;
  /**
   * The client paces a batch's sends by the limit it learns from hintless 429s (pacing.ts),
   * so such a 429 needs no backoff of its own: the pacer holds the next attempt.
   */
  paced?: boolean;
}

export type RetryDecision =
  | {
      retry: true;
      waitMs: number;
      /** A 429: no request of this client starts within `waitMs` (a batch pauses as one). */
      pauseClient: boolean;
      /**
       * One of the batch's free rate-limit waits: the next attempt keeps this attempt's
       * number and its --timeout starts afresh (the time queued is not the id's).
       */
      free: boolean;
    }
  | { retry: false; why: "done" | "not retryable" | "no attempts left" | "no time left"; waitMs?: number };

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
export const RETRY_AFTER_CAP_MS = 60_000;
const BACKOFF_CAP_MS = 30_000;

const idempotent = (method: Method) => method !== "POST" && method !== "PATCH";

export function decideRetry(input: RetryInput): RetryDecision {
  const { method, attempt, maxAttempts, outcome, timeLeftMs } = input;
  if ("failure" in outcome) {
    const canRetry = outcome.failure === "never-sent" || (idempotent(method) && outcome.failure === "lost");
    if (!canRetry) return { retry: false, why: "not retryable" };
    if (attempt >= maxAttempts) return { retry: false, why: "no attempts left" };
    const waitMs = backoffMs(attempt, input.backoffBaseMs, input.jitter);
    if (waitMs >= timeLeftMs) return { retry: false, why: "no time left", waitMs };
    return { retry: true, waitMs, pauseClient: false, free: false };
  }
  const { status, headers } = outcome;
  if (status < 300) return { retry: false, why: "done" };
  const rateLimited = status === 429;
  // A 429 means the API did not act on the request, so even a POST may be repeated.
  if (!RETRY_STATUSES.has(status) || !(idempotent(method) || rateLimited))
    return { retry: false, why: "not retryable" };
  const free = rateLimited && input.rateLimitWaits > 0;
  if (!free && attempt >= maxAttempts) return { retry: false, why: "no attempts left" };
  const retryAfter = retryAfterMs(headers["retry-after"], input.now);
  if (free && input.paced && retryAfter === undefined) return { retry: true, waitMs: 0, pauseClient: false, free };
  const waitMs = retryAfter ?? backoffMs(attempt, input.backoffBaseMs, input.jitter);
  // A batch's rate-limit wait starts the id's time afresh; any other wait must fit.
  if (!free && waitMs >= timeLeftMs) return { retry: false, why: "no time left", waitMs };
  return { retry: true, waitMs, pauseClient: rateLimited, free };
}

/** Exponential backoff with jitter (half fixed, half drawn), which spreads many clients' retries. */
export function backoffMs(attempt: number, baseMs: number, jitter: number): number {
  const backoff = Math.min(baseMs * 2 ** (attempt - 1), BACKOFF_CAP_MS);
  return Math.round(backoff / 2 + (jitter * backoff) / 2);
}

/** Retry-After in seconds or as an HTTP date, capped at 60 s; undefined when absent or unusable. */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  let ms: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) ms = Number(value) * 1000;
  else {
    // Date.parse accepts junk like "-1"; only the HTTP-date form counts.
    if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
    const date = Date.parse(value);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(Math.max(0, Math.round(ms)), RETRY_AFTER_CAP_MS);
}

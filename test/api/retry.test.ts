// The retry rule (README "Reliability and security") as a table: method, attempt, outcome,
// time left and rate-limit budget in; retry or not, the wait and the client-wide pause out.
import { describe, expect, it } from "vitest";
import {
  backoffMs,
  decideRetry,
  type Method,
  type Outcome,
  type RetryDecision,
  type RetryInput,
} from "../../src/api/retry.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");

const answer = (status: number, headers: Record<string, string> = {}): Outcome => ({
  status,
  headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
});
const failed = (failure: "never-sent" | "lost" | "fatal"): Outcome => ({ failure });

/** Attempt 1 of 4 (--retries 3), a minute left, no batch budget, jitter 0.5, 500 ms base. */
const input = (method: Method, outcome: Outcome, over: Partial<RetryInput> = {}): RetryInput => ({
  method,
  attempt: 1,
  maxAttempts: 4,
  outcome,
  timeLeftMs: 60_000,
  rateLimitWaits: 0,
  now: NOW,
  jitter: 0.5,
  backoffBaseMs: 500,
  ...over,
});

const retry = (waitMs: number, extra: Partial<{ pauseClient: boolean; free: boolean }> = {}): RetryDecision => ({
  retry: true,
  waitMs,
  pauseClient: false,
  free: false,
  ...extra,
});
const stop = (why: "done" | "not retryable" | "no attempts left" | "no time left", waitMs?: number): RetryDecision =>
  waitMs === undefined ? { retry: false, why } : { retry: false, why, waitMs };

// Backoff at jitter 0.5 and base 500: attempt 1 → 375 ms, 2 → 750, 3 → 1500.
const cases: [string, RetryInput, RetryDecision][] = [
  ["a 200 is done", input("GET", answer(200)), stop("done")],
  ["a 204 DELETE is done", input("DELETE", answer(204)), stop("done")],
  ["GET on 503 backs off", input("GET", answer(503)), retry(375)],
  ["GET on 502 at attempt 2 backs off twice as long", input("GET", answer(502), { attempt: 2 }), retry(750)],
  ["PUT on 504 at attempt 3 backs off four times as long", input("PUT", answer(504), { attempt: 3 }), retry(1500)],
  ["DELETE on 503 with Retry-After: 2 waits 2 s", input("DELETE", answer(503, { "Retry-After": "2" })), retry(2000)],
  ["GET on 503 with Retry-After: 0 waits nothing", input("GET", answer(503, { "Retry-After": "0" })), retry(0)],
  [
    "Retry-After as an HTTP date",
    input("GET", answer(503, { "Retry-After": "Sun, 01 Mar 2026 12:00:03 GMT" })),
    retry(3000),
  ],
  [
    "Retry-After as a past HTTP date means now",
    input("GET", answer(503, { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" })),
    retry(0),
  ],
  [
    "Retry-After is capped at 60 s",
    input("GET", answer(429, { "Retry-After": "3600" }), { timeLeftMs: 120_000 }),
    retry(60_000, { pauseClient: true }),
  ],
  ["junk Retry-After falls back to backoff", input("GET", answer(503, { "Retry-After": "-1" })), retry(375)],
  [
    "GET on 429 pauses the whole client",
    input("GET", answer(429, { "Retry-After": "1" })),
    retry(1000, { pauseClient: true }),
  ],
  ["GET on 500 is not retried", input("GET", answer(500)), stop("not retryable")],
  ["GET on 404 is not retried", input("GET", answer(404)), stop("not retryable")],
  ["GET on 400 is not retried", input("GET", answer(400)), stop("not retryable")],
  [
    "a redirect is not followed nor retried",
    input("GET", answer(302, { Location: "https://elsewhere.example/" })),
    stop("not retryable"),
  ],
  ["POST on 503 is not repeated", input("POST", answer(503, { "Retry-After": "0" })), stop("not retryable")],
  ["POST on 502 is not repeated", input("POST", answer(502)), stop("not retryable")],
  ["PATCH on 503 is not repeated", input("PATCH", answer(503)), stop("not retryable")],
  [
    "POST on 429 is repeated: the API did not act",
    input("POST", answer(429, { "Retry-After": "0" })),
    retry(0, { pauseClient: true }),
  ],
  ["GET on 503 at the last attempt stops", input("GET", answer(503), { attempt: 4 }), stop("no attempts left")],
  ["--retries 0: GET on 503 stops at once", input("GET", answer(503), { maxAttempts: 1 }), stop("no attempts left")],
  [
    "a wait longer than the time left is not waited",
    input("GET", answer(429, { "Retry-After": "5" }), { timeLeftMs: 4000 }),
    stop("no time left", 5000),
  ],
  [
    "a wait equal to the time left is not waited",
    input("GET", answer(503), { timeLeftMs: 375 }),
    stop("no time left", 375),
  ],
  [
    "a batch's 429 is a free wait",
    input("DELETE", answer(429, { "Retry-After": "1" }), { rateLimitWaits: 10 }),
    retry(1000, { pauseClient: true, free: true }),
  ],
  [
    "a batch's 429 is free even at the last attempt",
    input("GET", answer(429, { "Retry-After": "1" }), { attempt: 4, rateLimitWaits: 1 }),
    retry(1000, { pauseClient: true, free: true }),
  ],
  [
    "a batch's free 429 wait may pass --timeout",
    input("GET", answer(429, { "Retry-After": "30" }), { rateLimitWaits: 3, timeLeftMs: 1000 }),
    retry(30_000, { pauseClient: true, free: true }),
  ],
  [
    "a batch's budget used up: the 429 counts as an attempt",
    input("GET", answer(429, { "Retry-After": "1" }), { rateLimitWaits: 0 }),
    retry(1000, { pauseClient: true }),
  ],
  [
    "a batch's budget used up at the last attempt stops",
    input("GET", answer(429, { "Retry-After": "1" }), { attempt: 4, rateLimitWaits: 0 }),
    stop("no attempts left"),
  ],
  [
    "a batch's 503 is not free",
    input("GET", answer(503), { rateLimitWaits: 10, attempt: 4 }),
    stop("no attempts left"),
  ],
  [
    "a paced batch's hintless 429: the pacer holds the next attempt",
    input("DELETE", answer(429), { rateLimitWaits: 10, paced: true }),
    retry(0, { free: true }),
  ],
  [
    "a paced batch's hinted 429 still waits as told",
    input("DELETE", answer(429, { "Retry-After": "2" }), { rateLimitWaits: 10, paced: true }),
    retry(2000, { pauseClient: true, free: true }),
  ],
  [
    "a hintless 429 outside a batch backs off",
    input("GET", answer(429), { paced: false }),
    retry(375, { pauseClient: true }),
  ],
  ["GET after a reset backs off", input("GET", failed("lost")), retry(375)],
  ["DELETE after a timeout at attempt 2 backs off", input("DELETE", failed("lost"), { attempt: 2 }), retry(750)],
  ["POST after a reset is not repeated", input("POST", failed("lost")), stop("not retryable")],
  ["PATCH after a reset is not repeated", input("PATCH", failed("lost")), stop("not retryable")],
  ["POST refused (never sent) is repeated", input("POST", failed("never-sent")), retry(375)],
  ["GET refused (never sent) is repeated", input("GET", failed("never-sent")), retry(375)],
  ["a fatal failure (bad certificate) is not repeated", input("GET", failed("fatal")), stop("not retryable")],
  ["a reset at the last attempt stops", input("GET", failed("lost"), { attempt: 4 }), stop("no attempts left")],
  [
    "a reset with too little time left stops",
    input("GET", failed("lost"), { timeLeftMs: 100 }),
    stop("no time left", 375),
  ],
];

describe("decideRetry", () => {
  it.each(cases)("%s", (_name, given, expected) => {
    expect(decideRetry(given)).toEqual(expected);
  });
});

describe("backoffMs", () => {
  it.each([
    [1, 0, 250],
    [1, 0.999, 500],
    [2, 0, 500],
    [3, 0.5, 1500],
    [7, 0, 15_000],
    [20, 1, 30_000],
  ])("attempt %i with jitter %f waits %i ms", (attempt, jitter, ms) => {
    expect(backoffMs(attempt, 500, jitter)).toBe(ms);
  });
});

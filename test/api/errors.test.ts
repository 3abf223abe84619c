import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthError,
  BatchError,
  CheckFailedError,
  EXIT_CODES,
  EdgectlError,
  InterruptedError,
  NetworkError,
  UsageError,
} from "../../src/errors.js";

const exitOf = (err: EdgectlError) => EXIT_CODES[err.kind];

describe("error kinds map to the contract's exit codes", () => {
  it("exits 2 for a usage error", () => {
    const err = new UsageError("bad");
    expect(err.kind).toBe("usage");
    expect(exitOf(err)).toBe(2);
  });

  it("exits 1 for a check that did not pass (webhook verify, policy test --cases), kind check", () => {
    const err = new CheckFailedError("not verified");
    expect(err.kind).toBe("check");
    expect(exitOf(err)).toBe(1);
  });

  it("exits 1 for an API error", () => {
    const err = new ApiError("nope", { statusCode: 404, errorCode: "ERR_NGROK_404" });
    expect(err.kind).toBe("api");
    expect(exitOf(err)).toBe(1);
    expect(err.statusCode).toBe(404);
    expect(err.errorCode).toBe("ERR_NGROK_404");
  });

  it("exits 3 for a network error and keeps the status it saw", () => {
    const err = new NetworkError("reset", { statusCode: 200 });
    expect(err.kind).toBe("network");
    expect(exitOf(err)).toBe(3);
    expect(err.statusCode).toBe(200);
  });

  it("keeps the cause of a network error", () => {
    const cause = new Error("ECONNRESET");
    expect(new NetworkError("reset", { cause }).cause).toBe(cause);
  });

  it("exits 4 for an auth error, which is also an ApiError", () => {
    const err = new AuthError("no key");
    expect(err.kind).toBe("auth");
    expect(exitOf(err)).toBe(4);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.statusCode).toBeUndefined();
    const refused = new AuthError("refused", { statusCode: 401, errorCode: "ERR_NGROK_401" });
    expect(refused.statusCode).toBe(401);
  });

  it("exits 130 when interrupted", () => {
    const err = new InterruptedError("ctrl-c");
    expect(err.kind).toBe("interrupted");
    expect(exitOf(err)).toBe(130);
  });

  it("has exactly the documented codes", () => {
    expect(EXIT_CODES).toEqual({ api: 1, internal: 1, check: 1, usage: 2, network: 3, auth: 4, interrupted: 130 });
  });

  it("keeps the message and is an Error", () => {
    const err = new UsageError("--provider: required");
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe("--provider: required");
  });
});

describe("BatchError takes the worst kind among its failures", () => {
  const f = (error: unknown) => ({ id: "bkdfo_x", error });

  it("is api when every failure is an API error", () => {
    expect(
      new BatchError("2 failed", [f(new ApiError("a", { statusCode: 404 })), f(new ApiError("b", { statusCode: 500 }))])
        .kind,
    ).toBe("api");
  });

  it("prefers network over api", () => {
    expect(new BatchError("x", [f(new ApiError("a", { statusCode: 404 })), f(new NetworkError("n"))]).kind).toBe(
      "network",
    );
  });

  it("prefers auth over network and api, regardless of order", () => {
    const errs = [new AuthError("k"), new NetworkError("n"), new ApiError("a", { statusCode: 500 })];
    expect(new BatchError("x", errs.map(f)).kind).toBe("auth");
    expect(new BatchError("x", [...errs].reverse().map(f)).kind).toBe("auth");
  });

  it("prefers interrupted over everything", () => {
    expect(
      new BatchError("x", [f(new AuthError("k")), f(new InterruptedError("i")), f(new UsageError("u"))]).kind,
    ).toBe("interrupted");
  });

  it("counts an unknown error as internal (exit 1, not a network error to retry)", () => {
    expect(new BatchError("x", [f(new TypeError("boom")), f(new ApiError("a", { statusCode: 400 }))]).kind).toBe(
      "internal",
    );
    expect(
      EXIT_CODES[new BatchError("x", [f(new ApiError("a", { statusCode: 400 })), f(new TypeError("boom"))]).kind],
    ).toBe(1);
  });

  it("keeps the failures it was given", () => {
    const failures = [f(new ApiError("a", { statusCode: 404 }))];
    expect(new BatchError("1 of 2", failures).failures).toBe(failures);
  });
});

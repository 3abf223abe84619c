import { describe, expect, it } from "vitest";
import { ApiError, AuthError, InterruptedError, NetworkError, UsageError } from "../../src/errors.js";
import { errorView, formatError } from "../../src/output/error.js";

const apiErr = () =>
  new ApiError("The failover backend was not found.", {
    statusCode: 404,
    errorCode: "ERR_NGROK_404",
    operationId: "op_2abcXYZ",
    details: { operation_id: "op_2abcXYZ" },
  });

describe("formatError for people", () => {
  it("starts with error: and ends with one newline", () => {
    const out = formatError(new UsageError("--backends: needs at least one child backend id"), { json: false });
    expect(out).toBe("error: --backends: needs at least one child backend id\n");
  });

  it("shows an API error's HTTP status, error_code and operation_id", () => {
    const out = formatError(apiErr(), { json: false });
    expect(out.startsWith("error: The failover backend was not found.")).toBe(true);
    expect(out).toContain("HTTP 404");
    expect(out).toContain("ERR_NGROK_404");
    expect(out).toContain("op_2abcXYZ");
    expect(out.split("\n")).toHaveLength(2);
  });

  it("shows the status of an API error without error_code", () => {
    const out = formatError(new ApiError("boom", { statusCode: 500 }), { json: false });
    expect(out).toBe("error: boom (HTTP 500)\n");
  });

  it("shows a refused key as an auth error with its status", () => {
    const out = formatError(new AuthError("invalid key", { statusCode: 401, errorCode: "ERR_NGROK_401" }), {
      json: false,
    });
    expect(out).toBe("error: invalid key (HTTP 401, ERR_NGROK_401)\n");
  });

  it("names the id of a batch item", () => {
    expect(formatError(new NetworkError("connection refused"), { json: false, id: "bkdfo_1" })).toBe(
      "error: bkdfo_1: connection refused\n",
    );
  });

  it("escapes control characters in the message, id and codes", () => {
    const err = new ApiError("bad \x1b[31mred\x1b[0m\nline \u009b \u202e", {
      statusCode: 400,
      errorCode: "E\x07",
      operationId: "op\r",
    });
    const out = formatError(err, { json: false, id: "x\x1b" });
    expect(out.slice(0, -1)).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e]/);
    expect(out).toContain("\\x1b[31mred\\x1b[0m\\nline \\x9b \\u202e");
    expect(out).toContain("E\\x07");
    expect(out).toContain("op\\r");
    expect(out).toContain("x\\x1b: ");
  });

  it("reports an unexpected non-edgectl error as internal, without a stack trace", () => {
    const err = new TypeError("cannot read x");
    const out = formatError(err, { json: false });
    expect(out).toBe("error: internal error: cannot read x (a bug in edgectl; --debug shows where)\n");
    expect(out).not.toContain("    at ");
  });
});

describe("formatError as JSON", () => {
  it("escapes C1 and bidi control characters in the JSON form", () => {
    const out = formatError(new ApiError("a\u009b2J\u202eb", { statusCode: 400, errorCode: "E\u0085" }), {
      json: true,
    });
    expect(out).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain("\\u009b2J\\u202eb");
    expect(JSON.parse(out).error.message).toBe("a\u009b2J\u202eb");
  });

  it("is exactly one JSON object with kind and message for a usage error", () => {
    const out = formatError(new UsageError("bad input"), { json: true });
    expect(out.endsWith("\n")).toBe(true);
    expect(out.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(out)).toEqual({ error: { kind: "usage", message: "bad input" } });
  });

  it("carries status_code, error_code, operation_id and details of an API error", () => {
    expect(JSON.parse(formatError(apiErr(), { json: true }))).toEqual({
      error: {
        kind: "api",
        message: "The failover backend was not found.",
        status_code: 404,
        error_code: "ERR_NGROK_404",
        operation_id: "op_2abcXYZ",
        details: { operation_id: "op_2abcXYZ" },
      },
    });
  });

  it.each([
    [new NetworkError("timed out"), "network"],
    [new AuthError("no key"), "auth"],
    [new InterruptedError("interrupted (SIGINT)"), "interrupted"],
    [new Error("weird"), "internal"],
  ] as const)("uses the kind of %s", (err, kind) => {
    const view = JSON.parse(formatError(err, { json: true })).error;
    expect(view.kind).toBe(kind);
    expect(Object.keys(view).sort()).toEqual(["kind", "message"]);
  });

  it("keeps the status of a network error about an unreadable answer", () => {
    expect(JSON.parse(formatError(new NetworkError("bad body", { statusCode: 200 }), { json: true }))).toEqual({
      error: { kind: "network", message: "bad body", status_code: 200 },
    });
  });

  it("adds the id of a batch item", () => {
    expect(
      JSON.parse(formatError(new ApiError("gone", { statusCode: 404 }), { json: true, id: "bkdfo_9" })).error.id,
    ).toBe("bkdfo_9");
  });

  it("escapes C0 control characters in the message", () => {
    const out = formatError(new UsageError("a\x1b[31mb\nc"), { json: true });
    expect(out.trimEnd()).not.toMatch(/[\x00-\x1f]/);
    expect(JSON.parse(out).error.message).toBe("a\x1b[31mb\nc");
  });
});

describe("errorView", () => {
  it("leaves out fields the error does not have", () => {
    expect(errorView(new ApiError("x", { statusCode: undefined }))).toEqual({ kind: "api", message: "x" });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseBody, parseErrorBody, retryAfterMs, type RawResponse } from "../../src/api/client.js";
import { NetworkError } from "../../src/errors.js";

const response = (status: number, text: string): RawResponse => ({ status, headers: {}, text });
const asObject = (data: unknown) => {
  if (!data || typeof data !== "object" || !("id" in data)) throw new Error("id: missing");
  return data as { id: string };
};

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("parseErrorBody", () => {
  it("reads the API's error body", () => {
    const text = JSON.stringify({
      error_code: "ERR_NGROK_218",
      status_code: 400,
      msg: "bad id",
      details: { operation_id: "op_123" },
    });
    expect(parseErrorBody(text)).toEqual({
      msg: "bad id",
      error_code: "ERR_NGROK_218",
      status_code: 400,
      details: { operation_id: "op_123" },
    });
  });

  it("accepts a body without error_code", () => {
    const body = parseErrorBody(
      JSON.stringify({ status_code: 404, msg: "not found", details: { operation_id: "op_9" } }),
    );
    expect(body?.error_code).toBeUndefined();
    expect(body?.msg).toBe("not found");
    expect(body?.details?.operation_id).toBe("op_9");
  });

  it("keeps other details and drops a non-string operation_id", () => {
    const body = parseErrorBody(JSON.stringify({ msg: "m", details: { operation_id: 7, field: "backends" } }));
    expect(body?.details).toEqual({ operation_id: undefined, field: "backends" });
  });

  it("ignores fields of the wrong type", () => {
    const body = parseErrorBody(JSON.stringify({ msg: "m", error_code: 5, status_code: "400", details: ["x"] }));
    expect(body).toEqual({ msg: "m", error_code: undefined, status_code: undefined, details: undefined });
  });

  it.each([
    ["invalid JSON", "<html>502</html>"],
    ["an empty body", ""],
    ["a JSON array", '[{"msg":"x"}]'],
    ["JSON null", "null"],
    ["a JSON string", '"msg"'],
    ["an object without msg", '{"error_code":"E"}'],
    ["a non-string msg", '{"msg":42}'],
  ])("returns undefined for %s", (_what, text) => {
    expect(parseErrorBody(text)).toBeUndefined();
  });
});

describe("parseBody", () => {
  it("returns what the parser makes of a JSON body", () => {
    expect(parseBody(response(200, '{"id":"bkdfo_1"}'), asObject)).toEqual({ id: "bkdfo_1" });
  });

  it("refuses an empty body with a NetworkError carrying the status", () => {
    const err = caught(() => parseBody(response(200, "  \n"), asObject));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).statusCode).toBe(200);
    expect((err as NetworkError).message).toMatch(/200.*empty body/);
  });

  it("refuses invalid JSON with a NetworkError and an escaped excerpt", () => {
    const err = caught(() => parseBody(response(201, "\x1b[31m<html>oops\x07</html>"), asObject)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.statusCode).toBe(201);
    expect(err.message).toContain("not valid JSON");
    expect(err.message).toContain("\\x1b[31m<html>oops\\x07</html>");
    expect(err.message).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it("cuts a long invalid body to a short excerpt", () => {
    const err = caught(() => parseBody(response(200, `x${"y".repeat(5000)}`), asObject)) as NetworkError;
    expect(err.message.length).toBeLessThan(400);
    expect(err.message).toContain("…");
  });

  it("refuses a body of the wrong shape with the parser's reason", () => {
    const err = caught(() => parseBody(response(200, '{"name":"\u009b2J"}'), asObject)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.statusCode).toBe(200);
    expect(err.message).toContain("unexpected body (id: missing)");
    expect(err.message).toContain("\\x9b2J");
    expect(err.message).not.toContain("\u009b");
  });
});

describe("retryAfterMs", () => {
  it.each(["-1", "-5", "soon 3", "1,5"])("returns undefined for the non-date %j", (value) => {
    expect(retryAfterMs(value)).toBeUndefined();
  });

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads delay-seconds", () => {
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(" 5 ")).toBe(5000);
    expect(retryAfterMs("1.5")).toBe(1500);
  });

  it("reads an HTTP date relative to now", () => {
    expect(retryAfterMs("Sun, 01 Mar 2026 12:00:10 GMT")).toBe(10_000);
  });

  it("treats a date in the past as no wait", () => {
    expect(retryAfterMs("Sun, 01 Mar 2026 11:00:00 GMT")).toBe(0);
  });

  it("caps the wait at 60 seconds", () => {
    expect(retryAfterMs("61")).toBe(60_000);
    expect(retryAfterMs("86400")).toBe(60_000);
    expect(retryAfterMs("Mon, 02 Mar 2026 12:00:00 GMT")).toBe(60_000);
  });

  it("uses the first of several header values", () => {
    expect(retryAfterMs(["3", "50"])).toBe(3000);
  });

  it.each([undefined, "", "soon", "abc", "1e3", "Infinity", "5 seconds", "0x10"])(
    "returns undefined for %j",
    (value) => {
      expect(retryAfterMs(value)).toBeUndefined();
    },
  );
});

// The CEL adapter's conversion of plain data (src/policy/evaluate/cel.ts): maps are converted
// lazily, entry by entry, so every way CEL reads a map must still see the whole of it — size,
// `in`, `has()`, the macros that iterate, equality with a literal — and whole numbers stay ints.
import { describe, expect, test } from "vitest";
import { evaluateExpression } from "../../../src/policy/evaluate/cel.js";
import { connVariables } from "../../../src/policy/evaluate/scope.js";

const activation = {
  req: { headers: { host: ["a"], x: ["1", "2"] }, url: { port: 8080, params: { n: [{ k: 1 }] } } },
  vars: { n: 1, f: 1.5 },
};

describe("CEL over lazily converted data", () => {
  test.each([
    "size(req.headers) == 2",
    "'host' in req.headers",
    "!('nope' in req.headers)",
    "has(req.url.port)",
    "!has(req.url.nope)",
    "req.headers.exists(k, k == 'x')",
    "req.headers.all(k, size(req.headers[k]) > 0)",
    "req.headers == {'host': ['a'], 'x': ['1', '2']}",
    "req.url.port == 8080",
    "vars.n + 1 == 2",
    "vars.f == 1.5",
    "req.url.params.n[0].k == 1",
    "req.headers.x.size() == 2",
  ])("%s", (expression) => {
    expect(evaluateExpression(expression, activation)).toEqual({ value: true });
  });

  test("a map comes back as the plain data it was", () => {
    expect(evaluateExpression("req.headers", activation)).toEqual({ value: { host: ["a"], x: ["1", "2"] } });
  });

  test("a new activation is read afresh, not the one converted before it", () => {
    expect(evaluateExpression("vars.n", { vars: { n: 1 } })).toEqual({ value: 1 });
    expect(evaluateExpression("vars.n", { vars: { n: 2 } })).toEqual({ value: 2 });
  });
});

describe("time.now (snippets/traffic-policy/variables/time.mdx), made once a second", () => {
  test("whole seconds of each request's own time", () => {
    const now = (iso: string) =>
      (
        connVariables(
          {
            method: "GET",
            url: "https://a.example/",
            headers: {},
            body: Buffer.alloc(0),
            clientIp: "",
            time: new Date(iso),
          },
          "https",
        ).time as { now: string }
      ).now;
    expect(now("2026-12-01T10:00:00.100Z")).toBe("2026-12-01T10:00:00Z");
    expect(now("2026-12-01T10:00:00.900Z")).toBe("2026-12-01T10:00:00Z");
    expect(now("2026-12-01T10:00:01.000Z")).toBe("2026-12-01T10:00:01Z");
    expect(now("2025-01-02T03:04:05.999Z")).toBe("2025-01-02T03:04:05Z");
  });
});

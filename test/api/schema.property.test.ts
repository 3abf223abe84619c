// Property-based tests of schemaParser: its quick check of common answers must never let
// through what zod refuses, and a refused answer gets zod's message, naming the field.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { BACKEND_SCHEMAS } from "../../src/api/backends.js";
import { HttpsEdge } from "../../src/api/edges.js";
import { ENDPOINT, ENDPOINT_LIST } from "../../src/api/endpoints.js";
import { FAILOVER_BACKEND, FAILOVER_BACKEND_LIST, type FailoverBackend } from "../../src/api/failover.js";
import { schemaOf, schemaParser, shapeOf, shapeParser, type Parser, type Shape } from "../../src/api/schema.js";
import { WebhookVerification } from "../../src/api/webhook-verification.js";
import { FB } from "../helpers/answers.js";

const EDGE = {
  id: "edghts_a",
  hostports: ["a.example:443"],
  mutual_tls: null,
  routes: [
    {
      id: "edghtsrt_b",
      match_type: "exact_path",
      match: "/",
      backend: { enabled: true, backend: { id: "bkdfo_abc" } },
      webhook_verification: { enabled: true, provider: "github", secret: null },
    },
  ],
};

/** A JSON-like value, including the shapes the schemas expect, so a mutation often nearly fits. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(
    undefined,
    null,
    "",
    0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    [],
    {},
    ["x"],
    [1],
    { id: "x" },
    true,
  ),
);

/** The valid answer with one field (at some depth) replaced, removed or added. */
function mutated(valid: unknown): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    paths.push(path);
    if (v && typeof v === "object") for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  walk(valid, []);
  return fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom("replace", "remove", "add"), value)
    .map(([path, how, v]) => {
      const copy = structuredClone(valid) as Record<string, unknown>;
      if (path.length === 0) return how === "replace" ? v : copy;
      let parent = copy as Record<string, unknown>;
      for (const k of path.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
      const last = path[path.length - 1]!;
      if (how === "replace") parent[last] = v;
      else if (how === "remove") delete parent[last];
      else parent[`${last}_extra`] = v;
      return copy;
    });
}

const FB_PAGE = { backends: [FB, { ...FB, id: "bkdfo_def" }], uri: "u", next_page_uri: null };

const CASES: [string, z.ZodMiniType, unknown, Parser<unknown>?][] = [
  ["a Failover backend, by its declared shape", schemaOf(FAILOVER_BACKEND), FB, shapeParser(FAILOVER_BACKEND)],
  [
    "a page of Failover backends, by its declared shape",
    schemaOf(FAILOVER_BACKEND_LIST),
    FB_PAGE,
    shapeParser(FAILOVER_BACKEND_LIST),
  ],
  ["a webhook verification module", WebhookVerification, { enabled: true, provider: "github", secret: null }],
  ["an HTTPS edge", HttpsEdge, EDGE],
  [
    "an endpoint, by its declared shape",
    schemaOf(ENDPOINT),
    { id: "ep_a", url: "https://a.example", traffic_policy: null },
    shapeParser(ENDPOINT),
  ],
  [
    "a page of endpoints, by its declared shape",
    schemaOf(ENDPOINT_LIST),
    { endpoints: [{ id: "ep_a", url: "https://a.example", bindings: ["public"] }], next_page_uri: null },
    shapeParser(ENDPOINT_LIST),
  ],
  [
    "an http_response backend",
    BACKEND_SCHEMAS.http_response,
    { id: "bkdhr_a", body: "ok", headers: { a: "b" }, status_code: 200 },
  ],
];

describe("schemaParser", () => {
  for (const [name, schema, valid, shaped] of CASES) {
    it(`accepts exactly what zod accepts for ${name}, returning it as sent`, () => {
      const parse = shaped ?? schemaParser(schema);
      expect(parse(valid)).toBe(valid);
      fc.assert(
        fc.property(fc.oneof(mutated(valid), value), (data) => {
          const zod = schema.safeParse(data);
          if (zod.success) expect(parse(data)).toBe(data);
          else {
            const issue = zod.error.issues[0]!;
            expect(() => parse(data)).toThrow(`${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  it("refuses a missing field by name", () => {
    const rest: Partial<typeof FB> = { ...FB };
    delete rest.backends;
    expect(() => shapeParser(FAILOVER_BACKEND)(rest)).toThrow(/^backends: /);
  });
});

describe("a declared shape", () => {
  it("is what its derived schema's own shape is (the schema checks no more and no less)", () => {
    for (const shape of [FAILOVER_BACKEND, FAILOVER_BACKEND_LIST, ENDPOINT, ENDPOINT_LIST] as Shape[])
      expect(shapeOf(schemaOf(shape))).toEqual(shape);
  });

  it("types what it accepts", () => {
    const fb: FailoverBackend = shapeParser(FAILOVER_BACKEND)(FB);
    const backends: string[] = fb.backends;
    const description: string | undefined = fb.description;
    expect([backends, description]).toEqual([FB.backends, FB.description]);
  });
  // That a valid answer makes no schema (nor loads zod) is held end to end: test/e2e/zod-on-demand.test.ts.
});

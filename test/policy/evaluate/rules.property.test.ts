// The rule walk (traffic-policy/how-it-works.mdx): rules in order, a rule runs when all its
// expressions are true (none: always), and the first terminating action ends the phase. On
// random rule lists of literal expressions, the outcome is the first rule whose expressions
// are all true, every earlier rule skipped and every later one not reached.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateRequest } from "../../../src/policy/evaluate/index.js";
import { context, request } from "./support.js";

const rules = fc.array(fc.array(fc.boolean(), { maxLength: 3 }), { minLength: 1, maxLength: 8 });

describe("the rule walk", () => {
  it("ends at the first rule whose expressions are all true", () => {
    fc.assert(
      fc.property(rules, (list) => {
        const policy = {
          on_http_request: list.map((exprs, i) => ({
            name: `r${i}`,
            expressions: exprs.map((b) => (b ? "1 == 1" : "1 == 2")),
            actions: [{ type: "deny", config: { status_code: 400 + i } }],
          })),
        };
        const r = evaluateRequest(policy, request("GET https://a.example.com/"), context({ kind: "agent" }));
        const first = list.findIndex((exprs) => exprs.every(Boolean));
        if (first < 0) expect(r.outcome).toEqual({ kind: "forward" });
        else expect(r.outcome).toMatchObject({ kind: "deny", status: 400 + first, by: { rule: `r${first}` } });
        expect(r.trace.map((t) => t.ran)).toEqual(list.map((_, i) => i === first));
        expect(r.trace.map((t) => t.reached)).toEqual(list.map((_, i) => first < 0 || i <= first));
      }),
      { numRuns: 60 },
    );
  });
});

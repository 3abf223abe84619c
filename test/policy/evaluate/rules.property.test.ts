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

  // The evaluator reads each phase's rules once per list and keeps what it read (rulesOf in
  // src/policy/evaluate/index.ts): a document changed between two evaluations must be read as it
  // now stands, exactly as a fresh copy of it is.
  it("a document changed in place between evaluations is evaluated as a fresh copy of it", () => {
    const change = fc.record({
      rule: fc.nat(),
      what: fc.constantFrom("expression", "rename", "unname", "add expression", "drop rule", "hole"),
      to: fc.boolean(),
    });
    fc.assert(
      fc.property(rules, fc.array(change, { minLength: 1, maxLength: 4 }), (list, changes) => {
        const policy = {
          on_http_request: list.map((exprs, i) => ({
            name: `r${i}`,
            expressions: exprs.map((b) => (b ? "1 == 1" : "1 == 2")),
            actions: [{ type: "deny", config: { status_code: 400 + i } }],
          })) as unknown[],
        };
        const req = request("GET https://a.example.com/");
        const ctx = () => context({ kind: "agent" });
        evaluateRequest(policy, req, ctx());
        for (const c of changes) {
          const rules = policy.on_http_request;
          const i = c.rule % Math.max(rules.length, 1);
          const rule = rules[i] as { name?: string; expressions: string[] } | undefined;
          if (c.what === "drop rule") rules.splice(i, 1);
          else if (c.what === "hole") delete rules[i];
          else if (rule === undefined) continue;
          else if (c.what === "expression" && rule.expressions.length > 0)
            rule.expressions[0] = c.to ? "2 == 2" : "2 == 3";
          else if (c.what === "add expression") rule.expressions.push(c.to ? "3 == 3" : "3 == 4");
          else if (c.what === "rename") rule.name = `renamed${i}`;
          else if (c.what === "unname") delete rule.name;
          const again = evaluateRequest(policy, req, ctx());
          // A fresh copy: the holes kept (structuredClone keeps them), no list the evaluator has seen.
          const fresh = evaluateRequest(structuredClone(policy), req, ctx());
          expect(again.outcome).toEqual(fresh.outcome);
          expect(again.trace).toEqual(fresh.trace);
        }
      }),
      { numRuns: 80 },
    );
  });

  it("a hole in a list built in code is a rule that is not one (skipped, named by its place)", () => {
    const on_http_request: unknown[] = [];
    on_http_request[1] = { name: "second", actions: [{ type: "deny", config: { status_code: 403 } }] };
    const r = evaluateRequest({ on_http_request }, request("GET https://a.example.com/"), context({ kind: "agent" }));
    expect(r.outcome).toMatchObject({ kind: "deny", status: 403, by: { rule: "second" } });
    expect(r.trace.map((t) => [t.rule, t.ran])).toEqual([
      ["on_http_request[0]", false],
      ["second", true],
    ]);
  });
});

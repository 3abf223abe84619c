import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { planEdge } from "../../src/migrate/plan.js";
import {
  celString,
  exactPathExpression,
  maskPolicy,
  pathPrefixExpression,
  policyJsonText,
  policyYaml,
} from "../../src/migrate/policy.js";
import { backendMap, edge, route, tunnelGroup } from "./fixtures.js";

/** Reads a CEL double-quoted literal at the start of `text`; returns its value and the rest. */
function readCelLiteral(text: string): { value: string; rest: string } {
  expect(text[0]).toBe('"');
  let i = 1;
  while (text[i] !== '"') {
    if (text[i] === "\\") i++;
    expect(i).toBeLessThan(text.length);
    i++;
  }
  return { value: JSON.parse(text.slice(0, i + 1)) as string, rest: text.slice(i + 1) };
}

describe("CEL string literals", () => {
  it.each(['/a"b', "/a\\b", '/x") || true || ("', "/tab\there", "/new\nline", "/ünïcode/✓"])(
    "hold %j exactly, with nothing after the literal but the call's end",
    (path) => {
      const exact = exactPathExpression(path);
      expect(exact.startsWith("req.url.path == ")).toBe(true);
      expect(readCelLiteral(exact.slice("req.url.path == ".length))).toEqual({ value: path, rest: "" });
      const prefix = pathPrefixExpression(path);
      expect(readCelLiteral(prefix.slice("req.url.path.startsWith(".length))).toEqual({ value: path, rest: ")" });
    },
  );

  it("no path can break out of the literal", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const path = `/${s}`;
        expect(readCelLiteral(celString(path))).toEqual({ value: path, rest: "" });
        expect(readCelLiteral(pathPrefixExpression(path).slice("req.url.path.startsWith(".length)).rest).toBe(")");
      }),
    );
  });
});

describe("rule order (property)", () => {
  const pathArb = fc.stringMatching(/^\/[a-z/]{0,8}$/);
  it("exact paths come first and prefixes never follow a shorter prefix", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), pathArb), { maxLength: 12 }), (specs) => {
        const routes = specs.map(([exact, p], i) =>
          route(`edghtsrt_${i}`, exact ? "exact_path" : "path_prefix", p, "bkdtg_a"),
        );
        const rules = planEdge(edge(routes), backendMap(tunnelGroup("bkdtg_a", { s: "a" })), new Map()).plan
          .endpoints[0]!.traffic_policy.on_http_request;
        const byName = new Map(routes.map((r) => [r.id, r]));
        const kinds = rules.map((r) => byName.get(r.name!));
        const firstPrefix = kinds.findIndex((r) => r?.match_type === "path_prefix" || r === undefined);
        expect(kinds.slice(firstPrefix).every((r) => r?.match_type !== "exact_path")).toBe(true);
        const prefixLengths = kinds.filter((r) => r?.match_type === "path_prefix").map((r) => r!.match.length);
        expect(prefixLengths).toEqual([...prefixLengths].sort((a, b) => b - a));
        // Every request meets a rule: the last has no expressions, and only / prefixes (or the 404) have none.
        expect(rules.at(-1)!.expressions).toBeUndefined();
        for (const r of rules.filter((x) => x.expressions === undefined))
          expect(byName.get(r.name!)?.match ?? "/").toBe("/");
      }),
    );
  });
});

describe("serialised policies", () => {
  const policy = planEdge(
    edge([
      route("edghtsrt_1", "path_prefix", '/we"ird\\path', "bkdtg_a", {
        webhook_verification: { enabled: true, provider: "github", secret: "whsec: #x" },
      }),
    ]),
    backendMap(tunnelGroup("bkdtg_a", { s: "a" })),
    new Map(),
  ).plan.endpoints[0]!.traffic_policy;

  it("parse back as the same data from YAML and from JSON", async () => {
    expect(parse(await policyYaml(policy))).toEqual(policy);
    expect(JSON.parse(policyJsonText(policy))).toEqual(policy);
  });

  it("masking replaces only the verify-webhook secret and leaves the original untouched", () => {
    const masked = maskPolicy(policy);
    expect(masked.on_http_request[0]!.actions[0]).toEqual({
      type: "verify-webhook",
      config: { provider: "github", secret: "********" },
    });
    expect(masked.on_http_request[0]!.actions[1]).toEqual(policy.on_http_request[0]!.actions[1]);
    expect(policy.on_http_request[0]!.actions[0]).toMatchObject({ config: { secret: "whsec: #x" } });
  });
});

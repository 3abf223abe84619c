// What every edge module's translator shares: one shape out (the rules a module becomes, and
// what it cannot carry over) and the few helpers their tables of cases have in common. A
// translator is pure: an edge module's config in, a Translation out; the planner
// (src/migrate/plan.ts) puts the pieces in order, names the rules and fails closed.
import type { Action, Rule } from "../policy.js";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
/** A module counts when it is an object whose `enabled` is not false (absent or null: on). */
export const isOn = (m: unknown): boolean => isObj(m) && m.enabled !== false;

/** A positive whole number of seconds as a duration (`30s`), or undefined for absent or 0. */
export const seconds = (v: unknown): string | undefined =>
  typeof v === "number" && Number.isInteger(v) && v > 0 ? `${v}s` : undefined;

export const DENY_503: Action = { type: "deny", config: { status_code: 503 } };
export const DENY_403: Action = { type: "deny", config: { status_code: 403 } };

/**
 * One piece of the request (or TCP connect) phase, in order:
 * - `actions` join the rule being gathered (named after the first action's type);
 * - `rule` is a rule of its own, named `<route id> <rule>`, with the route's expressions and
 *   `expressions` after them (a condition comes between the actions before and after it);
 * - `copied` is a rule of the edge's own policy, copied with the route's expressions first.
 */
export type Step =
  { actions: Action[] } | { rule: string; expressions: string[]; actions: Action[] } | { copied: Rule; index: number };

export interface Translation {
  /** What the module adds to the request (or TCP connect) phase, in order. */
  steps: Step[];
  /** Actions for the route's on_http_response rule (headers, compression). */
  response: Action[];
  /** on_http_response rules of the route's own policy, named, with their own expressions only. */
  responseRules: Rule[];
  /** What cannot be carried over: the route (or edge) fails closed, each listed by item. */
  refused: { item: string; reason: string }[];
  /** What is carried over with a change worth saying. */
  warnings: { item: string; message: string }[];
}

/** A module translator: the module's config (and what the planner knows around it) in, a Translation out. */
export type ModuleTranslator<Context> = (module: Obj, cx: Context) => Translation;

/** An empty translation, for a translator to fill. */
export function translation(): Translation {
  return { steps: [], response: [], responseRules: [], refused: [], warnings: [] };
}

/** A translation of one refusal. */
export function refused(item: string, reason: string): Translation {
  const out = translation();
  out.refused.push({ item, reason });
  return out;
}

/** A translation of actions that join the rule being gathered. */
export function actions(...list: Action[]): Translation {
  const out = translation();
  out.steps.push({ actions: list });
  return out;
}

/**
 * Text copied into a policy where ngrok interpolates `${…}`: a literal `${` is written
 * `${"${"}`, so the client gets the text the edge sent (a warning says where).
 */
export function literal(text: string, out: Translation, item: string, where: string): string {
  if (!text.includes("${")) return text;
  out.warnings.push({
    item,
    message: `a literal "\${" in ${where} is written \${"\${"} so ngrok does not read it as CEL`,
  });
  return text.split("${").join('${"${"}');
}

/**
 * A cookie prefix the operator chose is a warning: ngrok names the cookie itself. The API fills
 * in `ngrok.` when none was given (every OAuth/OIDC module reads it back): warning about the
 * default would flag every route for nothing lost.
 */
export function warnCookiePrefix(out: Translation, module: "oauth" | "oidc", prefix: unknown): void {
  if (typeof prefix === "string" && prefix !== "" && prefix !== "ngrok.")
    out.warnings.push({
      item: module,
      message: `cookie_prefix ${JSON.stringify(prefix)} has no equivalent; ngrok names the cookie itself`,
    });
}

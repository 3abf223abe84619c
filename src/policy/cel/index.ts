// ngrok's CEL, checked and evaluated (the contract, "CEL, parsed and type-checked"): one
// environment (src/policy/cel/environment.ts, functions.ts) for the validator and the
// evaluator. Loaded only when a policy has expressions or `${…}` (src/policy/index.ts loadCel).
import { celEnv, isCelError, plan, type CelValue } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { checkCel, parseCel, type CelFinding } from "./check.js";
import type { CelScope } from "./environment.js";
import { runtimeFunctions, toPlain } from "./functions.js";

export type { CelFinding } from "./check.js";
export type { CelScope } from "./environment.js";

/**
 * Every problem and warning of one expression: an `expressions` entry's result must be bool; a
 * config field's expression (rate-limit bucket_key) may be of any type with `{bool: false}`.
 */
export function checkExpression(text: string, scope: CelScope, options: { bool?: boolean } = {}): CelFinding[] {
  return checkCel(text, scope, options.bool ?? true);
}

/** The `${…}` of a text: each expression's offset (after `${`) and text; `open` when one is never closed. */
export function interpolations(text: string): { parts: { offset: number; text: string }[]; open?: number } {
  const parts: { offset: number; text: string }[] = [];
  let i = text.indexOf("${");
  while (i !== -1) {
    const start = i + 2;
    let depth = 0;
    let j = start;
    let quote = "";
    for (; j < text.length; j++) {
      const ch = text[j]!;
      if (quote) {
        if (ch === "\\") j++;
        else if (ch === quote) quote = "";
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "{") depth++;
      else if (ch === "}") {
        if (depth === 0) break;
        depth--;
      }
    }
    if (j >= text.length) return { parts, open: i };
    parts.push({ offset: start, text: text.slice(start, j) });
    i = text.indexOf("${", j + 1);
  }
  return { parts };
}

export function hasInterpolation(text: string): boolean {
  return text.includes("${");
}

/** Every problem and warning of the `${…}` interpolations in a field's text; the literal text is not read. */
export function checkTemplate(text: string, scope: CelScope): CelFinding[] {
  const { parts, open } = interpolations(text);
  const findings = parts.flatMap((p) =>
    p.text.trim() === ""
      ? [{ severity: "problem" as const, message: "an empty ${}", column: p.offset - 1 }]
      : checkCel(p.text, scope, false, p.offset),
  );
  if (open !== undefined)
    findings.push({ severity: "problem", message: "this ${ is never closed by a }", column: open + 1 });
  return findings;
}

// ---- evaluation ----

export interface Activation {
  [name: string]: unknown;
}

/**
 * The activation's values by dotted name: `{req: {url: {path: "/"}}}` gives `req.url.path`
 * too; a name that is a value and a prefix at once (`req.url`, a string) is given flat:
 * `{"req.url": "https://…", "req.url.path": "/"}`. Maps, lists and scalars are values.
 */
function flatten(activation: Activation): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (prefix: string, v: unknown, depth: number) => {
    out.set(prefix, v);
    if (depth > 8 || v === null || typeof v !== "object" || Array.isArray(v) || v instanceof Map) return;
    if (v instanceof Uint8Array || v instanceof Date) return;
    for (const [k, x] of Object.entries(v)) walk(`${prefix}.${k}`, x, depth + 1);
  };
  for (const [k, v] of Object.entries(activation)) {
    if (k.includes(".")) out.set(k, v);
    else walk(k, v, 0);
  }
  // A flat name given explicitly wins over the same name found inside an object.
  for (const [k, v] of Object.entries(activation)) if (k.includes(".")) out.set(k, v);
  return out;
}

/** A JS value as CEL takes it: numbers that are whole are ints, Dates timestamps. */
function toCel(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (v instanceof Date) return timestampFromDate(v);
  if (Buffer.isBuffer(v)) return new Uint8Array(v);
  if (Array.isArray(v)) return v.map(toCel);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, toCel(x)]));
  if (v !== null && typeof v === "object" && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  return v;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Evaluates one expression with ngrok's functions: its value (ints as numbers when exact), or its error. */
export function evaluateExpression(text: string, activation: Activation): { value: unknown } | { error: string } {
  const parsed = parseCel(text);
  if ("error" in parsed) return { error: `column ${parsed.column}: ${parsed.error}` };
  const values = flatten(activation);
  const bindings: Record<string, never> = {};
  for (const [k, v] of values) (bindings as Record<string, unknown>)[k] = toCel(v);
  try {
    const celEnvironment = celEnv({ funcs: [...strings, ...runtimeFunctions({ value: (n) => bindings[n as never] })] });
    const result = plan(celEnvironment, parsed.expr as Parameters<typeof plan>[1])(bindings) as CelValue;
    if (isCelError(result)) return { error: result.message };
    return { value: plainValue(result) };
  } catch (e) {
    return { error: message(e) };
  }
}

/** A CEL result as plain data: lists arrays, maps objects, ints numbers (bigint beyond 2^53). */
function plainValue(v: CelValue): unknown {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (typeof v === "object" && v !== null && !(v instanceof Uint8Array)) {
    if (
      "message" in v &&
      (v as { message?: { $typeName?: string } }).message?.$typeName === "google.protobuf.Timestamp"
    ) {
      const m = (v as unknown as { message: { seconds: bigint; nanos: number } }).message;
      return new Date(Number(m.seconds) * 1000 + Math.floor(m.nanos / 1e6)).toISOString().replace(".000Z", "Z");
    }
    return toPlain(v);
  }
  return v;
}

/** The text with each `${…}` replaced by its value as a string (ngrok's CEL interpolation). */
export function renderTemplate(text: string, activation: Activation): { value: string } | { error: string } {
  const { parts, open } = interpolations(text);
  if (open !== undefined) return { error: `the \${ at character ${open + 1} is never closed` };
  let out = "";
  let at = 0;
  for (const p of parts) {
    out += text.slice(at, p.offset - 2);
    const r = evaluateExpression(p.text, activation);
    if ("error" in r) return { error: `\${${p.text}}: ${r.error}` };
    out +=
      typeof r.value === "string"
        ? r.value
        : typeof r.value === "object" && r.value !== null
          ? JSON.stringify(r.value)
          : String(r.value);
    at = p.offset + p.text.length + 1;
  }
  return { value: out + text.slice(at) };
}

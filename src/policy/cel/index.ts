// ngrok's CEL, checked and evaluated (the contract, "CEL, parsed and type-checked"): one
// environment (src/policy/cel/environment.ts, functions.ts) for the validator and the
// evaluator. Loaded only when a policy has expressions or `${…}`, or an action whose pattern RE2
// checks (src/policy/index.ts loadCel).
import {
  celEnv,
  celList,
  celMap,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  plan,
  type CelValue,
} from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { checkCel, parseCel, type CelFinding } from "./check.js";
import type { CelScope } from "./environment.js";
import { runtimeFunctions, toPlain } from "./functions.js";

// RE2's verdict on an action's pattern (url-rewrite, redirect, the find-replace actions), here
// with the RE2 that CEL's matches() compiles with: one copy of the engine (src/policy/actions/fields.ts).
export { re2Problem } from "../actions/regex.js";
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

/** The activation of the call in progress: what ngrok's functions read (getReqHeader reads req.headers; calls are synchronous). */
let current: Activation = {};

/** A value of the activation by its dotted name: a flat key (`"req.url"`) first, else the walk into objects. */
function lookup(name: string): unknown {
  if (Object.hasOwn(current, name)) return current[name];
  let v: unknown = current;
  for (const part of name.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

// One environment for every evaluation: the strings extension and ngrok's functions
// (functions.ts), bound to the activation in progress.
const environment = celEnv({ funcs: [...strings, ...runtimeFunctions({ value: lookup })] });
type Program = ReturnType<typeof plan>;
/** A planned expression; `shadows`: a comprehension of it binds one of ngrok's root names (`[…].exists(req, …)`). */
type Planned = { run: Program; shadows: boolean };
const programs = new Map<string, Planned | { error: string }>();

function program(text: string): Planned | { error: string } {
  let p = programs.get(text);
  if (p === undefined) {
    const parsed = parseCel(text);
    if ("error" in parsed) p = { error: `column ${parsed.column}: ${parsed.error}` };
    else
      try {
        const shadows = dottedNames(parsed.expr as unknown as Tree);
        p = { run: plan(environment, parsed.expr as Parameters<typeof plan>[1]), shadows };
      } catch (e) {
        p = { error: message(e) };
      }
    // Bounded, as the parse cache is: a long-running emulator sees many texts.
    if (programs.size >= 4096) programs.clear();
    programs.set(text, p);
  }
  return p;
}

// ---- ngrok's dotted names, resolved directly ----
//
// @bufbuild/cel resolves `req.url.path` as cel-spec's name resolution says: the longest
// qualified name first, so it asks the activation for `req.url.path`, then looks it up as a
// type or an enum in its registry (a failing search through protobuf descriptors, ~1 µs each),
// then `req.url`, the same, and only then `req` and the two field selections. The converted
// activation (activationOf) answers those dotted names itself: a getter on its prototype for
// each dotted name an expression names under one of ngrok's roots walks the converted maps, as
// the field selections would (a CEL map's get, accessByName in @bufbuild/cel's field.ts), and
// answers undefined wherever that walk would not give a value (no such key, not a map), so
// CEL goes on with its own resolution and its own error there. Same values, no registry search.

/** ngrok's variables' first segments (src/policy/cel/variables.ts), and set-vars' `vars`. */
const ROOTS = new Set(["req", "res", "conn", "endpoint", "time", "vars", "actions"]);

interface Tree {
  exprKind: { case?: string; value?: unknown };
}

/** The plain activation a converted one was made from (activationOf). */
const PLAIN = Symbol("plain activation");

/**
 * Below the dotted names: ngrok's roots, each converted on its first read and kept on the
 * converted activation (an expression reads one or two of the six a request has).
 */
const roots: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
for (const root of ROOTS)
  Object.defineProperty(roots, root, {
    get(this: Record<string | symbol, unknown>): unknown {
      const plain = this[PLAIN] as Activation;
      if (!Object.hasOwn(plain, root)) return undefined;
      const value = toCel(plain[root]);
      Object.defineProperty(this, root, { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
  });

/** The prototype of every converted activation: a getter per dotted name met so far. */
const dotted: Record<string, unknown> = Object.create(roots) as Record<string, unknown>;
const dottedCount = { n: 0 };

function defineDotted(name: string): void {
  if (Object.hasOwn(dotted, name) || dottedCount.n >= 4096) return;
  dottedCount.n++;
  const [root, ...parts] = name.split(".");
  Object.defineProperty(dotted, name, {
    get(this: Record<string, unknown>): unknown {
      let v: unknown = this[root!];
      for (const part of parts) {
        if (!isCelMap(v)) return undefined;
        v = v.get(part);
        if (v === undefined) return undefined;
      }
      return v;
    },
  });
}

/**
 * Registers the dotted names of the expression's field selections under ngrok's roots
 * (`req.url.path`: `req.url` and `req.url.path`); true when a comprehension binds a root's name,
 * whose own value the getters would not see (that expression is then given no getters).
 */
function dottedNames(expr: Tree): boolean {
  let shadows = false;
  const chain = (e: Tree): string | undefined => {
    const k = e.exprKind;
    if (k.case === "identExpr") return (k.value as { name: string }).name;
    if (k.case !== "selectExpr") return undefined;
    const s = k.value as { operand?: Tree; field: string; testOnly: boolean };
    const base = s.operand && chain(s.operand);
    return base === undefined || s.testOnly ? undefined : `${base}.${s.field}`;
  };
  const visit = (e: Tree | undefined, depth: number): void => {
    if (!e || depth > 200) return;
    const k = e.exprKind;
    switch (k.case) {
      case "selectExpr": {
        const s = k.value as { operand?: Tree };
        const name = chain(e);
        if (name !== undefined && ROOTS.has(name.slice(0, name.indexOf(".")))) defineDotted(name);
        return visit(s.operand, depth + 1);
      }
      case "callExpr": {
        const c = k.value as { target?: Tree; args: Tree[] };
        visit(c.target, depth + 1);
        for (const a of c.args) visit(a, depth + 1);
        return;
      }
      case "listExpr":
        for (const a of (k.value as { elements: Tree[] }).elements) visit(a, depth + 1);
        return;
      case "structExpr":
        for (const a of (k.value as { entries: { keyKind: { case?: string; value?: unknown }; value?: Tree }[] })
          .entries) {
          if (a.keyKind.case === "mapKey") visit(a.keyKind.value as Tree, depth + 1);
          visit(a.value, depth + 1);
        }
        return;
      case "comprehensionExpr": {
        const c = k.value as Record<string, unknown>;
        for (const v of [c.iterVar, c.iterVar2, c.accuVar]) if (typeof v === "string" && ROOTS.has(v)) shadows = true;
        for (const f of ["iterRange", "accuInit", "loopCondition", "loopStep", "result"])
          visit(c[f] as Tree | undefined, depth + 1);
        return;
      }
      default:
        return;
    }
  };
  visit(expr, 0);
  return shadows;
}

/**
 * Plain data as CEL values, lazily: an object becomes a CEL map whose entries are converted when
 * an expression reads them (and kept), an array a CEL list of its converted items, whole numbers
 * ints, a Date a timestamp. Converting a whole request up front (its headers, cookies and URL,
 * for an expression that reads `req.url.path`) cost more than the expressions; @bufbuild/cel
 * itself would rebuild a plain object's map on every access.
 */
function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (value instanceof Date) return timestampFromDate(value);
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  if (isCelList(value) || isCelMap(value) || isCelUint(value)) return value;
  if (value instanceof Map) return celMap(new Map([...value].map(([k, x]) => [k, toCel(x)])) as never);
  return Array.isArray(value)
    ? celList(value.map(toCel) as never)
    : celMap(new LazyEntries(value as Record<string, unknown>) as never);
}

/** The entries of a plain object as the ReadonlyMap celMap wraps, each value converted on first read. */
class LazyEntries implements ReadonlyMap<string, unknown> {
  /** The entries read so far, converted; made on the first read (most maps of a request are never read). */
  private done: Map<string, unknown> | undefined;
  constructor(private readonly source: Record<string, unknown>) {}
  get size(): number {
    return Object.keys(this.source).length;
  }
  get(key: string): unknown {
    if (typeof key !== "string" || !Object.hasOwn(this.source, key)) return undefined;
    let v = this.done?.get(key);
    if (v === undefined) {
      v = toCel(this.source[key]);
      if (v !== undefined) (this.done ??= new Map()).set(key, v);
    }
    return v;
  }
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  keys(): MapIterator<string> {
    return Object.keys(this.source)[Symbol.iterator]();
  }
  *values(): MapIterator<unknown> {
    for (const k of Object.keys(this.source)) yield this.get(k);
  }
  *entries(): MapIterator<[string, unknown]> {
    for (const k of Object.keys(this.source)) yield [k, this.get(k)];
  }
  [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }
  forEach(callback: (value: unknown, key: string, map: ReadonlyMap<string, unknown>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }
}

/**
 * The activation's names, each value converted (lazily), once per activation object: the
 * evaluator makes one per phase, anew only when an action changes the request or the vars, and
 * evaluates the phase's expressions over it one after another, so the last one is kept.
 */
let lastActivation: Activation | undefined;
let lastConverted: Record<string, unknown> = {};
function activationOf(activation: Activation): Record<string, unknown> {
  if (activation === lastActivation) return lastConverted;
  // Own values over the dotted names' getters (an own dotted name, given flat, is defined: the
  // prototype's getter has no setter).
  const out = Object.create(dotted) as Record<string | symbol, unknown>;
  out[PLAIN] = activation;
  const put = (k: string, v: unknown) =>
    k.includes(".")
      ? Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true })
      : (out[k] = v);
  // ngrok's roots are converted when read (`roots`); any other name now.
  for (const k of Object.keys(activation)) if (!ROOTS.has(k)) put(k, toCel(activation[k]));
  // A name that is a value and a prefix at once (`req.url`, a string, beside `req.url.path`) is
  // given flat: CEL resolves the longest qualified name, so each nested value gets its dotted
  // name too, and the flat one given wins.
  if (Object.keys(activation).some((k) => k.includes("."))) {
    const walk = (prefix: string, v: unknown, depth: number): void => {
      if (depth > 8 || v === null || typeof v !== "object" || Array.isArray(v) || v instanceof Map) return;
      if (v instanceof Uint8Array || v instanceof Date) return;
      for (const [k, x] of Object.entries(v)) {
        const name = `${prefix}.${k}`;
        if (!Object.hasOwn(activation, name)) put(name, toCel(x));
        walk(name, x, depth + 1);
      }
    };
    for (const [k, v] of Object.entries(activation)) if (!k.includes(".")) walk(k, v, 0);
  }
  lastActivation = activation;
  lastConverted = out;
  return out;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The converted activation's values (each root read, so converted) as own values of an object without getters. */
function withoutGetters(activation: Activation, converted: Record<string, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(activation)) out[k] = converted[k];
  for (const k of Object.keys(converted)) out[k] = converted[k];
  return out;
}

/** Evaluates one expression with ngrok's functions: its value (ints as numbers when exact), or its error. */
export function evaluateExpression(text: string, activation: Activation): { value: unknown } | { error: string } {
  const p = program(text);
  if ("error" in p) return p;
  const before = current;
  current = activation;
  try {
    const converted = activationOf(activation);
    // Without the getters: the expression's own comprehension variable answers its dotted names.
    const given = p.shadows ? withoutGetters(activation, converted) : converted;
    const result = p.run(given as never) as CelValue;
    if (isCelError(result)) return { error: result.message };
    return { value: plainValue(result) };
  } catch (e) {
    return { error: message(e) };
  } finally {
    current = before;
  }
}

/** A CEL result as plain data: lists arrays, maps objects, ints numbers (bigint beyond 2^53), bytes text. */
function plainValue(v: CelValue): unknown {
  // An expression's usual value, before the checks for CEL's own kinds.
  if (typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (isCelUint(v)) return plainValue(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString("utf8");
  if (isCelList(v)) return [...v].map((x) => plainValue(x));
  if (isCelMap(v))
    return Object.fromEntries([...v].map(([k, x]) => [String(plainValue(k as CelValue)), plainValue(x)]));
  if (typeof v === "object" && v !== null) return toPlain(v);
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

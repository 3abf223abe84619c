// The one door between the evaluator and CEL: evaluateExpression and renderTemplate, with the
// signatures of src/policy/cel/index.ts (INTERFACES.md, "CEL"), so that the evaluator can be
// pointed at that module, ngrok's whole environment, by changing this file alone. For now it
// runs on @bufbuild/cel with the strings extension (RE2 `matches`, ngrok's string functions:
// traffic-policy/macros/index.mdx) and the few ngrok macros below.
import {
  celEnv,
  celFunc,
  celList,
  celMap,
  CelScalar,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  listType,
  parse,
  plan,
} from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { firstMatch, inCidr } from "./cidr.js";
import { splitTemplate } from "./template.js";

export interface Activation {
  [name: string]: unknown;
}

/** The activation of the call in progress: what the request macros read (calls are synchronous). */
let current: Activation = {};

const headersOf = (scope: "req" | "res", name: string): string[] => {
  const side = current[scope] as { headers?: Record<string, string[]> } | undefined;
  return side?.headers?.[name.toLowerCase()] ?? [];
};
const queryOf = (name: string): string[] => {
  const req = current.req as { url?: { query_params?: Record<string, string[]> } } | undefined;
  return req?.url?.query_params?.[name] ?? [];
};
const STRINGS = listType(CelScalar.STRING);

// traffic-policy/macros/index.mdx:129 getReqHeader ("Defaults to an empty list if the header is
// not present"), :160 getQueryParam, :190 hasQueryParam, :248 hasReqHeader, :312 getResHeader,
// :371 hasResHeader; :1944 inCidrRange, :1975 inCidrRanges.
const NGROK = [
  celFunc("getReqHeader", [CelScalar.STRING], STRINGS, (n) => celList(headersOf("req", n))),
  celFunc("hasReqHeader", [CelScalar.STRING], CelScalar.BOOL, (n) => headersOf("req", n).length > 0),
  celFunc("getResHeader", [CelScalar.STRING], STRINGS, (n) => celList(headersOf("res", n))),
  celFunc("hasResHeader", [CelScalar.STRING], CelScalar.BOOL, (n) => headersOf("res", n).length > 0),
  celFunc("getQueryParam", [CelScalar.STRING], STRINGS, (n) => celList(queryOf(n))),
  celFunc("hasQueryParam", [CelScalar.STRING], CelScalar.BOOL, (n) => queryOf(n).length > 0),
  celFunc("inCidrRange", [CelScalar.STRING, CelScalar.STRING], CelScalar.BOOL, (ip, cidr) => inCidr(ip, cidr)),
  celFunc(
    "inCidrRanges",
    [CelScalar.STRING, STRINGS],
    CelScalar.BOOL,
    (ip, cidrs) => firstMatch(ip, [...cidrs].map(String)) !== undefined,
  ),
];

const celEnvironment = celEnv({ funcs: [...strings, ...NGROK] });
type Program = ReturnType<typeof plan>;
const programs = new Map<string, Program | { error: string }>();

function program(text: string): Program | { error: string } {
  let p = programs.get(text);
  if (p === undefined) {
    try {
      p = plan(celEnvironment, parse(text));
    } catch (err) {
      p = { error: `not valid CEL: ${(err as Error).message}` };
    }
    programs.set(text, p);
  }
  return p;
}

/**
 * Plain data as CEL values, lazily: an object becomes a CEL map whose entries are converted when
 * an expression reads them (and kept), an array a CEL list of its converted items, whole
 * numbers CEL ints. @bufbuild/cel would turn a plain object into a map on every access, and
 * converting the whole request up front cost more than the expressions (a request's headers,
 * cookies and URL, for an expression that reads `req.url.path`): made on demand and kept by the
 * map it was read from, the expressions of a phase share what they read of one request. (No
 * WeakMap of objects to their conversions: one entry per request made the garbage collector's
 * ephemeron work cost more than the conversions it saved.)
 */
function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== "object" || value instanceof Uint8Array || value instanceof Date) return value;
  if (isCelList(value) || isCelMap(value) || isCelUint(value)) return value;
  return Array.isArray(value)
    ? celList(value.map(toCel) as never)
    : celMap(new LazyEntries(value as Record<string, unknown>) as never);
}

/** The entries of a plain object as the ReadonlyMap celMap wraps, each value converted on first read. */
class LazyEntries implements ReadonlyMap<string, unknown> {
  private readonly done = new Map<string, unknown>();
  constructor(private readonly source: Record<string, unknown>) {}
  get size(): number {
    return Object.keys(this.source).length;
  }
  get(key: string): unknown {
    if (typeof key !== "string" || !Object.hasOwn(this.source, key)) return undefined;
    let v = this.done.get(key);
    if (v === undefined) {
      v = toCel(this.source[key]);
      if (v !== undefined) this.done.set(key, v);
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
 * The activation's top-level names, each value converted (lazily, above), once per activation
 * object: the evaluator makes one per phase, anew only when an action changes the request or
 * the vars, and evaluates the phase's expressions over it one after another, so the last one
 * converted is kept. The names stay an object: @bufbuild/cel resolves them there.
 */
let lastActivation: Activation | undefined;
let lastConverted: Record<string, unknown> = {};
function activationOf(activation: Activation): Record<string, unknown> {
  if (activation === lastActivation) return lastConverted;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(activation)) out[k] = toCel(activation[k]);
  lastActivation = activation;
  lastConverted = out;
  return out;
}

/** A CEL value as plain data (ints as numbers, lists as arrays, maps as objects). */
function fromCel(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (isCelUint(value)) return Number(value.value);
  if (isCelList(value)) return [...value].map(fromCel);
  if (isCelMap(value)) return Object.fromEntries([...value].map(([k, v]) => [String(fromCel(k)), fromCel(v)]));
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  return value;
}

export function evaluateExpression(text: string, activation: Activation): { value: unknown } | { error: string } {
  const p = program(text);
  if (typeof p !== "function") return p;
  const before = current;
  current = activation;
  try {
    const result = p(activationOf(activation) as never);
    return isCelError(result) ? { error: result.message } : { value: fromCel(result) };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    current = before;
  }
}

/** A value as text in an interpolated string. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function renderTemplate(text: string, activation: Activation): { value: string } | { error: string } {
  if (!text.includes("${")) return { value: text };
  const pieces = splitTemplate(text);
  if (!Array.isArray(pieces)) return pieces;
  let out = "";
  for (const piece of pieces) {
    if ("literal" in piece) out += piece.literal;
    else {
      const r = evaluateExpression(piece.expression, activation);
      if ("error" in r) return { error: `\${${piece.expression}}: ${r.error}` };
      out += asText(r.value);
    }
  }
  return { value: out };
}

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
 * Plain data as CEL values, made once per object: whole numbers as CEL ints, objects as CEL
 * maps, arrays as CEL lists. @bufbuild/cel turns a plain object into a map on every access;
 * made once, the 19 expressions of a rule set share one conversion of the request.
 */
const converted = new WeakMap<object, unknown>();
function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== "object" || value instanceof Uint8Array || value instanceof Date) return value;
  if (isCelList(value) || isCelMap(value) || isCelUint(value)) return value;
  const seen = converted.get(value);
  if (seen !== undefined) return seen;
  const out = Array.isArray(value)
    ? celList(value.map(toCel) as never)
    : celMap(new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)])) as never);
  converted.set(value, out);
  return out;
}

/** The activation's top-level names, each value converted (the names stay an object: @bufbuild/cel resolves them there). */
function activationOf(activation: Activation): Record<string, unknown> {
  const seen = converted.get(activation);
  if (seen !== undefined) return seen as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(activation).map(([k, v]) => [k, toCel(v)]));
  converted.set(activation, out);
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

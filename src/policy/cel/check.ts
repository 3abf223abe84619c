// The CEL type checker: @bufbuild/cel parses (its checker 0.6 types constants and identifiers
// only, BENCHMARKS.md "CEL library, measured"), and this walk of its syntax tree types the rest
// against ngrok's environment (src/policy/cel/environment.ts, functions.ts), with cel-go's rules
// for the operators (cel-spec langdef.md, "Standard definitions"). Each finding has the column
// of the node it is about.
import { parse } from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";
import { nearest } from "../../api-data/did-you-mean.js";
import { NEXT_SEGMENTS, unavailable, VARIABLES, type CelScope } from "./environment.js";
import { EXAMPLE_METHODS, EXAMPLE_ONLY } from "./examples.js";
import { BINDING_MACROS, FUNCTION_NAMESPACES, OVERLOADS } from "./functions.js";
import { assignable, BOOL, DYN, INT, join, list, map, scalar, show, STRING, substitute, type Ty } from "./types.js";

export interface CelFinding {
  severity: "problem" | "warning";
  message: string;
  /** 1-based */
  column?: number;
}

// The tree's shapes, as @bufbuild/cel-spec's syntax_pb declares them (the fields read here).
interface Expr {
  id: bigint;
  exprKind:
    | { case: "constExpr"; value: { constantKind: { case?: string; value?: unknown } } }
    | { case: "identExpr"; value: { name: string } }
    | { case: "selectExpr"; value: { operand?: Expr; field: string; testOnly: boolean } }
    | { case: "callExpr"; value: { target?: Expr; function: string; args: Expr[] } }
    | { case: "listExpr"; value: { elements: Expr[] } }
    | {
        case: "structExpr";
        value: {
          messageName: string;
          entries: { keyKind: { case?: string; value?: unknown }; value?: Expr }[];
        };
      }
    | {
        case: "comprehensionExpr";
        value: {
          iterVar: string;
          iterVar2?: string;
          iterRange?: Expr;
          accuVar: string;
          accuInit?: Expr;
          loopCondition?: Expr;
          loopStep?: Expr;
          result?: Expr;
        };
      }
    | { case: undefined; value?: undefined };
}

const CONST_TYPES: Record<string, Ty> = {
  boolValue: BOOL,
  int64Value: INT,
  uint64Value: scalar("uint"),
  doubleValue: scalar("double"),
  stringValue: STRING,
  bytesValue: scalar("bytes"),
  nullValue: scalar("null_type"),
};

const NUMERIC = new Set(["int", "uint", "double"]);
const ORDERED = new Set(["int", "uint", "double", "string", "bytes", "bool", "timestamp", "duration"]);

const CLOSE: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/**
 * Why `expr` has an unbalanced quote or bracket (undefined: balanced): a syntax error's likeliest
 * cause, which the parser (reporting where its farthest attempt failed) may place elsewhere.
 */
function unbalanced(expr: string): { message: string; column: number } | undefined {
  const open: { c: string; at: number }[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === '"' || c === "'") {
      // A raw string (r"…") takes backslashes as written; a triple quote runs to its twin.
      const raw = i > 0 && /[rR]/.test(expr[i - 1]!) && (i < 2 || !/[\w]/.test(expr[i - 2]!));
      const quote = expr.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      for (;;) {
        if (j >= expr.length) return { message: `unbalanced quote: this ${quote} is never closed`, column: i + 1 };
        if (!raw && expr[j] === "\\") j += 2;
        else if (expr.startsWith(quote, j)) break;
        else if (quote.length === 1 && (expr[j] === "\n" || expr[j] === "\r"))
          return { message: `unbalanced quote: this ${quote} is not closed on its line`, column: i + 1 };
        else j++;
      }
      i = j + quote.length;
      continue;
    }
    if (c in CLOSE) open.push({ c, at: i });
    else if (c === ")" || c === "]" || c === "}") {
      const top = open.pop();
      if (top === undefined || CLOSE[top.c] !== c)
        return { message: `unbalanced bracket: this ${c} closes nothing open`, column: i + 1 };
    }
    i++;
  }
  const top = open.pop();
  return top === undefined
    ? undefined
    : { message: `unbalanced bracket: this ${top.c} is never closed`, column: top.at + 1 };
}

type ParseResult = { expr: Expr; positions: Record<string, number> } | { error: string; column: number };

// Parsed trees by text: a policy repeats its expressions (a planner's path prefix, a rule
// copied per route), and parsing is most of a check's cost (~30 µs). Bounded: cleared when full.
const parsedTrees = new Map<string, ParseResult>();
const MAX_TREES = 4096;

/** Parses with @bufbuild/cel: the tree and each node's offset, or the syntax error and its column. */
export function parseCel(text: string): ParseResult {
  let result = parsedTrees.get(text);
  if (result === undefined) {
    if (parsedTrees.size >= MAX_TREES) parsedTrees.clear();
    parsedTrees.set(text, (result = parseOnce(text)));
  }
  return result;
}

/**
 * ngrok's `has(req.headers['x-custom-header'])` (traffic-policy/macros/index.mdx:1941): cel-spec's
 * has() takes a field selection only, so the parser leaves this one a call; it asks whether the
 * key is in the map (or the index in the list), which is `'x-custom-header' in req.headers`.
 */
function ngrokHas(e: Expr | undefined, depth = 0): void {
  if (!e || depth > 200) return;
  const k = e.exprKind;
  switch (k.case) {
    case "callExpr": {
      const arg = k.value.args[0]?.exprKind;
      if (k.value.function === "has" && !k.value.target && k.value.args.length === 1 && arg?.case === "callExpr")
        if (arg.value.function === "_[_]" && arg.value.args.length === 2) {
          k.value.function = "@in";
          k.value.args = [arg.value.args[1]!, arg.value.args[0]!];
        }
      ngrokHas(k.value.target, depth + 1);
      for (const a of k.value.args) ngrokHas(a, depth + 1);
      return;
    }
    case "selectExpr":
      return ngrokHas(k.value.operand, depth + 1);
    case "listExpr":
      for (const el of k.value.elements) ngrokHas(el, depth + 1);
      return;
    case "structExpr":
      for (const en of k.value.entries) {
        if (en.keyKind.case === "mapKey") ngrokHas(en.keyKind.value as Expr, depth + 1);
        ngrokHas(en.value, depth + 1);
      }
      return;
    case "comprehensionExpr":
      for (const x of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result])
        ngrokHas(x, depth + 1);
      return;
    default:
      return;
  }
}

function parseOnce(text: string): ParseResult {
  try {
    const parsed = parse(text) as unknown as { expr: Expr; sourceInfo?: { positions: Record<string, number> } };
    if (text.includes("has(")) ngrokHas(parsed.expr);
    return { expr: parsed.expr, positions: parsed.sourceInfo?.positions ?? {} };
  } catch (e) {
    const err = e as { location?: { start?: { offset?: number } }; found?: string | null; message?: string };
    const offset = err.location?.start?.offset ?? 0;
    const why = unbalanced(text);
    if (why) return { error: `syntax error: ${why.message}`, column: why.column };
    if (err.found === undefined) return { error: `syntax error: ${String(err.message ?? e)}`, column: offset + 1 };
    const found = err.found === null ? "the end of the expression" : JSON.stringify(err.found);
    const hint = err.found === "=" ? " (CEL compares with ==)" : "";
    return { error: `syntax error: unexpected ${found}${hint}`, column: offset + 1 };
  }
}

class Checker {
  readonly findings: CelFinding[] = [];
  private readonly locals: Map<string, Ty>[] = [];
  constructor(
    private readonly scope: CelScope,
    private readonly positions: Record<string, number>,
    private readonly base: number,
  ) {}

  private column(e: Expr): number {
    return this.base + (this.positions[String(e.id)] ?? 0) + 1;
  }
  private problem(e: Expr, message: string): Ty {
    this.findings.push({ severity: "problem", message, column: this.column(e) });
    return DYN;
  }
  private warning(e: Expr, message: string): void {
    this.findings.push({ severity: "warning", message, column: this.column(e) });
  }
  private local(name: string): Ty | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) {
      const t = this.locals[i]!.get(name);
      if (t) return t;
    }
    return undefined;
  }

  check(e: Expr): Ty {
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr":
        return CONST_TYPES[k.value.constantKind.case ?? ""] ?? DYN;
      case "identExpr":
        return this.local(k.value.name) ?? this.path(e, [k.value.name]);
      case "selectExpr":
        return this.select(e, k.value);
      case "callExpr":
        return this.call(e, k.value);
      case "listExpr": {
        let t: Ty | undefined;
        for (const el of k.value.elements) {
          const et = this.check(el);
          t = t ? join(t, et) : et;
        }
        return list(t ?? DYN);
      }
      case "structExpr": {
        if (k.value.messageName !== "") return this.problem(e, `unknown type ${k.value.messageName}`);
        let kt: Ty | undefined;
        let vt: Ty | undefined;
        for (const entry of k.value.entries) {
          const key = entry.keyKind.case === "mapKey" ? this.check(entry.keyKind.value as Expr) : STRING;
          const value = entry.value ? this.check(entry.value) : DYN;
          kt = kt ? join(kt, key) : key;
          vt = vt ? join(vt, value) : value;
        }
        return map(kt ?? DYN, vt ?? DYN);
      }
      case "comprehensionExpr":
        return this.comprehension(e, k.value);
      default:
        return DYN;
    }
  }

  /** An identifier or select chain of plain names: ["req", "url", "path"] (undefined: not one). */
  private qualified(e: Expr | undefined): string[] | undefined {
    if (!e) return undefined;
    const k = e.exprKind;
    if (k.case === "identExpr") return this.local(k.value.name) ? undefined : [k.value.name];
    if (k.case === "selectExpr" && !k.value.testOnly) {
      const head = this.qualified(k.value.operand);
      return head ? [...head, k.value.field] : undefined;
    }
    return undefined;
  }

  private select(e: Expr, s: { operand?: Expr; field: string; testOnly: boolean }): Ty {
    if (s.testOnly) {
      // has(x.f): f is looked up on x (a map's key may be absent: that is what has() asks).
      const t = s.operand ? this.check(s.operand) : DYN;
      if (t.k !== "dyn" && t.k !== "map" && t.k !== "record")
        this.problem(e, `has() takes a field of a map or an object, not of ${show(t)}`);
      return BOOL;
    }
    const path = this.qualified(e);
    if (path) return this.path(e, path);
    return this.field(e, s.operand ? this.check(s.operand) : DYN, s.field);
  }

  /** A dotted name: the longest declared variable it starts with, then fields of its value. */
  private path(at: Expr, path: string[]): Ty {
    // A name's findings point at its first character.
    let e = at;
    while (e.exprKind.case === "selectExpr" && e.exprKind.value.operand) e = e.exprKind.value.operand;
    if (path[0] === "vars") return this.vars(e, path);
    for (let n = path.length; n > 0; n--) {
      const name = path.slice(0, n).join(".");
      const v = VARIABLES.get(name);
      if (!v) continue;
      const why = unavailable(name, this.scope);
      if (why) return this.problem(e, why);
      let t = v.type;
      for (const f of path.slice(n)) t = this.field(e, t, f, name);
      return t;
    }
    const name = path.join(".");
    const example = EXAMPLE_ONLY.get(name) ?? EXAMPLE_ONLY.get(path.slice(0, 2).join("."));
    if (example) {
      this.warning(e, `${name} is not in ngrok's variable reference (its own example uses it: ${example})`);
      return DYN;
    }
    // The longest known prefix: the segment after it is the unknown one.
    for (let i = path.length - 1; i >= 0; i--) {
      const prefix = path.slice(0, i).join(".");
      const next = NEXT_SEGMENTS.get(prefix);
      if (!next) continue;
      const unknown = path.slice(0, i + 1).join(".");
      const names = i === 0 ? [...next, ...this.localNames()] : [...next];
      const near = nearest(path[i]!, names);
      return this.problem(
        e,
        `unknown name ${unknown}${near ? `; did you mean ${i === 0 ? near : `${prefix}.${near}`}?` : ""}`,
      );
    }
    return this.problem(e, `unknown name ${name}`);
  }

  private localNames(): string[] {
    return this.locals.flatMap((m) => [...m.keys()]).filter((n) => !n.startsWith("@") && !n.startsWith("__"));
  }

  /** vars.<name>: set by set-vars earlier (traffic-policy/actions/set-vars). */
  private vars(e: Expr, path: string[]): Ty {
    if (path.length === 1) return map(STRING, DYN);
    const known = this.scope.vars;
    if (known && !known.has(path[1]!)) {
      const near = nearest(path[1]!, [...known]);
      return this.problem(
        e,
        `vars.${path[1]} is not set before this point (a set-vars action sets vars.*${known.size ? `: ${[...known].map((v) => `vars.${v}`).join(", ")}` : ""})${near ? `; did you mean vars.${near}?` : ""}`,
      );
    }
    return DYN;
  }

  private field(e: Expr, t: Ty, f: string, of?: string): Ty {
    switch (t.k) {
      case "dyn":
        return DYN;
      case "map":
        if (!assignable(t.key, STRING, new Map())) return this.problem(e, `.${f}: the map's keys are ${show(t.key)}`);
        return t.v;
      case "record": {
        const ft = t.fields[f];
        if (ft) return ft;
        const near = nearest(f, Object.keys(t.fields));
        return this.problem(e, `${t.name} has no field ${f}${near ? `; did you mean ${near}?` : ""}`);
      }
      default: {
        // ngrok's dotted names: req.url is a string and req.url.path another name.
        const children = of ? NEXT_SEGMENTS.get(of) : undefined;
        const near = children ? nearest(f, [...children]) : undefined;
        if (of && children)
          return this.problem(e, `unknown name ${of}.${f}${near ? `; did you mean ${of}.${near}?` : ""}`);
        return this.problem(e, `${of ? `${of} is ${show(t)}: ` : ""}${show(t)} has no field ${f}`);
      }
    }
  }

  private comprehension(
    e: Expr,
    c: {
      iterVar: string;
      iterVar2?: string;
      iterRange?: Expr;
      accuVar: string;
      accuInit?: Expr;
      loopCondition?: Expr;
      loopStep?: Expr;
      result?: Expr;
    },
  ): Ty {
    const range = c.iterRange ? this.check(c.iterRange) : DYN;
    let it: Ty = DYN;
    let it2: Ty = DYN;
    if (range.k === "list") [it, it2] = c.iterVar2 ? [INT, range.e] : [range.e, DYN];
    else if (range.k === "map") [it, it2] = [range.key, range.v];
    else if (range.k !== "dyn") this.problem(c.iterRange ?? e, `cannot iterate over ${show(range)}`);
    const accu = c.accuInit ? this.check(c.accuInit) : DYN;
    const scope = new Map<string, Ty>([
      [c.accuVar, accu],
      [c.iterVar, it],
    ]);
    if (c.iterVar2) scope.set(c.iterVar2, it2);
    this.locals.push(scope);
    if (c.loopCondition) this.check(c.loopCondition);
    const step = c.loopStep ? this.check(c.loopStep) : accu;
    // map() starts from [] (list(dyn)) and appends: its accumulator takes the step's type.
    if (accu.k === "list" && accu.e.k === "dyn" && step.k === "list") scope.set(c.accuVar, step);
    const result = c.result ? this.check(c.result) : DYN;
    this.locals.pop();
    return result;
  }

  private call(e: Expr, c: { target?: Expr; function: string; args: Expr[] }): Ty {
    const fn = c.function;
    const binding = BINDING_MACROS.get(fn);
    if (binding && c.target && c.args.length === 2 && c.args[0]!.exprKind.case === "identExpr") {
      const t = this.check(c.target);
      const name = c.args[0]!.exprKind.value.name;
      this.locals.push(new Map([[name, t.k === "list" ? t.e : DYN]]));
      this.check(c.args[1]!);
      this.locals.pop();
      return t;
    }
    // A qualified function name: base64.encode(…), hash.sha256(…).
    const qualified = this.qualified(c.target);
    if (qualified && !VARIABLES.has(qualified.join(".")) && qualified[0] !== "vars") {
      const name = `${qualified.join(".")}.${fn}`;
      if (OVERLOADS.has(name))
        return this.overload(
          e,
          name,
          undefined,
          c.args.map((a) => this.check(a)),
        );
      if (
        qualified.length === 1 &&
        FUNCTION_NAMESPACES.has(qualified[0]!) &&
        !NEXT_SEGMENTS.get("")!.has(qualified[0]!)
      ) {
        const names = [...OVERLOADS.keys()].filter((n) => n.startsWith(`${qualified[0]}.`));
        const near = nearest(name, names);
        return this.problem(e, `unknown function ${name}${near ? `; did you mean ${near}?` : ""}`);
      }
    }
    const args = c.args.map((a) => this.check(a));
    const target = c.target ? this.check(c.target) : undefined;
    const all = target ? [target, ...args] : args;
    const op = this.operator(e, fn, all, c);
    if (op) return op;
    return this.overload(e, fn, target, args, c);
  }

  /** The operators' types (cel-spec langdef.md, "Standard definitions"); undefined: not an operator. */
  private operator(e: Expr, fn: string, a: Ty[], c: { args: Expr[] }): Ty | undefined {
    const dyn = (t: Ty) => t.k === "dyn";
    const wrong = (what: string) => this.problem(e, `${what} (got ${a.map(show).join(", ")})`);
    switch (fn) {
      case "_&&_":
      case "_||_":
      case "!_":
      case "@not_strictly_false":
      case "__not_strictly_false__":
        if (!a.every((t) => t.k === "bool" || dyn(t)))
          return wrong(`${fn === "!_" ? "!" : fn.replace(/_/g, "")} takes bool operands`);
        return BOOL;
      case "_?_:_":
        if (!(a[0]!.k === "bool" || dyn(a[0]!)))
          this.problem(c.args[0]!, `the condition of ?: must be bool (got ${show(a[0]!)})`);
        return join(a[1]!, a[2]!);
      case "_==_":
      case "_!=_": {
        const [l, r] = a as [Ty, Ty];
        const ok =
          assignable(l, r, new Map()) ||
          assignable(r, l, new Map()) ||
          (NUMERIC.has(l.k) && NUMERIC.has(r.k)) ||
          l.k === "null_type" ||
          r.k === "null_type";
        return ok ? BOOL : wrong(`${fn === "_==_" ? "==" : "!="} compares values of one type`);
      }
      case "_<_":
      case "_<=_":
      case "_>_":
      case "_>=_": {
        const [l, r] = a as [Ty, Ty];
        const ok = dyn(l) || dyn(r) || (NUMERIC.has(l.k) && NUMERIC.has(r.k)) || (ORDERED.has(l.k) && l.k === r.k);
        return ok
          ? BOOL
          : wrong(`${fn.replace(/_/g, "")} compares numbers, strings, bytes, timestamps or durations of one type`);
      }
      case "_+_":
      case "_-_":
      case "_*_":
      case "_/_":
      case "_%_": {
        const [l, r] = a as [Ty, Ty];
        const sym = fn.replace(/_/g, "");
        if (dyn(l) || dyn(r)) return dyn(l) ? r : l;
        if (NUMERIC.has(l.k) && l.k === r.k && (sym !== "%" || l.k !== "double")) return l;
        if (sym === "+") {
          if ((l.k === "string" || l.k === "bytes") && l.k === r.k) return l;
          if (l.k === "list" && r.k === "list") return list(join(l.e, r.e));
          if (l.k === "timestamp" && r.k === "duration") return l;
          if (l.k === "duration" && (r.k === "timestamp" || r.k === "duration")) return r;
        }
        if (sym === "-") {
          if (l.k === "timestamp" && r.k === "timestamp") return scalar("duration");
          if ((l.k === "timestamp" || l.k === "duration") && r.k === "duration") return l;
        }
        return wrong(`no ${sym} for these types`);
      }
      case "-_":
        if (dyn(a[0]!) || a[0]!.k === "int" || a[0]!.k === "double") return a[0]!;
        return wrong("- takes an int or a double");
      case "_[_]":
      case "_[?_]": {
        const [o, i] = a as [Ty, Ty];
        if (o.k === "list") return i.k === "int" || dyn(i) ? o.e : wrong("a list's index is an int");
        if (o.k === "map") return assignable(o.key, i, new Map()) ? o.v : wrong(`this map's keys are ${show(o.key)}`);
        if (dyn(o)) return DYN;
        return wrong(`[] takes a list or a map`);
      }
      case "@in": {
        const [x, coll] = a as [Ty, Ty];
        if (coll.k === "list" && !assignable(coll.e, x, new Map()) && !assignable(x, coll.e, new Map()))
          return wrong(`in: the list holds ${show(coll.e)}`);
        if (coll.k === "map" && !assignable(coll.key, x, new Map()))
          return wrong(`in: the map's keys are ${show(coll.key)}`);
        if (coll.k !== "list" && coll.k !== "map" && !dyn(coll)) return wrong("in takes a list or a map");
        return BOOL;
      }
      default:
        return undefined;
    }
  }

  private overload(e: Expr, fn: string, target: Ty | undefined, args: Ty[], c?: { target?: Expr; args: Expr[] }): Ty {
    const example = target ? EXAMPLE_METHODS.get(fn) : undefined;
    if (example && target && target.k === example.receiver && args.length === 1) {
      this.warning(
        e,
        `${show(target)}.${fn}() is not in ngrok's macro reference (its own example uses it: ${example.source})`,
      );
      return BOOL;
    }
    const all = OVERLOADS.get(fn);
    if (!all) {
      const names = [
        ...OVERLOADS.keys(),
        ...BINDING_MACROS.keys(),
        "has",
        "all",
        "exists",
        "exists_one",
        "map",
        "filter",
      ];
      const near = nearest(fn, names);
      return this.problem(e, `unknown function ${fn}${near ? `; did you mean ${near}?` : ""}`);
    }
    const candidates = all.filter((o) => (o.target !== undefined) === (target !== undefined));
    if (candidates.length === 0)
      return this.problem(e, target ? `${fn} is a function, not a method: ${fn}(…)` : `${fn} is a method: x.${fn}(…)`);
    for (const o of candidates) {
      if (o.args.length !== args.length) continue;
      const params = new Map<string, Ty>();
      if (target && o.target && !assignable(o.target, target, params)) continue;
      if (!o.args.every((w, i) => assignable(w, args[i]!, params))) continue;
      if (fn === "matches" && c) this.regex(c);
      return substitute(o.result, params);
    }
    const forms = candidates.map((o) => `${o.target ? `${show(o.target)}.` : ""}${fn}(${o.args.map(show).join(", ")})`);
    const got = `${target ? `${show(target)}.` : ""}${fn}(${args.map(show).join(", ")})`;
    return this.problem(e, `no overload of ${fn} takes ${got}; it takes ${[...new Set(forms)].join(" or ")}`);
  }

  /** A matches() pattern given as a literal is RE2 (traffic-policy/macros/index.mdx:1085). */
  private regex(c: { target?: Expr; args: Expr[] }): void {
    const pattern = c.args[c.args.length - 1]!;
    const k = pattern.exprKind;
    if (k.case !== "constExpr" || k.value.constantKind.case !== "stringValue") return;
    try {
      RE2JS.compile(k.value.constantKind.value as string);
    } catch (err) {
      this.problem(pattern, `not an RE2 regular expression: ${(err as Error).message}`);
    }
  }
}

/** Parses and checks one expression; `base` is its offset in a larger text (a template). */
export function checkCel(text: string, scope: CelScope, mustBeBool: boolean, base = 0): CelFinding[] {
  const parsed = parseCel(text);
  if ("error" in parsed) return [{ severity: "problem", message: parsed.error, column: base + parsed.column }];
  const checker = new Checker(scope, parsed.positions, base);
  let t: Ty;
  try {
    t = checker.check(parsed.expr);
  } catch (err) {
    return [{ severity: "problem", message: `not a valid expression: ${(err as Error).message}`, column: base + 1 }];
  }
  if (mustBeBool && checker.findings.every((f) => f.severity !== "problem") && t.k !== "bool" && t.k !== "dyn")
    checker.findings.push({
      severity: "problem",
      message: `an expression must be a bool (this one is ${show(t)})`,
      column: base + 1,
    });
  return checker.findings;
}

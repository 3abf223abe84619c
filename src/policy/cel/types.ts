// The types edgectl's CEL checker reasons with (cel-spec's langdef.md, "Values"): the scalars,
// list(T), map(K, V), ngrok's documented records (a cookie, a certificate extension) and dyn.
// A type parameter (`T`) stands in a function signature only (src/policy/cel/functions.ts).

export type Scalar =
  "bool" | "int" | "uint" | "double" | "string" | "bytes" | "null_type" | "timestamp" | "duration" | "dyn" | "type";

export type Ty =
  | { k: Scalar }
  | { k: "list"; e: Ty }
  | { k: "map"; key: Ty; v: Ty }
  | { k: "record"; name: string; fields: Record<string, Ty> }
  | { k: "param"; name: string };

const scalars = new Map<Scalar, Ty>();
export const scalar = (k: Scalar): Ty => {
  let t = scalars.get(k);
  if (!t) scalars.set(k, (t = { k }));
  return t;
};
export const DYN = scalar("dyn");
export const BOOL = scalar("bool");
export const INT = scalar("int");
export const STRING = scalar("string");
export const list = (e: Ty): Ty => ({ k: "list", e });
export const map = (key: Ty, v: Ty): Ty => ({ k: "map", key, v });

/** A type as CEL writes it: `list(string)`, `map(string, list(string))`. */
export function show(t: Ty): string {
  switch (t.k) {
    case "list":
      return `list(${show(t.e)})`;
    case "map":
      return `map(${show(t.key)}, ${show(t.v)})`;
    case "record":
      return t.name;
    case "param":
      return t.name;
    default:
      return t.k;
  }
}

const SCALAR_NAMES = new Set<string>([
  "bool",
  "int",
  "uint",
  "double",
  "string",
  "bytes",
  "null_type",
  "timestamp",
  "duration",
  "dyn",
  "type",
]);

/** Reads a signature's type: `string`, `list(T)`, `map(string, dyn)`; one capital letter is a parameter. */
export function readType(text: string): Ty {
  let i = 0;
  const s = text.replace(/\s+/g, "");
  const read = (): Ty => {
    const m = /^[A-Za-z_]+/.exec(s.slice(i));
    if (!m) throw new Error(`bad type ${text}`);
    const name = m[0];
    i += name.length;
    if (name === "list" || name === "map") {
      if (s[i] !== "(") throw new Error(`bad type ${text}`);
      i++;
      const a = read();
      if (name === "list") {
        i++; // )
        return list(a);
      }
      i++; // ,
      const b = read();
      i++; // )
      return map(a, b);
    }
    if (/^[A-Z]$/.test(name)) return { k: "param", name };
    if (!SCALAR_NAMES.has(name)) throw new Error(`unknown type ${name} in ${text}`);
    return scalar(name as Scalar);
  };
  const t = read();
  if (i !== s.length) throw new Error(`bad type ${text}`);
  return t;
}

/**
 * Whether a value of `actual` is accepted where `wanted` stands, binding parameters in `params`.
 * dyn goes both ways (it is checked at run time); null goes where a map, list or record may.
 */
export function assignable(wanted: Ty, actual: Ty, params: Map<string, Ty>): boolean {
  if (wanted.k === "param") {
    const bound = params.get(wanted.name);
    if (!bound || bound.k === "dyn") {
      params.set(wanted.name, actual);
      return true;
    }
    return assignable(bound, actual, params) || assignable(actual, bound, new Map());
  }
  if (wanted.k === "dyn" || actual.k === "dyn") return true;
  if (actual.k === "param") return true;
  switch (wanted.k) {
    case "list":
      return actual.k === "list" && assignable(wanted.e, actual.e, params);
    case "map":
      return actual.k === "map" && assignable(wanted.key, actual.key, params) && assignable(wanted.v, actual.v, params);
    case "record":
      return actual.k === "record" && actual.name === wanted.name;
    default:
      return wanted.k === actual.k;
  }
}

/** `t` with its parameters replaced by their bindings (dyn when unbound). */
export function substitute(t: Ty, params: Map<string, Ty>): Ty {
  switch (t.k) {
    case "param":
      return params.get(t.name) ?? DYN;
    case "list":
      return list(substitute(t.e, params));
    case "map":
      return map(substitute(t.key, params), substitute(t.v, params));
    default:
      return t;
  }
}

/** The type of both `a` and `b` (a list literal's elements, a conditional's branches): dyn if they differ. */
export function join(a: Ty, b: Ty): Ty {
  if (a.k === "dyn" || b.k === "dyn") return DYN;
  if (a.k === "null_type") return b;
  if (b.k === "null_type") return a;
  if (a.k === "list" && b.k === "list") return list(join(a.e, b.e));
  if (a.k === "map" && b.k === "map") return map(join(a.key, b.key), join(a.v, b.v));
  return show(a) === show(b) ? a : DYN;
}

// Parse functions for ApiClient.requestJson; the thrown message names the offending field so
// "unexpected body" errors say what was wrong. A valid body is returned as the API sent it (zod
// would rebuild objects in schema order), so `-o json` prints the resource with the API's own
// field order.
//
// Nearly every answer is valid, and a plain check of its shape says so for a fraction of zod's
// cost; whatever that check does not pass, zod judges and words. Each answer's shape is declared
// once: as a zod schema, whose plain check is derived from it (shapeOf), or, on the hot path
// (`failover get`), as a Shape, from which both its type (Infer) and its zod schema (schemaOf,
// made only when an answer fails the plain check) are derived, so that a valid answer needs no
// zod schema made, nor zod itself loaded (scripts/build.mjs loads zod on first use).
import * as z from "zod/mini";

/**
 * What the plain check checks: plain strings, finite numbers, booleans, anything, optionals,
 * nullables, arrays, and objects (extra keys allowed).
 */
export type Shape =
  | "string"
  | "number"
  | "boolean"
  | "unknown"
  | { readonly optional: Shape }
  | { readonly nullable: Shape }
  | { readonly array: Shape }
  | { readonly object: { readonly [key: string]: Shape } };

/** The type of the values a shape accepts, as zod infers it for schemaOf(shape). */
export type Infer<S extends Shape> = S extends "string"
  ? string
  : S extends "number"
    ? number
    : S extends "boolean"
      ? boolean
      : S extends "unknown"
        ? unknown
        : S extends { readonly optional: infer I extends Shape }
          ? Infer<I> | undefined
          : S extends { readonly nullable: infer I extends Shape }
            ? Infer<I> | null
            : S extends { readonly array: infer E extends Shape }
              ? Infer<E>[]
              : S extends { readonly object: infer O extends { readonly [key: string]: Shape } }
                ? Flat<
                    { -readonly [K in keyof O as O[K] extends { optional: Shape } ? never : K]: Infer<O[K]> } & {
                      -readonly [K in keyof O as O[K] extends { optional: Shape } ? K : never]?: Infer<O[K]>;
                    } & { [key: string]: unknown }
                  >
                : never;

type Flat<T> = { [K in keyof T]: T[K] };

export type Parser<T> = (data: unknown) => T;

/** A parser whose plain check is derived from the schema (or zod alone, for a schema no shape describes). */
export function schemaParser<S extends z.ZodMiniType>(schema: S): Parser<z.infer<S>> {
  return parser(() => schema, shapeOf(schema));
}

/** A parser for a declared shape: zod (schemaOf the shape) is made only to judge an answer the plain check refuses, and once. */
export function shapeParser<S extends Shape>(shape: S): Parser<Infer<S>> {
  let schema: z.ZodMiniType | undefined;
  return parser(() => (schema ??= schemaOf(shape)), shape) as Parser<Infer<S>>;
}

/** The zod schema that accepts what the shape's plain check accepts: objects are loose, numbers finite. */
export function schemaOf(shape: Shape): z.ZodMiniType {
  switch (shape) {
    case "string":
      return z.string();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "unknown":
      return z.unknown();
  }
  if ("optional" in shape) return z.optional(schemaOf(shape.optional));
  if ("nullable" in shape) return z.nullable(schemaOf(shape.nullable));
  if ("array" in shape) return z.array(schemaOf(shape.array));
  return z.looseObject(Object.fromEntries(Object.entries(shape.object).map(([key, field]) => [key, schemaOf(field)])));
}

function parser<S extends z.ZodMiniType>(schema: () => S, shape: Shape | undefined): Parser<z.infer<S>> {
  const valid = shape && checkOf(shape);
  return (data) => {
    if (valid?.(data)) return data as z.infer<S>;
    const result = schema().safeParse(data);
    if (result.success) return data as z.infer<S>;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join(".") : "body";
    throw new Error(`${where}: ${issue?.message ?? "invalid"}`);
  };
}

interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
}

/** The def keys a schema kind may have for a shape to stand in for it. */
const PLAIN: Record<string, readonly string[]> = {
  string: ["type"],
  number: ["type"],
  boolean: ["type"],
  unknown: ["type"],
  optional: ["type", "innerType"],
  nullable: ["type", "innerType"],
  array: ["type", "element"],
  object: ["type", "shape", "catchall"],
};

/**
 * The shape whose plain check accepts only what the schema accepts; undefined for a schema
 * with anything else (refinements, formats, strict objects, records…), which zod alone checks.
 */
export function shapeOf(schema: z.ZodMiniType): Shape | undefined {
  const def = schema._zod.def as Def;
  const allowed = PLAIN[def.type];
  if (!allowed || (def.checks?.length ?? 0) > 0) return undefined;
  if (Object.keys(def).some((k) => k !== "checks" && !allowed.includes(k))) return undefined;
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
    case "unknown":
      return def.type;
    case "optional": {
      const inner = shapeOf(def.innerType!);
      return inner && { optional: inner };
    }
    case "nullable": {
      const inner = shapeOf(def.innerType!);
      return inner && { nullable: inner };
    }
    case "array": {
      const element = shapeOf(def.element!);
      return element && { array: element };
    }
    case "object": {
      // Extra keys are allowed by a loose object and stripped by a plain one: neither fails.
      if (def.catchall && (def.catchall._zod.def as Def).type !== "unknown") return undefined;
      const fields: Record<string, Shape> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const inner = shapeOf(field);
        if (!inner) return undefined;
        fields[key] = inner;
      }
      return { object: fields };
    }
  }
  return undefined;
}

type Check = (value: unknown) => boolean;

/** The plain check of a shape: true for exactly what schemaOf(shape) accepts. */
export function checkOf(shape: Shape): Check {
  switch (shape) {
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return (v) => typeof v === "boolean";
    case "unknown":
      return () => true;
  }
  if ("optional" in shape) {
    const inner = checkOf(shape.optional);
    return (v) => v === undefined || inner(v);
  }
  if ("nullable" in shape) {
    const inner = checkOf(shape.nullable);
    return (v) => v === null || inner(v);
  }
  if ("array" in shape) {
    const element = checkOf(shape.array);
    // A loop, not every(), which skips the holes of a sparse array (zod does not).
    return (v) => {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
      return true;
    };
  }
  const fields = Object.entries(shape.object).map(([key, field]) => [key, checkOf(field)] as const);
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    for (const [key, check] of fields) if (!check(o[key])) return false;
    return true;
  };
}

// Turns a zod schema into the parse function ApiClient.requestJson takes; the thrown
// message names the offending field so "unexpected body" errors say what was wrong.
// A valid body is returned as the API sent it (zod would rebuild objects in schema order),
// so `-o json` prints the resource with the API's own field order.
import type * as z from "zod/mini";

export function schemaParser<S extends z.ZodMiniType>(schema: S): (data: unknown) => z.infer<S> {
  // A batch checks thousands of answers, nearly all valid: a plain check of the schema's
  // shape says so for a fraction of zod's cost. Whatever it does not pass, zod judges.
  const valid = quickCheck(schema);
  return (data) => {
    if (valid?.(data)) return data as z.infer<S>;
    const result = schema.safeParse(data);
    if (result.success) return data as z.infer<S>;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join(".") : "body";
    throw new Error(`${where}: ${issue?.message ?? "invalid"}`);
  };
}

type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
}

/** The def keys a schema kind may have for the quick check to stand in for zod. */
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
 * A check that accepts only what zod accepts, for schemas made of plain strings, finite
 * numbers, booleans, optionals, nullables, arrays and objects (extra keys allowed); undefined
 * for anything else (refinements, formats, strict objects, records…), which zod alone checks.
 */
function quickCheck(schema: z.ZodMiniType): Check | undefined {
  const def = schema._zod.def as Def;
  const allowed = PLAIN[def.type];
  if (!allowed || (def.checks?.length ?? 0) > 0) return undefined;
  if (Object.keys(def).some((k) => k !== "checks" && !allowed.includes(k))) return undefined;
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return (v) => typeof v === "boolean";
    case "unknown":
      return () => true;
    case "optional": {
      const inner = quickCheck(def.innerType!);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "nullable": {
      const inner = quickCheck(def.innerType!);
      return inner && ((v) => v === null || inner(v));
    }
    case "array": {
      const element = quickCheck(def.element!);
      // A loop, not every(), which skips the holes of a sparse array (zod does not).
      return (
        element &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        })
      );
    }
    case "object": {
      // Extra keys are allowed by a loose object and stripped by a plain one: neither fails.
      if (def.catchall && (def.catchall._zod.def as Def).type !== "unknown") return undefined;
      const fields: [string, Check][] = [];
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const check = quickCheck(field);
        if (!check) return undefined;
        fields.push([key, check]);
      }
      return (v) => {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
        const o = v as Record<string, unknown>;
        for (const [key, check] of fields) if (!check(o[key])) return false;
        return true;
      };
    }
  }
  return undefined;
}

// Validates a command's input with zod before anything is sent. The message names the
// flag or argument and the rule it broke; the error is a UsageError (exit 2).
import * as z from "zod/mini";
import { ID_RULES, isValidId, utf8Length, type IdKind } from "../api/ids.js";
import { UsageError } from "../errors.js";
import { escapeControl } from "../output/escape.js";

export function idSchema(kind: IdKind) {
  return z.string().check(z.refine((v) => isValidId(kind, v), ID_RULES[kind].rule));
}

export function maxBytes(limit: number) {
  return z.string().check(z.refine((v) => utf8Length(v) <= limit, `must be at most ${limit} bytes of UTF-8`));
}

/** A refinement whose message does not quote the value (an empty one, or one with a secret). */
export function unquoted(message: string) {
  return { message, params: { unquoted: true } };
}

/** A whole number typed as text (`--concurrency 8`), from min to max; `trim` allows blanks around it. */
export function wholeNumber(min: number, max: number, { trim = false, message = `must be a whole number from ${min} to ${max}` } = {}) {
  const digits = (v: string) => (trim ? v.trim() : v);
  return z.pipe(
    z.string().check(z.refine((v) => /^\d+$/.test(digits(v)) && Number(digits(v)) >= min && Number(digits(v)) <= max, message)),
    z.transform((v) => Number(digits(v))),
  );
}

/** `labels` maps the input's keys to what the user typed (`--backends`, `<id>`). */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, labels: Record<string, string>): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data as z.infer<S>;
  const issue = result.error.issues[0]!;
  // A rule across fields names the flags in its own message.
  if (issue.path.length === 0) throw new UsageError(issue.message);
  const key = String(issue.path[0] ?? "");
  const label = labels[key] ?? key;
  const value = issue.input;
  let shown = "";
  if (typeof value === "string" && !(issue.code === "custom" && issue.params?.unquoted)) {
    shown = value.length > 80 ? ` "${escapeControl(value.slice(0, 80))}…" (${utf8Length(value)} bytes)` : ` "${escapeControl(value)}"`;
  }
  throw new UsageError(`${label}:${shown} ${issue.message}`);
}

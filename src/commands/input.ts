// Validates a command's input with zod before anything is sent. The message names the
// flag or argument and the rule it broke; the error is a UsageError (exit 2).
// A field a hot path uses (`failover get`'s ids and --concurrency) also has a plain check
// that passes the values it is sure of without zod: zod is loaded only on first use
// (scripts/build.mjs), and building it and the schemas is most of what a quick command costs.
import { resolve } from "node:path";
import * as z from "zod/mini";
import { ID_RULES, isValidId, utf8Length, type IdKind } from "../api-data/ids.js";
import { checkOf, schemaOf } from "../api/schema.js";
import { UsageError } from "../errors.js";
import { InputTooLargeError, readFileBounded, tooLargeMessage } from "../files/read-bounded.js";
import { escapeControl } from "../text/escape.js";
import type { Deps } from "./deps.js";

/**
 * A rule for a value typed as text: what it accepts, the message when it does not, and the
 * value it gives. Each rule is declared once; a field's zod schema (the contract, which words
 * every refusal) and its plain check (the happy path without zod) are both made from it.
 */
interface TextRule<T> {
  accepts: (text: string) => boolean;
  message: string;
  value: (text: string) => T;
}

const idRule = (kind: IdKind): TextRule<string> => ({
  accepts: (v) => isValidId(kind, v),
  message: ID_RULES[kind].rule,
  value: (v) => v,
});

const isWhole = (digits: string, min: number, max: number) =>
  /^\d+$/.test(digits) && Number(digits) >= min && Number(digits) <= max;

function wholeRule(
  min: number,
  max: number,
  { trim = false, message = `must be a whole number from ${min} to ${max}` } = {},
) {
  const digits = (v: string) => (trim ? v.trim() : v);
  return {
    accepts: (v) => isWhole(digits(v), min, max),
    message,
    value: (v) => Number(digits(v)),
  } satisfies TextRule<number>;
}

/** The rule's schema: a string it accepts, refined with its message. */
function checkedText(rule: TextRule<unknown>) {
  return z.string().check(z.refine(rule.accepts, rule.message));
}

export function idSchema(kind: IdKind) {
  return checkedText(idRule(kind));
}

export function maxBytes(limit: number) {
  return z.string().check(z.refine((v) => utf8Length(v) <= limit, `must be at most ${limit} bytes of UTF-8`));
}

/** A refinement whose message does not quote the value (an empty one, or one with a secret). */
export function unquoted(message: string) {
  return { message, params: { unquoted: true } };
}

/** A whole number typed as text (`--concurrency 8`), from min to max; `trim` allows blanks around it. */
export function wholeNumber(min: number, max: number, opts: { trim?: boolean; message?: string } = {}) {
  const rule = wholeRule(min, max, opts);
  return z.pipe(checkedText(rule), z.transform(rule.value));
}

/** What a plain check answers for a value it is not sure of: the schema then judges it. */
export const UNSURE: unique symbol = Symbol("unsure");

/**
 * A field's check: its zod schema (the contract; made, and zod loaded, only when needed) and a
 * plain check that gives the schema's output for the values it accepts and UNSURE for any
 * other, so that zod judges and words every refusal. Both are made from one TextRule
 * (test/commands/input.property.test.ts holds them in agreement). Spread into an ArgDecl or
 * FlagDecl (src/commands/define.ts).
 */
export interface Checked<S extends z.ZodMiniType> {
  schema: () => S;
  plain: (value: unknown) => z.output<S> | typeof UNSURE;
}

const anyText: TextRule<string> = { accepts: () => true, message: "", value: (v) => v };

/** A list of texts (a variadic argument), each kept to the rule. */
function listOf(rule: TextRule<string>): Checked<z.ZodMiniArray<ReturnType<typeof checkedText>>> {
  return {
    schema: () => z.array(checkedText(rule)),
    plain: (v) => (isStrings(v) && v.every(rule.accepts) ? v.map(rule.value) : UNSURE),
  };
}

/** Strings as typed (a variadic argument). */
export function strings(): Checked<z.ZodMiniArray<ReturnType<typeof checkedText>>> {
  return listOf(anyText);
}

/** Ids of one kind. */
export function idList(kind: IdKind): Checked<z.ZodMiniArray<ReturnType<typeof checkedText>>> {
  return listOf(idRule(kind));
}

/** A whole number typed as text, from min to max, `fallback` when absent. */
export function wholeNumberOr(
  min: number,
  max: number,
  fallback: number,
): Checked<z.ZodMiniDefault<ReturnType<typeof wholeNumber>>> {
  const rule = wholeRule(min, max);
  return {
    schema: () => z._default(z.pipe(checkedText(rule), z.transform(rule.value)), fallback),
    plain: (v) => (v === undefined ? fallback : typeof v === "string" && rule.accepts(v) ? rule.value(v) : UNSURE),
  };
}

/** A switch (`--show-secret`; absent reads as false): schema and plain check both derived from one shape. */
export function switchValue(): Checked<z.ZodMiniBoolean> {
  const holds = checkOf("boolean");
  return {
    schema: () => schemaOf("boolean") as z.ZodMiniBoolean,
    plain: (v) => (holds(v) ? (v as boolean) : UNSURE),
  };
}

// A loop, not every(), which skips the holes of a sparse array (zod does not).
function isStrings(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "string") return false;
  return true;
}

/** One field's value, checked as a command's input is; `label` names it in the message. */
export function parseField<S extends z.ZodMiniType>(field: Checked<S>, value: unknown, label: string): z.output<S> {
  const plain = field.plain(value);
  if (plain !== UNSURE) return plain;
  return (parseInput(z.object({ value: field.schema() }), { value }, { value: label }) as { value: z.output<S> }).value;
}

/** `labels` maps the input's keys to what the user typed (`--backends`, `<id>`). */
export function parseInput<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  labels: Record<string, string>,
): z.infer<S> {
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
    shown =
      value.length > 80
        ? ` "${escapeControl(value.slice(0, 80))}…" (${utf8Length(value)} bytes)`
        : ` "${escapeControl(value)}"`;
  }
  // A check may give the choices: below the line for people, in the details for -o json.
  const more =
    issue.code === "custom"
      ? (issue.params as { details?: Record<string, unknown>; lines?: string[] } | undefined)
      : undefined;
  throw new UsageError(`${label}:${shown} ${issue.message}`, more?.details, more?.lines);
}

/**
 * The text of a file, or of stdin for `-` (refused at a terminal, where nothing is piped in):
 * what `policy check <file>`, --traffic-policy-file and --input read. `label` names the
 * argument in a message; `atTerminal` is the whole message for `-` at a terminal. At most
 * 16 MiB is read, and a file is read without blocking (a FIFO, a device: the signals are heard):
 * src/files/read-bounded.ts.
 */
export async function readTextSource(
  source: string,
  words: { label: string; atTerminal: string },
  deps: Pick<Deps, "io" | "readStdin" | "cwd">,
): Promise<string> {
  if (source === "-") {
    if (deps.io.stdin.isTTY) throw new UsageError(words.atTerminal);
    return deps.readStdin(words.label);
  }
  return readFileText(source, words.label, deps.cwd);
}

/**
 * A file's text, at most 16 MiB; a failure is a UsageError naming `label` and the file as given.
 * A relative name is read from `cwd` when one is given (Deps.cwd), else from the process's folder.
 */
export async function readFileText(file: string, label: string, cwd?: string): Promise<string> {
  return (await readFileBytes(file, label, cwd)).toString("utf8");
}

/** A file's exact bytes (a webhook body, a raw request), at most 16 MiB; a failure is a UsageError naming `label`. */
export async function readFileBytes(file: string, label: string, cwd?: string): Promise<Buffer> {
  try {
    return await readFileBounded(cwd === undefined ? file : resolve(cwd, file));
  } catch (err) {
    if (err instanceof InputTooLargeError) throw new UsageError(tooLargeMessage(label, escapeControl(file)));
    throw new UsageError(
      `${label}: cannot read ${escapeControl(file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

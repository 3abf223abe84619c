// The kinds of field that actions' configs share (a header map, a duration, a CIDR, a status
// code…), each as a zod/mini schema with edgectl's words. Every rule cites the ngrok doc it
// comes from in the action module that uses it (src/policy/actions/<type>.ts); what is
// common to all of them is cited here. Schemas are made on first use (see ../actions.ts).
import * as z from "zod/mini";
import { parseDuration } from "../duration.js";

export const str = () => z.string();
export const bool = () => z.boolean();
export const strings = () => z.array(z.string());
export const nonEmpty = () => z.string().check(z.minLength(1, "must not be empty"));

/**
 * Whether ngrok interpolates this string (it holds `${`): its literal rules (URL form, enum,
 * RE2, CIDR, length) are then left to the CEL checker, which reads it as a template
 * (traffic-policy/how-it-works.mdx:128-140, "CEL Interpolation": `${…}` is replaced before the
 * action runs, so the literal text is not what the action sees).
 */
export const interpolated = (text: string): boolean => text.includes("${");

/** A string whose literal text must pass `problem` (undefined: fine), unless ngrok interpolates it. */
export const literal = (problem: (text: string) => string | undefined) =>
  z.string().check(
    z.check((ctx) => {
      if (interpolated(ctx.value)) return;
      const why = problem(ctx.value);
      if (why !== undefined) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
    }),
  );

/** One of `values`, unless interpolated (an enum written as text: `${vars.field}`). */
export const oneOfText = (values: readonly string[]) =>
  literal((v) =>
    values.includes(v) ? undefined : `must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}`,
  );

/** Between min and max items, or keys of an object. */
export const count = <T>(what: string, min: number, max: number, size: (v: T) => number) =>
  z.refine<T>((v) => size(v) >= min && size(v) <= max, {
    error: (iss) => {
      const n = size(iss.input as T);
      return n < min ? `at least ${min} ${what} (got ${n})` : `at most ${max} ${what} (got ${n})`;
    },
  });
export const keys = (v: object) => Object.keys(v).length;
export const len = (v: unknown[]) => v.length;

/** A list of `item`, min–max long. */
export const list = <T extends z.ZodMiniType>(item: T, what: string, min: number, max = Infinity) =>
  z.array(item).check(count(what, min, max, len));

/** A whole number from min to max. */
export const whole = (min: number, max: number) =>
  z.int().check(z.refine((v) => v >= min && v <= max, `must be a whole number from ${min} to ${max}`));

/** An HTTP status code (RFC 9110 §15: three digits, 100–599). */
export const statusCode = () => whole(100, 599);

/**
 * RFC 9110 §5.1 and §5.6.2: a field name is a token, one or more of
 * `!#$%&'*+-.^_`|~`, digits and letters.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export function headerNameProblem(name: string): string | undefined {
  return TOKEN.test(name)
    ? undefined
    : "not a header name: an HTTP token of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 §5.1)";
}
/** RFC 9110 §5.5: a field value holds no CR, LF or NUL. */
const headerValue = () =>
  z
    .string()
    .check(z.refine((v) => !/[\r\n\0]/.test(v), "a header value must not contain CR, LF or NUL (RFC 9110 §5.5)"));

/**
 * `add-headers` and `remove-headers`: "You may not add or remove the `user-agent` header."
 * (traffic-policy/actions/add-headers.mdx:61, traffic-policy/actions/remove-headers.mdx:62;
 * header names are case-insensitive).
 */
export const USER_AGENT = "must not name the user-agent header: ngrok forbids adding or removing it";
const isUserAgent = (name: string) => name.toLowerCase() === "user-agent";

/**
 * Each name a token, refused at its own place (`headers["x y"]`); and, when `noUserAgent`, no
 * `user-agent`, refused at the headers themselves (as the migration planner's tests hold).
 */
const headerNames = <T>(names: (v: T) => string[], noUserAgent: boolean, atIndex: boolean) =>
  z.check<T>((ctx) => {
    names(ctx.value).forEach((name, i) => {
      const why = headerNameProblem(name);
      if (why) ctx.issues.push({ code: "custom", message: why, input: name, path: [atIndex ? i : name] });
    });
    if (noUserAgent && names(ctx.value).some(isUserAgent))
      ctx.issues.push({ code: "custom", message: USER_AGENT, input: ctx.value });
  });

/**
 * A header map: name → value, min–max names, each name a token. `scalars`: a number or
 * true/false stands for its text (redirect's example writes `x-redirected: true`).
 */
export const headerMap = (min: number, max: number, noUserAgent = false, scalars = false) =>
  z.record(z.string(), scalars ? z.union([headerValue(), z.number(), z.boolean()]) : headerValue()).check(
    count("headers", min, max, keys),
    headerNames((v: Record<string, unknown>) => Object.keys(v), noUserAgent, false),
  );

/** A list of header names, min–max long, each a token. */
export const headerList = (min: number, max: number, noUserAgent = false) =>
  z.array(z.string()).check(
    count("headers", min, max, len),
    headerNames((v: string[]) => v, noUserAgent, true),
  );

/**
 * A duration as ngrok reads one: a Go duration string (`30s`, `2m`, `1h30m`), or a whole
 * number of nanoseconds, the form Go's `time.Duration` takes in JSON and the one ngrok's own
 * Kubernetes operator writes (ngrok-operator internal/trafficpolicy/policy.go,
 * NewCircuitBreakerAction's `*time.Duration` fields; its testdata/policy-2.json holds
 * `"tripped_duration": 120000000000`). Between `min` and `max` ms when given (`range` in words).
 */
export const duration = (min?: number, max?: number, range?: string) => {
  const within = (n: number | undefined) =>
    n === undefined || ((min === undefined || n >= min) && (max === undefined || n <= max));
  const text = z.string().check(
    z.refine((v) => parseDuration(v) !== undefined, "must be a Go duration such as 30s, 2m or 1h30m"),
    z.refine((v) => within(parseDuration(v)), `must be from ${range ?? ""}`),
  );
  const nanoseconds = z
    .int()
    .check(
      z.refine(
        (v) => within(v / 1e6),
        `must be from ${range ?? ""} (a number counts nanoseconds, as Go's time.Duration: write "60s" for seconds)`,
      ),
    );
  return pick((v) => (typeof v === "number" ? nanoseconds : text));
};
export const SECOND = 1000;

// RE2 (src/policy/actions/regex.ts, with @bufbuild/re2) is bundled with the CEL checker, which
// compiles RE2 too (dist/cel.cjs, scripts/build.mjs): src/policy/index.ts's loadCel loads it for a
// policy with an action whose config RE2 checks (ActionSpec.regex) and hands its checker here.
let re2Problem: ((pattern: string) => string | undefined) | undefined;
/** The RE2 checker, from the CEL bundle once loaded (src/policy/index.ts loadCel). */
export function useRe2(check: (pattern: string) => string | undefined): void {
  re2Problem = check;
}

/**
 * An RE2 pattern (github.com/google/re2/wiki/Syntax), unless interpolated. A pattern checked
 * before RE2 is loaded is a bug of the caller (loadCel first), never a pattern passed unchecked.
 */
export const re2 = () =>
  literal((pattern) => {
    if (!re2Problem) throw new Error("RE2 is not loaded: loadCel(document) before checking this policy");
    return re2Problem(pattern);
  });

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function isIpv6(ip: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(ip) || (ip.match(/::/g)?.length ?? 0) > 1) return false;
  let groups = ip.split(":");
  // A trailing dotted IPv4 counts as two groups.
  const last = groups[groups.length - 1]!;
  if (last.includes(".")) {
    if (!IPV4.test(last)) return false;
    groups = [...groups.slice(0, -1), "0", "0"];
  }
  if (ip.includes("::")) {
    const filled = groups.filter((g) => g !== "");
    return filled.length <= 7 && filled.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g));
  }
  return groups.length === 8 && groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g));
}
export function isCidr(text: string): boolean {
  const [ip, bits, extra] = text.split("/");
  if (extra !== undefined || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (IPV4.test(ip)) return Number(bits) <= 32;
  return isIpv6(ip) && Number(bits) <= 128;
}
export const cidr = () =>
  literal((v) => (isCidr(v) ? undefined : "must be a CIDR such as 10.0.0.0/8 or 2001:db8::/32"));

/** An absolute http or https URL (scheme://host…), unless interpolated. */
export const httpUrl = () =>
  literal((v) => {
    if (/[\x00-\x20\x7f]/.test(v)) return "must be a URL without spaces or control characters";
    return /^https?:\/\/[^/?#\s]+/i.test(v) ? undefined : "must be an http:// or https:// URL";
  });

/**
 * The schema `choose` picks for the value, its issues kept at their places (a union would
 * word them all as one "invalid input").
 */
export const pick = (choose: (value: unknown) => z.ZodMiniType) =>
  z.unknown().check(
    z.check((ctx) => {
      const result = choose(ctx.value).safeParse(ctx.value);
      if (!result.success) for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: undefined });
    }),
  );

/** Either `item` or a list of them (jwt-validation's keys and sources, see jwt-validation.ts). */
export const oneOrList = (item: z.ZodMiniType) => {
  const items = z.array(item);
  return pick((v) => (Array.isArray(v) ? items : item));
};

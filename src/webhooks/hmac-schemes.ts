// What the HMAC providers of src/webhooks/providers/ share: the digest, a constant-time compare,
// header look-up, and the verdicts' wording (which check failed and why), so every scheme says
// "missing header", "other bytes signed" and "timestamp off by N s" the same way.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Failure, Scheme, SignInput, Verdict, VerifyInput } from "./scheme.js";

export const VERIFIED: Verdict = { verified: true };

export function fail(check: Failure, message: string): Verdict {
  return { verified: false, check, message };
}

/** HMAC of `parts` (concatenated as bytes) under `key`. */
export function hmac(
  algorithm: "sha1" | "sha256" | "sha512",
  key: string | Buffer,
  ...parts: (string | Buffer)[]
): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A header's value (names are matched in any case), or undefined. */
export function headerOf(input: VerifyInput, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(input.request.headers)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** The secret, or the verdict that says it is missing. */
export function secretOf(input: VerifyInput): string | Verdict {
  return input.secret === undefined || input.secret === ""
    ? fail("missing-secret", "no secret was given")
    : input.secret;
}

export const missingHeader = (name: string): Verdict => fail("missing-header", `the request has no ${name} header`);

/** The signature did not match: say which bytes were signed, so a re-serialised body is recognisable. */
export function mismatch(header: string, signed: string): Verdict {
  return fail(
    "signature",
    `${header} does not match ${signed} (the request's bytes differ from what was signed, e.g. a re-serialised body, or the secret is wrong)`,
  );
}

/**
 * The timestamp check: `sent` and `now` in seconds; `pastOnly` when the provider refuses only old
 * deliveries (Box, Mux, HubSpot). Undefined when it holds.
 */
export function staleness(
  sent: number,
  now: number,
  tolerance: number,
  { pastOnly = false } = {},
): Verdict | undefined {
  const age = now - sent;
  if (age > tolerance)
    return fail("timestamp", `the timestamp is ${formatSeconds(age)} old; at most ${tolerance} s is allowed`);
  if (!pastOnly && -age > tolerance)
    return fail(
      "timestamp",
      `the timestamp is ${formatSeconds(-age)} in the future; at most ${tolerance} s is allowed`,
    );
  return undefined;
}

function formatSeconds(seconds: number): string {
  return `${Math.round(seconds * 1000) / 1000} s`;
}

/** `key=value` pairs separated by `,` (Mux, Calendly, PagerDuty): every value of each key, in order. */
export function pairs(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of text.split(",")) {
    const at = item.indexOf("=");
    if (at < 0) continue;
    const key = item.slice(0, at).trim();
    out.set(key, [...(out.get(key) ?? []), item.slice(at + 1).trim()]);
  }
  return out;
}

/** A whole number of seconds (or milliseconds) as the header writes it, or undefined. */
export function wholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** How a body-signing provider writes its signature header. */
export interface BodyHmac {
  provider: string;
  name: string;
  /** The header as the provider writes it. */
  header: string;
  algorithm: "sha1" | "sha256" | "sha512";
  encoding: "hex" | "base64";
  /** Written before the digest (`sha256=`), and required on verify. */
  prefix?: string;
  /** Several `prefix+digest` values separated by this (PagerDuty's `,` during rotation). */
  separator?: string;
  /** Headers sent besides the signature (Worldline's key id): name → value from the input. */
  extraHeaders?: Record<string, (input: SignInput) => string>;
  sources: readonly string[];
}

/** A scheme whose signature is HMAC(secret, raw body) in one header: no timestamp, no URL. */
export function bodyHmacScheme(spec: BodyHmac): Scheme {
  const digest = (secret: string, body: Buffer) => hmac(spec.algorithm, secret, body).toString(spec.encoding);
  const extra = Object.keys(spec.extraHeaders ?? {});
  return {
    provider: spec.provider,
    name: spec.name,
    headers: [spec.header, ...extra],
    key: "secret",
    sources: spec.sources,
    sign(input) {
      if (input.secret === undefined) throw new Error(`${spec.name} signs with a secret`);
      const headers: Record<string, string> = {
        [spec.header]: `${spec.prefix ?? ""}${digest(input.secret, input.body)}`,
      };
      for (const [name, value] of Object.entries(spec.extraHeaders ?? {})) headers[name] = value(input);
      return headers;
    },
    verify(input) {
      const secret = secretOf(input);
      if (typeof secret !== "string") return secret;
      const value = headerOf(input, spec.header);
      if (value === undefined) return missingHeader(spec.header);
      for (const name of extra) if (headerOf(input, name) === undefined) return missingHeader(name);
      const given = spec.separator === undefined ? [value.trim()] : value.split(spec.separator).map((v) => v.trim());
      const prefix = spec.prefix ?? "";
      const digests = given.filter((v) => v.startsWith(prefix)).map((v) => v.slice(prefix.length));
      if (digests.length === 0)
        return fail("malformed-header", `${spec.header} has no signature of the form ${prefix}<${spec.encoding}>`);
      const expected = digest(secret, input.request.body);
      return digests.some((d) => sameText(d, expected)) ? VERIFIED : mismatch(spec.header, "an HMAC of the raw body");
    },
  };
}

/** How a `t=<unix>,v1=<hex>` provider (Mux, Calendly) writes its header. */
export interface TimestampedHmac {
  provider: string;
  name: string;
  header: string;
  tolerance: number;
  /** Only deliveries older than the tolerance are refused (Mux's library). */
  pastOnly?: boolean;
  /** The names of the two fields: `t` and `v1` unless given (Buildkite: `timestamp`, `signature`). */
  timeField?: string;
  signatureField?: string;
  sources: readonly string[];
}

/** `Header: t=<unix seconds>,v1=<hex>[,v1=…]`, the hex HMAC-SHA256 of `<t>.<raw body>`. */
export function timestampedHmacScheme(spec: TimestampedHmac): Scheme {
  const tKey = spec.timeField ?? "t";
  const sigKey = spec.signatureField ?? "v1";
  const digest = (secret: string, t: string, body: Buffer) => hmac("sha256", secret, `${t}.`, body).toString("hex");
  return {
    provider: spec.provider,
    name: spec.name,
    headers: [spec.header],
    key: "secret",
    toleranceSeconds: spec.tolerance,
    sources: spec.sources,
    sign(input) {
      if (input.secret === undefined) throw new Error(`${spec.name} signs with a secret`);
      const t = String(input.timestamp);
      return { [spec.header]: `${tKey}=${t},${sigKey}=${digest(input.secret, t, input.body)}` };
    },
    verify(input) {
      const secret = secretOf(input);
      if (typeof secret !== "string") return secret;
      const value = headerOf(input, spec.header);
      if (value === undefined) return missingHeader(spec.header);
      const fields = pairs(value);
      const t = fields.get(tKey)?.[0];
      const signatures = fields.get(sigKey) ?? [];
      const sent = wholeNumber(t);
      if (t === undefined || sent === undefined)
        return fail("malformed-header", `${spec.header} has no ${tKey}=<unix seconds>`);
      if (signatures.length === 0) return fail("malformed-header", `${spec.header} has no ${sigKey}=<hex> signature`);
      const expected = digest(secret, t, input.request.body);
      if (!signatures.some((s) => sameText(s, expected)))
        return mismatch(spec.header, `an HMAC of "<${tKey}>." + the raw body (${tKey}=${t})`);
      return staleness(sent, input.now, spec.tolerance, { pastOnly: spec.pastOnly }) ?? VERIFIED;
    },
  };
}

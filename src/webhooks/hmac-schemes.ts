// The two shapes most HMAC providers share, made from the checks of check.ts (so each says
// "missing header", "other bytes signed — or a re-serialised body" and "timestamp off by N s"
// as every other scheme does): an HMAC of the raw body in one header (GitHub-like), a
// `t=<unix>,v1=<hex>` header over `<t>.<raw body>` (Stripe-like: Mux, Calendly, Buildkite), and
// `v0=<hex>` over `v0:<timestamp header>:<raw body>` (Slack, Zoom, Frame.io).
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  needSecret,
  safeEqual,
  timestampCheck,
  unixSeconds,
  VERIFIED,
} from "./check.js";
import type { Scheme, SignInput } from "./scheme.js";
import { SignError } from "./scheme.js";

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
  /** What the secret is called where the provider shows it ("the webhook's secret"). */
  secretName?: string;
  sources: readonly string[];
}

const ALGORITHM = { sha1: "HMAC-SHA1", sha256: "HMAC-SHA256", sha512: "HMAC-SHA512" } as const;

/** A scheme whose signature is HMAC(secret, raw body) in one header: no timestamp, no URL. */
export function bodyHmacScheme(spec: BodyHmac): Scheme {
  const digest = (secret: string, body: Buffer) => hmac(spec.algorithm, secret, body).toString(spec.encoding);
  const extra = Object.keys(spec.extraHeaders ?? {});
  const secretName = spec.secretName ?? "the webhook's secret";
  return {
    provider: spec.provider,
    name: spec.name,
    headers: [spec.header, ...extra],
    key: "secret",
    sources: spec.sources,
    sign(input) {
      if (!input.secret) throw new SignError(`${spec.name} signs with ${secretName}: give one`);
      const headers: Record<string, string> = {
        [spec.header]: `${spec.prefix ?? ""}${digest(input.secret, input.body)}`,
      };
      for (const [name, value] of Object.entries(spec.extraHeaders ?? {})) headers[name] = value(input);
      return headers;
    },
    verify(input) {
      const value = header(input.request, spec.header);
      if (value === undefined) return missingHeader(spec.header);
      for (const name of extra) if (header(input.request, name) === undefined) return missingHeader(name);
      const given = spec.separator === undefined ? [value.trim()] : value.split(spec.separator).map((v) => v.trim());
      const prefix = spec.prefix ?? "";
      const digests = given.filter((v) => v.startsWith(prefix)).map((v) => v.slice(prefix.length));
      if (digests.length === 0)
        return fail("malformed-header", `${spec.header} has no signature of the form ${prefix}<${spec.encoding}>`);
      const missing = needSecret(input, `${spec.name} signs with ${secretName}`);
      if (missing) return missing;
      const secret = input.secret!;
      const matches = (body: Buffer) => {
        const expected = digest(secret, body);
        return digests.some((d) => safeEqual(d, expected));
      };
      if (matches(input.request.body)) return VERIFIED;
      return mismatch({
        name: spec.name,
        secretName,
        signed: `${ALGORITHM[spec.algorithm]} (${spec.encoding}) of the raw body`,
        body: input.request.body,
        secret,
        matches,
      });
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
  secretName?: string;
  sources: readonly string[];
}

/** `Header: t=<unix seconds>,v1=<hex>[,v1=…]`, the hex HMAC-SHA256 of `<t>.<raw body>`. */
export function timestampedHmacScheme(spec: TimestampedHmac): Scheme {
  const tKey = spec.timeField ?? "t";
  const sigKey = spec.signatureField ?? "v1";
  const secretName = spec.secretName ?? "the webhook's signing secret";
  const digest = (secret: string, t: string, body: Buffer) => hmac("sha256", secret, `${t}.`, body).toString("hex");
  return {
    provider: spec.provider,
    name: spec.name,
    headers: [spec.header],
    key: "secret",
    toleranceSeconds: spec.tolerance,
    sources: spec.sources,
    sign(input) {
      if (!input.secret) throw new SignError(`${spec.name} signs with ${secretName}: give one`);
      const t = String(input.timestamp);
      return { [spec.header]: `${tKey}=${t},${sigKey}=${digest(input.secret, t, input.body)}` };
    },
    verify(input) {
      const value = header(input.request, spec.header);
      if (value === undefined) return missingHeader(spec.header);
      const fields = pairs(value);
      const t = fields.get(tKey)?.[0];
      const signatures = fields.get(sigKey) ?? [];
      const sent = unixSeconds(t);
      if (t === undefined || sent === undefined)
        return fail("malformed-header", `${spec.header} has no ${tKey}=<unix seconds>`);
      if (signatures.length === 0) return fail("malformed-header", `${spec.header} has no ${sigKey}=<hex> signature`);
      const missing = needSecret(input, `${spec.name} signs with ${secretName}`);
      if (missing) return missing;
      const secret = input.secret!;
      const stale = timestampCheck(
        sent,
        input.now,
        spec.tolerance,
        !spec.pastOnly,
        `the ${spec.header} timestamp ${tKey}`,
      );
      const matches = (body: Buffer) => {
        const expected = digest(secret, t, body);
        return signatures.some((s) => safeEqual(s, expected));
      };
      if (matches(input.request.body)) return stale ?? VERIFIED;
      return mismatch({
        name: spec.name,
        secretName,
        signed: `any of the ${signatures.length} ${sigKey} signature(s), HMAC-SHA256 of "${tKey}.body"`,
        body: input.request.body,
        secret,
        matches,
        ...(stale ? { stale } : {}),
      });
    },
  };
}

/** How a `v0=<hex>` provider (Slack, Zoom, Frame.io) writes its two headers. */
export interface V0Hmac {
  provider: string;
  name: string;
  header: string;
  /** The header with the Unix seconds that are signed. */
  timestampHeader: string;
  tolerance: number;
  /** What the secret is called where the provider shows it ("the app's Signing Secret"). */
  secretName: string;
  sources: readonly string[];
}

/** `Header: v0=<hex HMAC-SHA256 of "v0:" + timestamp + ":" + raw body>`, the timestamp in its own header. */
export function v0HmacScheme(spec: V0Hmac): Scheme {
  const { header: SIG, timestampHeader: TS, tolerance } = spec;
  const v0 = (secret: string, ts: string | number, body: Buffer) =>
    `v0=${hmac("sha256", secret, `v0:${ts}:`, body).toString("hex")}`;
  return {
    provider: spec.provider,
    name: spec.name,
    headers: [SIG, TS],
    key: "secret",
    toleranceSeconds: tolerance,
    sources: spec.sources,
    sign(input) {
      if (!input.secret) throw new SignError(`${spec.name} signs with ${spec.secretName}: give one`);
      return { [SIG]: v0(input.secret, input.timestamp, input.body), [TS]: String(input.timestamp) };
    },
    verify(input) {
      const given = header(input.request, SIG);
      if (given === undefined) return missingHeader(SIG);
      const tsText = header(input.request, TS);
      if (tsText === undefined) return missingHeader(TS, `it is part of what ${spec.name} signs`);
      const ts = unixSeconds(tsText);
      if (ts === undefined) return fail("malformed-header", `${TS} is not unix seconds`);
      if (!/^v0=[0-9a-f]{64}$/.test(given.trim()))
        return fail("malformed-header", `${SIG} is not "v0=" followed by 64 hex digits`);
      const missing = needSecret(input, `${spec.name} signs with ${spec.secretName}`);
      if (missing) return missing;
      const secret = input.secret!;
      const stale = timestampCheck(ts, input.now, tolerance, true, TS);
      const matches = (body: Buffer) => safeEqual(v0(secret, tsText.trim(), body), given.trim());
      if (matches(input.request.body)) return stale ?? VERIFIED;
      return mismatch({
        name: spec.name,
        secretName: spec.secretName.replace(/^the (app's|webhook's) /, "this "),
        signed: `HMAC-SHA256 of "v0:" + ${TS} + ":" + the raw body`,
        body: input.request.body,
        secret,
        matches,
        ...(stale ? { stale } : {}),
      });
    },
  };
}

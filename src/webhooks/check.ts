// The checks every scheme makes, worded once: a header that is missing, a timestamp outside
// the tolerance (by how much), a signature over other bytes (with the re-serialised-body
// diagnosis), a secret of the wrong kind. Each provider module decides which apply, in its
// provider's order; the wording of each failure lives here so `webhook verify`, `policy test`
// and the emulator say the same thing.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Failure, Verdict, VerifyInput } from "./scheme.js";

export const VERIFIED: Verdict = { verified: true };

export type Refusal = Extract<Verdict, { verified: false }>;

export function fail(check: Failure, message: string): Refusal {
  return { verified: false, check, message };
}

/** A header's value (names are matched without case); undefined when absent or empty. */
export function header(request: { headers: Record<string, string> }, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() === lower && value !== "") return value;
  }
  return undefined;
}

export function missingHeader(name: string, why = ""): Verdict {
  return fail("missing-header", `the ${name} header is missing${why ? `: ${why}` : ""}`);
}

export function hmac(
  algorithm: "sha1" | "sha256" | "sha512",
  key: string | Buffer,
  ...parts: (string | Buffer)[]
): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Constant-time comparison of two strings (false when their lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Unix seconds (or, with `digits` 16, milliseconds) from a header's text; undefined when it is not a whole number. */
export function unixSeconds(text: string | undefined, digits = 12): number | undefined {
  const t = text?.trim() ?? "";
  return new RegExp(`^\\d{1,${digits}}$`).test(t) ? Number(t) : undefined;
}

/** Seconds as people read them: whole, or to the millisecond (a time given in ms). */
const secs = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The timestamp check: undefined when `timestamp` is within `tolerance` seconds of `now`.
 * `future: false` for providers whose libraries refuse only old timestamps (Stripe).
 */
export function timestampCheck(
  timestamp: number,
  now: number,
  tolerance: number,
  future = true,
  what = "the timestamp",
): Refusal | undefined {
  const age = secs(now - timestamp);
  if (age > tolerance) {
    return fail(
      "timestamp",
      `${what} (${timestamp}) is ${age} s old: ${secs(age - tolerance)} s older than the ${tolerance} s tolerance`,
    );
  }
  if (future && -age > tolerance) {
    return fail(
      "timestamp",
      `${what} (${timestamp}) is ${-age} s in the future: ${secs(-age - tolerance)} s beyond the ${tolerance} s tolerance`,
    );
  }
  return undefined;
}

/** Kinds of secret people paste by mistake, and what each is (never the secret itself). */
const KINDS: readonly { pattern: RegExp; kind: string }[] = [
  { pattern: /^-----BEGIN [A-Z ]*(KEY|CERTIFICATE)-----/, kind: "a PEM key or certificate" },
  { pattern: /^whsec_/, kind: "a Stripe or Svix signing secret (whsec_…)" },
  { pattern: /^(sk|rk|pk)_(live|test)_/, kind: "a Stripe API key" },
  { pattern: /^xox[abposr]-/, kind: "a Slack token (xox…-), not a Signing Secret" },
  { pattern: /^shpat_/, kind: "a Shopify access token (shpat_…)" },
  { pattern: /^AC[0-9a-f]{32}$/, kind: "a Twilio Account SID, not the Auth Token" },
  { pattern: /^SG\.[\w-]+\.[\w-]+$/, kind: "a SendGrid API key (SG.…)" },
  { pattern: /^EAAA[\w-]{20,}$/, kind: "a Square access token (EAAA…)" },
  { pattern: /^MFkwEwYHKoZIzj0CAQYI/, kind: "an ECDSA P-256 public key (base64 DER, as SendGrid's Verification Key)" },
  { pattern: /^glpat-/, kind: "a GitLab personal access token (glpat-…)" },
  { pattern: /^gh[pousr]_[A-Za-z0-9]{30,}$/, kind: "a GitHub token" },
];

/** What kind of secret `secret` looks like, when it looks like one `own` does not cover. */
export function foreignKind(secret: string, own?: RegExp): string | undefined {
  if (own?.test(secret)) return undefined;
  return KINDS.find((k) => k.pattern.test(secret))?.kind;
}

/** The missing-secret failure, or undefined when a secret was given. */
export function needSecret(input: VerifyInput, what: string): Verdict | undefined {
  if (input.secret !== undefined && input.secret !== "") return undefined;
  if (input.publicKey) return fail("secret-kind", `a public key was given, but ${what}; give that secret instead`);
  return fail("missing-secret", `no secret was given: ${what}`);
}

export interface Mismatch {
  /** The scheme's name, and what the secret is called there ("GitHub", "the webhook's Secret"). */
  name: string;
  secretName: string;
  /** What was signed, in words ("the raw body", "`v0:` + timestamp + `:` + body"). */
  signed: string;
  body: Buffer;
  secret?: string;
  /** Whether the signature matches when the body is `candidate`. */
  matches(candidate: Buffer): boolean;
  /** The secret's own pattern (whsec_ for Stripe and Svix): other patterns are foreign. */
  own?: RegExp;
  /** Extra words (the URL that was signed, for Twilio and Square). */
  also?: string;
  /** "key" for the key-pair schemes (SendGrid), else "secret". */
  keyWord?: "key" | "secret";
  /** A digest with no secret (Twilio's bodySHA256): "another secret" cannot be why. */
  keyless?: boolean;
  /** A timestamp failure to mention as well (a stale delivery with a bad signature). */
  stale?: Refusal;
}

/** JSON as Python's json.dumps writes it by default: ", " and ": " separators, ensure_ascii. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  }
  const text = JSON.stringify(value);
  return typeof value === "string"
    ? text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}

/**
 * The failure when no signature matches: a secret of another kind (check `secret-kind`), or a
 * body that was re-serialised after signing (it tries the JSON body compact and indented: when
 * one of those matches, it says so), else "other bytes were signed" with what to look at.
 */
export function mismatch(m: Mismatch): Refusal {
  const stale = m.stale ? `; also, ${m.stale.message}` : "";
  const kind = m.secret === undefined ? undefined : foreignKind(m.secret.trim(), m.own);
  if (kind) {
    return fail(
      "secret-kind",
      `no signature matches, and the secret given looks like ${kind}: ${m.name} signs with ${m.secretName}${stale}`,
    );
  }
  const text = m.body.toString("utf8");
  let parsed: unknown;
  let isJson = false;
  try {
    parsed = JSON.parse(text);
    isJson = text.trim() !== "";
  } catch {
    // not JSON: no re-serialisation to suspect
  }
  if (isJson) {
    for (const [label, candidate] of [
      ["compact JSON", JSON.stringify(parsed)],
      ["JSON indented by 2 spaces", JSON.stringify(parsed, null, 2)],
      ['Python-style JSON (json.dumps: ", " and ": ", non-ASCII escaped)', pythonJson(parsed)],
    ] as const) {
      if (candidate !== text && m.matches(Buffer.from(candidate))) {
        return fail(
          "signature",
          `the signature matches the body as ${label}, not the ${m.body.length} bytes received: the body was re-serialised after it was signed (verify the raw body)${stale}`,
        );
      }
    }
  }
  const hints: string[] = [];
  if (isJson && JSON.stringify(parsed) !== text) {
    hints.push("the body was re-serialised? It is JSON, and re-encoding it gives other bytes");
  }
  if (m.secret !== undefined && m.secret !== m.secret.trim()) {
    hints.push("the secret has leading or trailing whitespace (a pasted newline?)");
  }
  return fail(
    "signature",
    `${m.keyless ? `the body does not match ${m.signed}: other bytes were hashed` : `no signature matches ${m.signed} with ${m.secretName}: other bytes were signed, or another ${m.keyWord ?? "secret"} was used`}${
      hints.length ? ` (${hints.join("; ")})` : ""
    }${m.also ? `; ${m.also}` : ""}${stale}`,
  );
}

/**
 * The URLs a proxy may have turned the provider's URL into, each with how it differs: the
 * scheme (TLS ended before the app), the host (X-Forwarded-Host, X-Original-Host), the
 * default port, a trailing slash. Twilio and Square sign the URL, so verify tries these when
 * the URL as received does not match, and names the difference when one does.
 */
export function urlVariants(url: string, headers: Record<string, string>): { url: string; how: string }[] {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    return [];
  }
  const protos = new Set([base.protocol, base.protocol === "https:" ? "http:" : "https:"]);
  const forwardedProto = header({ headers }, "x-forwarded-proto")?.split(",")[0]?.trim();
  if (forwardedProto) protos.add(`${forwardedProto}:`);
  const hosts = new Set([base.hostname]);
  for (const name of ["x-forwarded-host", "x-original-host"]) {
    const h = header({ headers }, name)?.split(",")[0]?.trim();
    if (h) hosts.add(h.replace(/:\d+$/, ""));
  }
  const out = new Map<string, string>();
  for (const proto of protos) {
    for (const host of hosts) {
      for (const port of new Set([base.port, "", proto === "https:" ? "443" : "80"])) {
        for (const slash of [false, true]) {
          const path = slash
            ? base.pathname.endsWith("/")
              ? base.pathname.slice(0, -1) || "/"
              : `${base.pathname}/`
            : base.pathname;
          const text = `${proto}//${host}${port ? `:${port}` : ""}${path}${base.search}`;
          if (text === url || out.has(text)) continue;
          const how = [
            proto !== base.protocol ? `the scheme (${proto.slice(0, -1)}, not ${base.protocol.slice(0, -1)})` : "",
            host !== base.hostname ? `the host (${host}, not ${base.hostname})` : "",
            port !== base.port ? (port ? `the port (:${port} written out)` : `the port (none, not :${base.port})`) : "",
            slash ? "a trailing slash" : "",
          ].filter(Boolean);
          if (how.length) out.set(text, how.join(", "));
        }
      }
    }
  }
  return [...out].map(([u, how]) => ({ url: u, how }));
}

/** The `url` failure when the signature matches `signed` rather than the URL as received. */
export function urlDiffers(received: string, signed: { url: string; how: string }): Verdict {
  return fail(
    "url",
    `the signature is over ${signed.url}, not ${received} (they differ in ${signed.how}): a proxy changed the URL; verify against the URL the provider was given`,
  );
}

const KEYS = new Map<string, unknown>();

/** A key parsed once per text (the emulator and a cases file verify many deliveries with one key). */
export function parsedKey<T>(kind: string, text: string, parse: (text: string) => T): T {
  const id = `${kind}\0${text}`;
  if (KEYS.has(id)) return KEYS.get(id) as T;
  const key = parse(text);
  if (KEYS.size >= 32) KEYS.clear();
  KEYS.set(id, key);
  return key;
}

// For every scheme that signs: verify accepts what sign makes, and refuses any change of the
// body, of the timestamp beyond the tolerance, and of the URL (Twilio, Square) — each with the
// check that names it. Keys come from test/fixtures/webhooks/keys.json (made once by openssl).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect, it } from "vitest";
import { SCHEMES, signDelivery } from "../../src/webhooks/index.js";
import type { Delivery, Scheme, SignInput, Verdict } from "../../src/webhooks/index.js";
import { standardScheme } from "../../src/webhooks/standard.js";

const KEYS = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/webhooks/keys.json"), "utf8")) as Record<
  string,
  string
>;
const RUNS = { numRuns: 10 };

const standard = standardScheme({
  provider: "standard-webhooks",
  name: "Standard Webhooks",
  prefix: "webhook",
  secretName: "the secret",
  sources: [],
});
// Mailgun's signature is inside the body and covers no byte of it: in-body.test.ts.
const ALL: readonly Scheme[] = [...SCHEMES.filter((s) => s.provider !== "mailgun"), standard];
/** Providers whose libraries refuse only old timestamps: stripe-node ("timestampAge > tolerance"),
 *  box-node-sdk (messageAge > max), mux-node-sdk, hubspot-api-nodejs (MAX_ALLOWED_TIMESTAMP). */
const PAST_ONLY = new Set(["stripe", "box", "mux", "hubspot"]);

/** What each scheme signs with, and the key its verify takes. */
function keysOf(
  scheme: Scheme,
  seed: string,
): { sign: Partial<SignInput>; verify: { secret?: string; publicKey?: string } } {
  if (scheme.provider === "sendgrid")
    return { sign: { privateKey: KEYS.ecPrivateKey! }, verify: { publicKey: KEYS.ecPublicKey! } };
  if (scheme.provider === "sns")
    return { sign: { privateKey: KEYS.rsaPrivateKey! }, verify: { publicKey: KEYS.rsaCertificate! } };
  const secret = ["stripe", "svix", "clerk", "standard-webhooks"].includes(scheme.provider)
    ? `whsec_${Buffer.from(seed).toString("base64")}`
    : `s3cret-${seed}`;
  return { sign: { secret }, verify: { secret } };
}

const seed = fc.stringMatching(/^[A-Za-z0-9]{8,24}$/);
const segment = fc.stringMatching(/^[a-z0-9-]{1,10}$/);
const url = fc
  .tuple(
    fc.constantFrom("https://example.com", "https://abc.ngrok.app", "http://localhost:8080"),
    fc.array(segment, { maxLength: 3 }),
    fc.option(segment),
  )
  .map(([origin, path, q]) => `${origin}/${path.join("/")}${q ? `?q=${q}` : ""}`);
const form = fc
  .dictionary(fc.stringMatching(/^[A-Za-z]{1,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 4 })
  .map((d) => new URLSearchParams(d).toString());
const jsonBody = fc.json({ maxDepth: 2 });
const timestamp = fc.integer({ min: 1_500_000_000, max: 2_000_000_000 });

interface Made {
  input: SignInput;
  delivery: Delivery;
  verifyKeys: { secret?: string; publicKey?: string };
}

/** A body for `scheme` (SNS signs a JSON message), and a delivery of it. */
const made = (scheme: Scheme) =>
  fc
    .record({
      seed,
      url,
      ts: timestamp,
      json: jsonBody,
      form,
      useJson: fc.boolean(),
      id: fc.stringMatching(/^msg_[a-z0-9]{6}$/),
    })
    .map(({ seed: s, url: u, ts, json, form: f, useJson, id }): Made => {
      const keys = keysOf(scheme, s);
      const body =
        scheme.provider === "sns"
          ? JSON.stringify({
              Message: json,
              TopicArn: "arn:aws:sns:us-east-1:123456789012:topic",
              ...(useJson ? { SignatureVersion: "2" } : {}),
            })
          : useJson
            ? json
            : f;
      const input: SignInput = {
        body: Buffer.from(body),
        url: u,
        timestamp: ts,
        id,
        contentType: useJson || scheme.provider === "sns" ? "application/json" : "application/x-www-form-urlencoded",
        ...keys.sign,
      };
      return { input, delivery: signDelivery(scheme, input), verifyKeys: keys.verify };
    });

const verifyAt = (scheme: Scheme, m: Made, now: number, change: Partial<Delivery> = {}) =>
  scheme.verify({ request: { ...m.delivery, ...change }, ...m.verifyKeys, now });

/** The body changed in what the scheme signs: one more byte; SNS's Message field. */
function changedBody(scheme: Scheme, body: Buffer): Buffer {
  if (scheme.provider !== "sns") return Buffer.concat([body, Buffer.from("x")]);
  const message = JSON.parse(body.toString()) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...message, Message: `${String(message.Message)}!` }));
}

/** A URL a proxy makes of `u`: the other scheme, a trailing slash, or the host it forwards for. */
const proxied = fc.constantFrom("scheme", "slash", "host").map((way) => (d: Delivery): Partial<Delivery> => {
  const u = new URL(d.url);
  const how = way === "slash" && u.pathname === "/" ? "scheme" : way; // the root has no slash to add
  if (how === "scheme") u.protocol = u.protocol === "https:" ? "http:" : "https:";
  if (how === "slash") u.pathname = `${u.pathname}/`;
  if (how === "host") {
    const original = u.hostname;
    u.hostname = "127.0.0.1";
    return { url: u.toString(), headers: { ...d.headers, "x-forwarded-host": original } };
  }
  return { url: u.toString() };
});

const refused = (verdict: Verdict, check: string, label: string) => {
  expect(verdict, label).toMatchObject({ verified: false, check });
  return verdict.verified ? "" : verdict.message;
};

// One property per scheme, each run checking every change against one signed delivery (a
// delivery costs a signature: RSA for SNS), so the file stays well under a second.
for (const scheme of ALL) {
  const tolerance = scheme.toleranceSeconds;
  it(`${scheme.name}: verify accepts what sign makes and refuses each change with its check`, () => {
    fc.assert(
      fc.property(
        made(scheme),
        seed,
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: tolerance ?? 0 }),
        proxied,
        url,
        (m, other, beyond, within, proxy, elsewhere) => {
          const ts = m.input.timestamp;
          expect(verifyAt(scheme, m, ts), "as signed").toEqual({ verified: true });

          // another secret or key
          const keys =
            scheme.key === "secret"
              ? keysOf(scheme, `${other}z`).verify
              : { publicKey: scheme.provider === "sns" ? KEYS.ecPublicKey! : KEYS.rsaCertificate! };
          refused(
            scheme.verify({ request: m.delivery, ...keys, now: ts }),
            scheme.key === "secret" ? "signature" : "secret-kind",
            "another key",
          );

          // the body: GitLab signs nothing (its header is the token itself)
          if (scheme.provider === "gitlab")
            expect(verifyAt(scheme, m, ts, { body: Buffer.from("other") }), "gitlab body").toEqual({ verified: true });
          else
            refused(
              verifyAt(scheme, m, ts, { body: changedBody(scheme, m.delivery.body) }),
              "signature",
              "a changed body",
            );

          // the timestamp: within the tolerance accepted, beyond it refused by how much
          if (tolerance !== undefined) {
            expect(verifyAt(scheme, m, ts + within), "within the tolerance").toEqual({ verified: true });
            const message = refused(verifyAt(scheme, m, ts + tolerance + beyond), "timestamp", "too old");
            expect(message).toContain(`${beyond} s older than the ${tolerance} s tolerance`);
            if (!PAST_ONLY.has(scheme.provider))
              refused(verifyAt(scheme, m, ts - tolerance - beyond), "timestamp", "too new");
          }

          // the URL: Twilio and Square sign it
          if (scheme.signsUrl) {
            const message = refused(verifyAt(scheme, m, ts, proxy(m.delivery)), "url", "a proxy's URL");
            expect(message).toContain(`the signature is over ${m.delivery.url}`);
            const moved = m.delivery.url.replace(/^(https?:\/\/[^/]+\/)/, `$1${other}-z/`);
            expect(verifyAt(scheme, m, ts, { url: moved }).verified, "another path").toBe(false);
          } else {
            expect(verifyAt(scheme, m, ts, { url: elsewhere }), "the URL is not signed").toEqual({ verified: true });
          }
        },
      ),
      RUNS,
    );
  });
}

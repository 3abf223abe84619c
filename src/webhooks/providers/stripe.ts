// Stripe: Stripe-Signature = "t=<unix>,v1=<hex>[,v1=<hex>…]"; v1 = hex HMAC-SHA256(signing
// secret, t + "." + raw body); during a secret's rotation several v1 are sent, any may match;
// v0 (test-mode legacy) is ignored. Tolerance 300 s, and only old timestamps are refused.
// https://docs.stripe.com/webhooks#verify-manually ; official library stripe/stripe-node
// src/Webhooks.ts (DEFAULT_TOLERANCE: 300, EXPECTED_SCHEME 'v1', makeHMACContent `${t}.${payload}`,
// "timestampAge > tolerance"; parseHeader splits on "," and "=").
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  needSecret,
  safeEqual,
  timestampCheck,
  VERIFIED,
} from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "Stripe-Signature";
const TOLERANCE = 300;
const v1 = (secret: string, t: number | string, body: Buffer) => hmac("sha256", secret, `${t}.`, body).toString("hex");

export const scheme: Scheme = {
  provider: "stripe",
  name: "Stripe",
  headers: [SIG],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: ["https://docs.stripe.com/webhooks#verify-manually", "stripe/stripe-node src/Webhooks.ts"],
  sign(input) {
    if (!input.secret) throw new SignError("Stripe signs with the endpoint's signing secret (whsec_…): give one");
    return { [SIG]: `t=${input.timestamp},v1=${v1(input.secret, input.timestamp, input.body)}` };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined) return missingHeader(SIG);
    let t: string | undefined;
    const signatures: string[] = [];
    for (const item of given.split(",")) {
      const [k, v] = item.trim().split("=");
      if (k === "t" && v !== undefined) t = v;
      if (k === "v1" && v) signatures.push(v);
    }
    if (t === undefined || !/^\d+$/.test(t))
      return fail("malformed-header", `${SIG} has no timestamp t=<unix seconds>`);
    if (!signatures.length) return fail("malformed-header", `${SIG} has no v1 signature (only v1 is verified)`);
    const missing = needSecret(input, "Stripe signs with the endpoint's signing secret (whsec_…)");
    if (missing) return missing;
    const secret = input.secret!;
    const stale = timestampCheck(Number(t), input.now, TOLERANCE, false, `the ${SIG} timestamp t`);
    const matches = (body: Buffer) => {
      const expected = v1(secret, t!, body);
      return signatures.some((s) => safeEqual(s, expected));
    };
    if (matches(input.request.body)) return stale ?? VERIFIED;
    if (!secret.trim().startsWith("whsec_")) {
      return fail(
        "secret-kind",
        `no v1 signature matches, and the secret given does not start with whsec_: Stripe signs with the endpoint's signing secret (whsec_…), not an API key${stale ? `; also, ${stale.message}` : ""}`,
      );
    }
    return mismatch({
      name: "Stripe",
      secretName: "this signing secret",
      signed: `any of the ${signatures.length} v1 signature(s), HMAC-SHA256 of "t.body"`,
      body: input.request.body,
      secret,
      own: /^whsec_/,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

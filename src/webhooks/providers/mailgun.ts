// Mailgun: the signature travels in the body, not a header: `signature: {timestamp, token,
// signature}` beside `event-data` (JSON webhooks), or the `timestamp`, `token`, `signature` fields
// of a form post (routes, legacy webhooks). `signature` is the hex HMAC-SHA256 of timestamp + token
// (no separator) under the Webhook Signing Key; the body itself is not signed. Mailgun asks only
// that the timestamp be "not too far from the current time" without a number: ngrok's 180 s.
// edgectl verifies a Mailgun delivery but cannot sign one: the signature would change the body.
// Source: documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks.
import { fail, hmac, needSecret, safeEqual, timestampCheck, unixSeconds, VERIFIED } from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const TOLERANCE = 180;

interface Signed {
  timestamp: string;
  token: string;
  signature: string;
}

/** The three fields, from a JSON body's `signature` object or a form body; undefined when absent. */
function signedFields(body: Buffer): Partial<Signed> | undefined {
  const text = body.toString("utf8");
  try {
    const parsed: unknown = JSON.parse(text);
    const signature =
      typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).signature : undefined;
    if (typeof signature !== "object" || signature === null) return undefined;
    const s = signature as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);
    return { timestamp: str(s.timestamp), token: str(s.token), signature: str(s.signature) };
  } catch {
    const form = new URLSearchParams(text);
    if (!form.has("signature")) return undefined;
    return {
      timestamp: form.get("timestamp") ?? undefined,
      token: form.get("token") ?? undefined,
      signature: form.get("signature") ?? undefined,
    };
  }
}

export const scheme: Scheme = {
  provider: "mailgun",
  name: "Mailgun",
  headers: [],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: ["https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks"],
  sign() {
    throw new SignError(
      "Mailgun puts its signature inside the body (signature.timestamp, .token, .signature): edgectl can verify a Mailgun delivery but not sign one",
    );
  },
  verify(input) {
    const fields = signedFields(input.request.body);
    if (fields === undefined)
      return fail("missing-header", "the body has no Mailgun signature (signature.timestamp, .token, .signature)");
    for (const name of ["timestamp", "token", "signature"] as const)
      if (fields[name] === undefined) return fail("malformed-header", `the body's signature has no ${name}`);
    const { timestamp, token, signature } = fields as Signed;
    const sent = unixSeconds(timestamp);
    if (sent === undefined) return fail("malformed-header", "the body's signature.timestamp is not Unix seconds");
    const missing = needSecret(input, "Mailgun signs with the domain's Webhook Signing Key");
    if (missing) return missing;
    // Only timestamp + token are signed, not the body: no re-serialisation to diagnose.
    if (!safeEqual(signature, hmac("sha256", input.secret!, timestamp, token).toString("hex")))
      return fail(
        "signature",
        "the body's signature.signature does not match HMAC-SHA256 of signature.timestamp + signature.token with this Webhook Signing Key: another key was used (Mailgun signs the timestamp and token, not the body)",
      );
    return timestampCheck(sent, input.now, TOLERANCE, true, "the body's signature.timestamp") ?? VERIFIED;
  },
};

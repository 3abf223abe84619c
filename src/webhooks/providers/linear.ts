// Linear: `Linear-Signature: <hex>`, HMAC-SHA256 of the raw body under the webhook's signing secret.
// The time is the body's `webhookTimestamp` (Unix milliseconds) or else the `Linear-Timestamp`
// header; a delivery more than 60 s from now is refused, one with neither is checked by signature
// alone. Source: linear/linear packages/sdk/src/webhooks/client.ts @8335e09 (verify:
// createHmac("sha256", secret).update(rawBody).digest("hex"); `timeDiff > 1000 * 60`;
// parseVerifiedPayload: `parsedBody.webhookTimestamp ?? timestampHeader`);
// linear.app/developers/webhooks#securing-webhooks.
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
} from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIGNATURE = "Linear-Signature";
const TIMESTAMP = "Linear-Timestamp";
const TOLERANCE = 60;

/** The body's webhookTimestamp, when the body is a JSON object that has one. */
function bodyTimestamp(body: Buffer): unknown {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>).webhookTimestamp
      : undefined;
  } catch {
    return undefined;
  }
}

export const scheme: Scheme = {
  provider: "linear",
  name: "Linear",
  headers: [SIGNATURE, TIMESTAMP],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: [
    "https://linear.app/developers/webhooks#securing-webhooks",
    "linear/linear packages/sdk/src/webhooks/client.ts",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("Linear signs with the webhook's signing secret: give one");
    return {
      [SIGNATURE]: hmac("sha256", input.secret, input.body).toString("hex"),
      [TIMESTAMP]: String(input.timestamp * 1000),
    };
  },
  verify(input) {
    const signature = header(input.request, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    const missing = needSecret(input, "Linear signs with the webhook's signing secret");
    if (missing) return missing;
    const secret = input.secret!;
    const matches = (body: Buffer) => safeEqual(signature.trim(), hmac("sha256", secret, body).toString("hex"));
    if (!matches(input.request.body))
      return mismatch({
        name: "Linear",
        secretName: "this signing secret",
        signed: "HMAC-SHA256 (hex) of the raw body",
        body: input.request.body,
        secret,
        matches,
      });
    const inBody = bodyTimestamp(input.request.body);
    const inHeader = header(input.request, TIMESTAMP);
    if (inBody === undefined && inHeader === undefined) return VERIFIED;
    const ms = typeof inBody === "number" ? inBody : inBody === undefined ? unixSeconds(inHeader, 16) : undefined;
    if (ms === undefined)
      return fail(
        "malformed-header",
        inBody === undefined ? `${TIMESTAMP} is not a number of milliseconds` : "webhookTimestamp is not a number",
      );
    const what = inBody === undefined ? `the ${TIMESTAMP} (ms) / 1000` : "the body's webhookTimestamp (ms) / 1000";
    return timestampCheck(ms / 1000, input.now, TOLERANCE, true, what) ?? VERIFIED;
  },
};

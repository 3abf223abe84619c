// Linear: `Linear-Signature: <hex>`, HMAC-SHA256 of the raw body under the webhook's signing secret.
// The time is the body's `webhookTimestamp` (Unix milliseconds) or else the `Linear-Timestamp`
// header; a delivery more than 60 s from now is refused, one with neither is checked by signature
// alone. Source: linear/linear packages/sdk/src/webhooks/client.ts @8335e09 (verify:
// createHmac("sha256", secret).update(rawBody).digest("hex"); `timeDiff > 1000 * 60`;
// parseVerifiedPayload: `parsedBody.webhookTimestamp ?? timestampHeader`);
// linear.app/developers/webhooks#securing-webhooks.
import type { Scheme } from "../scheme.js";
import {
  fail,
  headerOf,
  hmac,
  mismatch,
  missingHeader,
  sameText,
  secretOf,
  staleness,
  VERIFIED,
  wholeNumber,
} from "../hmac-schemes.js";

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
    if (input.secret === undefined) throw new Error("Linear signs with a secret");
    return {
      [SIGNATURE]: hmac("sha256", input.secret, input.body).toString("hex"),
      [TIMESTAMP]: String(input.timestamp * 1000),
    };
  },
  verify(input) {
    const secret = secretOf(input);
    if (typeof secret !== "string") return secret;
    const signature = headerOf(input, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    if (!sameText(signature.trim(), hmac("sha256", secret, input.request.body).toString("hex")))
      return mismatch(SIGNATURE, "an HMAC of the raw body");
    const inBody = bodyTimestamp(input.request.body);
    const header = headerOf(input, TIMESTAMP);
    if (inBody === undefined && header === undefined) return VERIFIED;
    const ms = typeof inBody === "number" ? inBody : inBody === undefined ? wholeNumber(header) : undefined;
    if (ms === undefined)
      return fail(
        "malformed-header",
        inBody === undefined ? `${TIMESTAMP} is not a number of milliseconds` : "webhookTimestamp is not a number",
      );
    return staleness(ms / 1000, input.now, TOLERANCE) ?? VERIFIED;
  },
};

// Frame.io: `X-Frameio-Signature: v0=<hex>`, HMAC-SHA256 of `v0:<X-Frameio-Request-Timestamp>:<raw
// body>` under the webhook's signing secret; a delivery more than 5 minutes from now is refused.
// Source: next.developer.frame.io/platform/docs/guides/webhooks ("Verifying webhook signatures": the
// two headers, the `v0:timestamp:body` message, the 5-minute window), as the receivers read
// implement it.
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

const SIGNATURE = "X-Frameio-Signature";
const TIMESTAMP = "X-Frameio-Request-Timestamp";
const TOLERANCE = 300;

const digest = (secret: string, t: string, body: Buffer) => hmac("sha256", secret, `v0:${t}:`, body).toString("hex");

export const scheme: Scheme = {
  provider: "frameio",
  name: "Frame.io",
  headers: [SIGNATURE, TIMESTAMP],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: ["https://next.developer.frame.io/platform/docs/guides/webhooks#verifying-webhook-signatures"],
  sign(input) {
    if (input.secret === undefined) throw new Error("Frame.io signs with a secret");
    const t = String(input.timestamp);
    return { [SIGNATURE]: `v0=${digest(input.secret, t, input.body)}`, [TIMESTAMP]: t };
  },
  verify(input) {
    const secret = secretOf(input);
    if (typeof secret !== "string") return secret;
    const signature = headerOf(input, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    const t = headerOf(input, TIMESTAMP)?.trim();
    if (t === undefined) return missingHeader(TIMESTAMP);
    const sent = wholeNumber(t);
    if (sent === undefined) return fail("malformed-header", `${TIMESTAMP} is not Unix seconds`);
    if (!signature.trim().startsWith("v0=")) return fail("malformed-header", `${SIGNATURE} is not v0=<hex>`);
    if (!sameText(signature.trim().slice(3), digest(secret, t, input.request.body)))
      return mismatch(SIGNATURE, `an HMAC of "v0:${t}:" + the raw body`);
    return staleness(sent, input.now, TOLERANCE) ?? VERIFIED;
  },
};

// Frame.io: `X-Frameio-Signature: v0=<hex>`, HMAC-SHA256 of `v0:<X-Frameio-Request-Timestamp>:<raw
// body>` under the webhook's signing secret; a delivery more than 5 minutes from now is refused.
// Source: next.developer.frame.io/platform/docs/guides/webhooks ("Verifying webhook signatures": the
// two headers, the `v0:timestamp:body` message, the 5-minute window), as the receivers read
// implement it.
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
    if (!input.secret) throw new SignError("Frame.io signs with the webhook's signing secret: give one");
    const t = String(input.timestamp);
    return { [SIGNATURE]: `v0=${digest(input.secret, t, input.body)}`, [TIMESTAMP]: t };
  },
  verify(input) {
    const signature = header(input.request, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    const t = header(input.request, TIMESTAMP)?.trim();
    if (t === undefined) return missingHeader(TIMESTAMP);
    const sent = unixSeconds(t);
    if (sent === undefined) return fail("malformed-header", `${TIMESTAMP} is not Unix seconds`);
    if (!signature.trim().startsWith("v0=")) return fail("malformed-header", `${SIGNATURE} is not v0=<hex>`);
    const missing = needSecret(input, "Frame.io signs with the webhook's signing secret");
    if (missing) return missing;
    const secret = input.secret!;
    const stale = timestampCheck(sent, input.now, TOLERANCE, true, `the ${TIMESTAMP}`);
    const matches = (body: Buffer) => safeEqual(signature.trim().slice(3), digest(secret, t, body));
    if (matches(input.request.body)) return stale ?? VERIFIED;
    return mismatch({
      name: "Frame.io",
      secretName: "this signing secret",
      signed: `HMAC-SHA256 of "v0:${t}:" + the raw body`,
      body: input.request.body,
      secret,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

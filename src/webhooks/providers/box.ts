// Box: `BOX-SIGNATURE-PRIMARY` / `BOX-SIGNATURE-SECONDARY` (one per signature key, for rotation):
// base64 HMAC-SHA256 of the raw body followed by the `BOX-DELIVERY-TIMESTAMP` header's text
// (RFC 3339), with `BOX-SIGNATURE-VERSION: 1` and `BOX-SIGNATURE-ALGORITHM: HmacSHA256`; a delivery
// older than 10 minutes is refused. Sources: box/developer.box.com @eee1aa6
// content/guides/webhooks/v2/signatures-v2.md ("Timestamp validation", "Calculate the HMAC
// signature"); box/box-node-sdk src/managers/webhooks.ts @7dcf9c2 (computeSignature,
// validateSignature, `MAX_MESSAGE_AGE = 10 * 60`, validateDeliveryTimestamp: messageAge > max).
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

const TIMESTAMP = "BOX-DELIVERY-TIMESTAMP";
const PRIMARY = "BOX-SIGNATURE-PRIMARY";
const SECONDARY = "BOX-SIGNATURE-SECONDARY";
const VERSION = "BOX-SIGNATURE-VERSION";
const ALGORITHM = "BOX-SIGNATURE-ALGORITHM";
const TOLERANCE = 600;

const digest = (key: string, body: Buffer, timestamp: string) =>
  hmac("sha256", key, body, timestamp).toString("base64");

export const scheme: Scheme = {
  provider: "box",
  name: "Box",
  headers: [TIMESTAMP, PRIMARY, SECONDARY, VERSION, ALGORITHM],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: ["https://developer.box.com/guides/webhooks/v2/signatures-v2/", "box/box-node-sdk src/managers/webhooks.ts"],
  sign(input) {
    if (!input.secret) throw new SignError("Box signs with the app's primary (or secondary) signature key: give one");
    // Box writes the time with an offset, to the second: 2020-01-01T00:00:00-07:00; UTC here.
    const timestamp = new Date(input.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
    return {
      [TIMESTAMP]: timestamp,
      [PRIMARY]: digest(input.secret, input.body, timestamp),
      [VERSION]: "1",
      [ALGORITHM]: "HmacSHA256",
    };
  },
  verify(input) {
    const timestamp = header(input.request, TIMESTAMP);
    if (timestamp === undefined) return missingHeader(TIMESTAMP);
    const version = header(input.request, VERSION);
    if (version === undefined) return missingHeader(VERSION);
    if (version !== "1")
      return fail("malformed-header", `${VERSION} is ${JSON.stringify(version)}; Box signs version 1`);
    const algorithm = header(input.request, ALGORITHM);
    if (algorithm === undefined) return missingHeader(ALGORITHM);
    if (algorithm !== "HmacSHA256")
      return fail("malformed-header", `${ALGORITHM} is ${JSON.stringify(algorithm)}; Box signs with HmacSHA256`);
    const primary = header(input.request, PRIMARY);
    const secondary = header(input.request, SECONDARY);
    if (primary === undefined && secondary === undefined) return missingHeader(`${PRIMARY} or ${SECONDARY}`);
    const sent = Date.parse(timestamp);
    if (Number.isNaN(sent)) return fail("malformed-header", `${TIMESTAMP} is not an RFC 3339 time`);
    const missing = needSecret(input, "Box signs with the app's primary and secondary signature keys");
    if (missing) return missing;
    const secret = input.secret!;
    const stale = timestampCheck(sent / 1000, input.now, TOLERANCE, false, `the ${TIMESTAMP}`);
    const matches = (body: Buffer) => {
      const expected = digest(secret, body, timestamp);
      return [primary, secondary].some((s) => s !== undefined && safeEqual(s.trim(), expected));
    };
    if (matches(input.request.body)) return stale ?? VERIFIED;
    return mismatch({
      name: "Box",
      secretName: "this signature key",
      signed: `${PRIMARY}/${SECONDARY}, HMAC-SHA256 (base64) of the raw body + ${TIMESTAMP}`,
      body: input.request.body,
      secret,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

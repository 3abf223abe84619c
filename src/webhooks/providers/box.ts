// Box: `BOX-SIGNATURE-PRIMARY` / `BOX-SIGNATURE-SECONDARY` (one per signature key, for rotation):
// base64 HMAC-SHA256 of the raw body followed by the `BOX-DELIVERY-TIMESTAMP` header's text
// (RFC 3339), with `BOX-SIGNATURE-VERSION: 1` and `BOX-SIGNATURE-ALGORITHM: HmacSHA256`; a delivery
// older than 10 minutes is refused. Sources: box/developer.box.com @eee1aa6
// content/guides/webhooks/v2/signatures-v2.md ("Timestamp validation", "Calculate the HMAC
// signature"); box/box-node-sdk src/managers/webhooks.ts @7dcf9c2 (computeSignature,
// validateSignature, `MAX_MESSAGE_AGE = 10 * 60`, validateDeliveryTimestamp: messageAge > max).
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
} from "../hmac-schemes.js";

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
    if (input.secret === undefined) throw new Error("Box signs with a secret");
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
    const secret = secretOf(input);
    if (typeof secret !== "string") return secret;
    const timestamp = headerOf(input, TIMESTAMP);
    if (timestamp === undefined) return missingHeader(TIMESTAMP);
    const version = headerOf(input, VERSION);
    if (version === undefined) return missingHeader(VERSION);
    if (version !== "1")
      return fail("malformed-header", `${VERSION} is ${JSON.stringify(version)}; Box signs version 1`);
    const algorithm = headerOf(input, ALGORITHM);
    if (algorithm === undefined) return missingHeader(ALGORITHM);
    if (algorithm !== "HmacSHA256")
      return fail("malformed-header", `${ALGORITHM} is ${JSON.stringify(algorithm)}; Box signs with HmacSHA256`);
    const primary = headerOf(input, PRIMARY);
    const secondary = headerOf(input, SECONDARY);
    if (primary === undefined && secondary === undefined) return missingHeader(`${PRIMARY} or ${SECONDARY}`);
    const expected = digest(secret, input.request.body, timestamp);
    if (![primary, secondary].some((s) => s !== undefined && sameText(s.trim(), expected)))
      return mismatch(`${PRIMARY}/${SECONDARY}`, `an HMAC of the raw body + ${TIMESTAMP}`);
    const sent = Date.parse(timestamp);
    if (Number.isNaN(sent)) return fail("malformed-header", `${TIMESTAMP} is not an RFC 3339 time`);
    return staleness(sent / 1000, input.now, TOLERANCE, { pastOnly: true }) ?? VERIFIED;
  },
};

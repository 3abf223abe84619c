// Zoom: x-zm-signature = "v0=" + hex HMAC-SHA256(Secret Token, "v0:" + ts + ":" + raw body),
// ts from x-zm-request-timestamp. Zoom documents no tolerance: ngrok's 180 s rule applies.
// The `endpoint.url_validation` event is answered with {plainToken, encryptedToken = hex
// HMAC-SHA256(Secret Token, plainToken)} (ngrok answers it for verify-webhook).
// https://developers.zoom.us/docs/api/webhooks/ ("Verify webhook events", "Validate your
// webhook endpoint"); Zoom's official sample zoom/webhook-sample index.js (its comments point
// to marketplace.zoom.us/docs/api-reference/webhook-reference#notification-structure).
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

const SIG = "x-zm-signature";
const TS = "x-zm-request-timestamp";
const TOLERANCE = 180;
const v0 = (secret: string, ts: string | number, body: Buffer) =>
  `v0=${hmac("sha256", secret, `v0:${ts}:`, body).toString("hex")}`;

/**
 * The answer to Zoom's `endpoint.url_validation` event (zoom/webhook-sample index.js), or
 * undefined when `body` is not that event.
 */
export function urlValidationAnswer(
  secret: string,
  body: Buffer | string,
): { plainToken: string; encryptedToken: string } | undefined {
  let event: unknown;
  try {
    event = JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  if (typeof event !== "object" || event === null || (event as { event?: unknown }).event !== "endpoint.url_validation")
    return undefined;
  const plainToken = (event as { payload?: { plainToken?: unknown } }).payload?.plainToken;
  if (typeof plainToken !== "string") return undefined;
  return { plainToken, encryptedToken: hmac("sha256", secret, plainToken).toString("hex") };
}

export const scheme: Scheme = {
  provider: "zoom",
  name: "Zoom",
  headers: [SIG, TS],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: ["https://developers.zoom.us/docs/api/webhooks/", "zoom/webhook-sample index.js"],
  sign(input) {
    if (!input.secret) throw new SignError("Zoom signs with the app's Secret Token: give one");
    return { [SIG]: v0(input.secret, input.timestamp, input.body), [TS]: String(input.timestamp) };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined) return missingHeader(SIG);
    const tsText = header(input.request, TS);
    if (tsText === undefined) return missingHeader(TS, "it is part of what Zoom signs");
    const ts = unixSeconds(tsText);
    if (ts === undefined) return fail("malformed-header", `${TS} is not unix seconds`);
    if (!/^v0=[0-9a-f]{64}$/.test(given.trim()))
      return fail("malformed-header", `${SIG} is not "v0=" followed by 64 hex digits`);
    const missing = needSecret(input, "Zoom signs with the app's Secret Token");
    if (missing) return missing;
    const secret = input.secret!;
    const stale = timestampCheck(ts, input.now, TOLERANCE, true, TS);
    const matches = (body: Buffer) => safeEqual(v0(secret, tsText.trim(), body), given.trim());
    if (matches(input.request.body)) return stale ?? VERIFIED;
    return mismatch({
      name: "Zoom",
      secretName: "this Secret Token",
      signed: `HMAC-SHA256 of "v0:" + ${TS} + ":" + the raw body`,
      body: input.request.body,
      secret,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

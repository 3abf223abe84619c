// Slack: X-Slack-Signature = "v0=" + hex HMAC-SHA256(signing secret, "v0:" + ts + ":" + raw
// body), ts from X-Slack-Request-Timestamp; Slack's SDKs refuse |now - ts| > 5 minutes.
// https://docs.slack.dev/authentication/verifying-requests-from-slack/ ; official library
// slackapi/python-slack-sdk slack_sdk/signature/__init__.py (abs(now - ts) > 60 * 5).
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

const SIG = "X-Slack-Signature";
const TS = "X-Slack-Request-Timestamp";
const TOLERANCE = 300;
const v0 = (secret: string, ts: string | number, body: Buffer) =>
  `v0=${hmac("sha256", secret, `v0:${ts}:`, body).toString("hex")}`;

export const scheme: Scheme = {
  provider: "slack",
  name: "Slack",
  headers: [SIG, TS],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: [
    "https://docs.slack.dev/authentication/verifying-requests-from-slack/",
    "slackapi/python-slack-sdk slack_sdk/signature/__init__.py",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("Slack signs with the app's Signing Secret: give one");
    return { [SIG]: v0(input.secret, input.timestamp, input.body), [TS]: String(input.timestamp) };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined) return missingHeader(SIG);
    const tsText = header(input.request, TS);
    if (tsText === undefined) return missingHeader(TS, "it is part of what Slack signs");
    const ts = unixSeconds(tsText);
    if (ts === undefined) return fail("malformed-header", `${TS} is not unix seconds`);
    if (!/^v0=[0-9a-f]{64}$/.test(given.trim()))
      return fail("malformed-header", `${SIG} is not "v0=" followed by 64 hex digits`);
    const missing = needSecret(input, "Slack signs with the app's Signing Secret");
    if (missing) return missing;
    const secret = input.secret!;
    const stale = timestampCheck(ts, input.now, TOLERANCE, true, TS);
    const matches = (body: Buffer) => safeEqual(v0(secret, tsText.trim(), body), given.trim());
    if (matches(input.request.body)) return stale ?? VERIFIED;
    return mismatch({
      name: "Slack",
      secretName: "this Signing Secret",
      signed: `HMAC-SHA256 of "v0:" + ${TS} + ":" + the raw body`,
      body: input.request.body,
      secret,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

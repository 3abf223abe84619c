// Slack: X-Slack-Signature = "v0=" + hex HMAC-SHA256(signing secret, "v0:" + ts + ":" + raw
// body), ts from X-Slack-Request-Timestamp; Slack's SDKs refuse |now - ts| > 5 minutes.
// https://docs.slack.dev/authentication/verifying-requests-from-slack/ ; official library
// slackapi/python-slack-sdk slack_sdk/signature/__init__.py (abs(now - ts) > 60 * 5).
import { v0HmacScheme } from "../hmac-schemes.js";

export const scheme = v0HmacScheme({
  provider: "slack",
  name: "Slack",
  header: "X-Slack-Signature",
  timestampHeader: "X-Slack-Request-Timestamp",
  tolerance: 300,
  secretName: "the app's Signing Secret",
  sources: [
    "https://docs.slack.dev/authentication/verifying-requests-from-slack/",
    "slackapi/python-slack-sdk slack_sdk/signature/__init__.py",
  ],
});

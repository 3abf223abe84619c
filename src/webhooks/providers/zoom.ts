// Zoom: x-zm-signature = "v0=" + hex HMAC-SHA256(Secret Token, "v0:" + ts + ":" + raw body),
// ts from x-zm-request-timestamp. Zoom documents no tolerance: ngrok's 180 s rule applies.
// The `endpoint.url_validation` event is answered with {plainToken, encryptedToken = hex
// HMAC-SHA256(Secret Token, plainToken)} (ngrok answers it for verify-webhook).
// https://developers.zoom.us/docs/api/webhooks/ ("Verify webhook events", "Validate your
// webhook endpoint"); Zoom's official sample zoom/webhook-sample index.js (its comments point
// to marketplace.zoom.us/docs/api-reference/webhook-reference#notification-structure).
import { hmac } from "../check.js";
import { v0HmacScheme } from "../hmac-schemes.js";

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

export const scheme = v0HmacScheme({
  provider: "zoom",
  name: "Zoom",
  header: "x-zm-signature",
  timestampHeader: "x-zm-request-timestamp",
  tolerance: 180,
  secretName: "the app's Secret Token",
  sources: ["https://developers.zoom.us/docs/api/webhooks/", "zoom/webhook-sample index.js"],
});

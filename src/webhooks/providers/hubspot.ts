// HubSpot, signature v3: `X-HubSpot-Signature-v3: <base64>`, HMAC-SHA256 under the app's client
// secret of method + URL + raw body + `X-HubSpot-Request-Timestamp` (Unix milliseconds); a request
// older than 5 minutes is refused. Sources: HubSpot/hubspot-api-nodejs src/utils/signature.ts
// @395cd9b (getSignature 'v3': `method + options.url + options.requestBody + options.timestamp`,
// createHmac('sha256', clientSecret) … digest('base64'); MAX_ALLOWED_TIMESTAMP = 300000);
// developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures (the two headers).
import type { Scheme } from "../scheme.js";
import {
  fail,
  headerOf,
  hmac,
  missingHeader,
  sameText,
  secretOf,
  staleness,
  VERIFIED,
  wholeNumber,
} from "../hmac-schemes.js";

const SIGNATURE = "X-HubSpot-Signature-v3";
const TIMESTAMP = "X-HubSpot-Request-Timestamp";
const TOLERANCE = 300;

const digest = (secret: string, method: string, url: string, body: Buffer, ms: string) =>
  hmac("sha256", secret, method, url, body, ms).toString("base64");

export const scheme: Scheme = {
  provider: "hubspot",
  name: "HubSpot",
  headers: [SIGNATURE, TIMESTAMP],
  key: "secret",
  toleranceSeconds: TOLERANCE,
  sources: [
    "https://developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures",
    "HubSpot/hubspot-api-nodejs src/utils/signature.ts",
  ],
  sign(input) {
    if (input.secret === undefined) throw new Error("HubSpot signs with a secret");
    const ms = String(input.timestamp * 1000);
    return { [SIGNATURE]: digest(input.secret, "POST", input.url, input.body, ms), [TIMESTAMP]: ms };
  },
  verify(input) {
    const secret = secretOf(input);
    if (typeof secret !== "string") return secret;
    const signature = headerOf(input, SIGNATURE);
    if (signature === undefined) return missingHeader(SIGNATURE);
    const ms = headerOf(input, TIMESTAMP);
    if (ms === undefined) return missingHeader(TIMESTAMP);
    const sent = wholeNumber(ms);
    if (sent === undefined) return fail("malformed-header", `${TIMESTAMP} is not a number of milliseconds`);
    const { method, url, body } = input.request;
    if (!sameText(signature.trim(), digest(secret, method.toUpperCase(), url, body, ms.trim())))
      return fail(
        "signature",
        `${SIGNATURE} does not match an HMAC of ${method.toUpperCase()} + ${url} + the raw body + ${TIMESTAMP} (other bytes, another URL than the one HubSpot called — pass --url — or the wrong secret)`,
      );
    return staleness(sent / 1000, input.now, TOLERANCE, { pastOnly: true }) ?? VERIFIED;
  },
};

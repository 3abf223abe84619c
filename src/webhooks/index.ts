// The table of signing schemes, one per ngrok provider id (src/api-data/providers.ts) that
// edgectl can sign and verify. Each provider's module cites its source. `webhook providers`
// lists this table; `policy test` (verify-webhook) and the emulator's traffic port call
// `schemeFor`; `webhook sign --send` and test cases build deliveries with `signDelivery`.
import type { Delivery, Scheme, SignInput } from "./scheme.js";
import { scheme as clerk } from "./providers/clerk.js";
import { scheme as github } from "./providers/github.js";
import { scheme as gitlab } from "./providers/gitlab.js";
import { scheme as sendgrid } from "./providers/sendgrid.js";
import { scheme as shopify } from "./providers/shopify.js";
import { scheme as slack } from "./providers/slack.js";
import { scheme as sns } from "./providers/sns.js";
import { scheme as square } from "./providers/square.js";
import { scheme as stripe } from "./providers/stripe.js";
import { scheme as svix } from "./providers/svix.js";
import { scheme as twilio } from "./providers/twilio.js";
import { scheme as zoom } from "./providers/zoom.js";

export type { Delivery, Failure, KeyKind, Scheme, SignInput, Verdict, VerifyInput } from "./scheme.js";
export { SignError } from "./scheme.js";
export { standardScheme } from "./standard.js";
export { urlValidationAnswer as zoomUrlValidationAnswer } from "./providers/zoom.js";

/** In ngrok's order of provider ids. */
export const SCHEMES: readonly Scheme[] = [
  clerk,
  github,
  gitlab,
  sendgrid,
  shopify,
  slack,
  sns,
  square,
  stripe,
  svix,
  twilio,
  zoom,
];

const BY_PROVIDER = new Map(SCHEMES.map((s) => [s.provider, s]));

/** The scheme of an ngrok provider id (case-insensitive); undefined when edgectl has none. */
export function schemeFor(provider: string): Scheme | undefined {
  return BY_PROVIDER.get(provider.toLowerCase());
}

/**
 * The delivery the provider would make of `input.body` to `input.url`: the scheme's own when
 * it changes the URL or body (Twilio JSON, SNS), else a POST with the content type and the
 * scheme's headers.
 */
export function signDelivery(scheme: Scheme, input: SignInput): Delivery {
  if (scheme.deliver) return scheme.deliver(input);
  return {
    method: "POST",
    url: input.url,
    headers: { "content-type": input.contentType, ...scheme.sign(input) },
    body: input.body,
  };
}

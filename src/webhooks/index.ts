// The table of signing schemes, one per ngrok provider id (src/api-data/providers.ts) that
// edgectl can sign and verify. Each provider's module cites its source. `webhook providers`
// lists this table; `policy test` (verify-webhook) and the emulator's traffic port call
// `schemeFor`; `webhook sign --send` and test cases build deliveries with `signDelivery`.
import type { Delivery, Scheme, SignInput } from "./scheme.js";
import { scheme as bitbucket } from "./providers/bitbucket.js";
import { scheme as box } from "./providers/box.js";
import { scheme as buildkite } from "./providers/buildkite.js";
import { scheme as calendly } from "./providers/calendly.js";
import { scheme as circleci } from "./providers/circleci.js";
import { scheme as clerk } from "./providers/clerk.js";
import { scheme as dropbox } from "./providers/dropbox.js";
import { scheme as facebookGraphApi } from "./providers/facebook_graph_api.js";
import { scheme as facebookMessenger } from "./providers/facebook_messenger.js";
import { scheme as frameio } from "./providers/frameio.js";
import { scheme as github } from "./providers/github.js";
import { scheme as gitlab } from "./providers/gitlab.js";
import { scheme as heroku } from "./providers/heroku.js";
import { scheme as hubspot } from "./providers/hubspot.js";
import { scheme as instagram } from "./providers/instagram.js";
import { scheme as intercom } from "./providers/intercom.js";
import { scheme as launchDarkly } from "./providers/launch_darkly.js";
import { scheme as linear } from "./providers/linear.js";
import { scheme as mailgun } from "./providers/mailgun.js";
import { scheme as mux } from "./providers/mux.js";
import { scheme as pagerduty } from "./providers/pagerduty.js";
import { scheme as pusher } from "./providers/pusher.js";
import { scheme as sendgrid } from "./providers/sendgrid.js";
import { scheme as sentry } from "./providers/sentry.js";
import { scheme as shopify } from "./providers/shopify.js";
import { scheme as slack } from "./providers/slack.js";
import { scheme as sns } from "./providers/sns.js";
import { scheme as square } from "./providers/square.js";
import { scheme as stripe } from "./providers/stripe.js";
import { scheme as svix } from "./providers/svix.js";
import { scheme as terraform } from "./providers/terraform.js";
import { scheme as twilio } from "./providers/twilio.js";
import { scheme as twitter } from "./providers/twitter.js";
import { scheme as typeform } from "./providers/typeform.js";
import { scheme as webex } from "./providers/webex.js";
import { scheme as whatsapp } from "./providers/whatsapp.js";
import { scheme as worldline } from "./providers/worldline.js";
import { scheme as xero } from "./providers/xero.js";
import { scheme as zoom } from "./providers/zoom.js";

export type { Delivery, Failure, KeyKind, Scheme, SignInput, Verdict, VerifyInput } from "./scheme.js";
export { SignError } from "./scheme.js";
export { standardScheme } from "./standard.js";
export { urlValidationAnswer as zoomUrlValidationAnswer } from "./providers/zoom.js";

/** Sorted by ngrok's provider id. */
export const SCHEMES: readonly Scheme[] = [
  bitbucket,
  box,
  buildkite,
  calendly,
  circleci,
  clerk,
  dropbox,
  facebookGraphApi,
  facebookMessenger,
  frameio,
  github,
  gitlab,
  heroku,
  hubspot,
  instagram,
  intercom,
  launchDarkly,
  linear,
  mailgun,
  mux,
  pagerduty,
  pusher,
  sendgrid,
  sentry,
  shopify,
  slack,
  sns,
  square,
  stripe,
  svix,
  terraform,
  twilio,
  twitter,
  typeform,
  webex,
  whatsapp,
  worldline,
  xero,
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
    headers: { "Content-Type": input.contentType, ...scheme.sign(input) },
    body: input.body,
  };
}

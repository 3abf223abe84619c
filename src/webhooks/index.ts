// The schemes edgectl signs and verifies, by ngrok's provider id (contract, "Webhook signatures").
import type { Scheme } from "./scheme.js";
import { scheme as bitbucket } from "./providers/bitbucket.js";
import { scheme as box } from "./providers/box.js";
import { scheme as buildkite } from "./providers/buildkite.js";
import { scheme as calendly } from "./providers/calendly.js";
import { scheme as circleci } from "./providers/circleci.js";
import { scheme as dropbox } from "./providers/dropbox.js";
import { scheme as facebookGraphApi } from "./providers/facebook_graph_api.js";
import { scheme as facebookMessenger } from "./providers/facebook_messenger.js";
import { scheme as frameio } from "./providers/frameio.js";
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
import { scheme as sentry } from "./providers/sentry.js";
import { scheme as terraform } from "./providers/terraform.js";
import { scheme as twitter } from "./providers/twitter.js";
import { scheme as typeform } from "./providers/typeform.js";
import { scheme as webex } from "./providers/webex.js";
import { scheme as whatsapp } from "./providers/whatsapp.js";
import { scheme as worldline } from "./providers/worldline.js";
import { scheme as xero } from "./providers/xero.js";

export const SCHEMES: readonly Scheme[] = [
  bitbucket,
  box,
  buildkite,
  calendly,
  circleci,
  dropbox,
  facebookGraphApi,
  facebookMessenger,
  frameio,
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
  sentry,
  terraform,
  twitter,
  typeform,
  webex,
  whatsapp,
  worldline,
  xero,
];

const BY_PROVIDER = new Map(SCHEMES.map((s) => [s.provider, s]));

export function schemeFor(provider: string): Scheme | undefined {
  return BY_PROVIDER.get(provider.toLowerCase());
}

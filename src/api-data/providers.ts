// Webhook verification providers the API supports. `sns` (AWS SNS) verifies by
// certificate, so it takes no secret.
import { editDistance, nearest } from "./did-you-mean.js";

export const PROVIDERS = [
  "aftership",
  "airship",
  "alchemy",
  "autodesk",
  "bitbucket",
  "bolt",
  "box",
  "brex",
  "buildkite",
  "calendly",
  "castle",
  "chargify",
  "circleci",
  "clearbit",
  "clerk",
  "coinbase",
  "contentful",
  "docusign",
  "dropbox",
  "facebook_graph_api",
  "facebook_messenger",
  "frameio",
  "github",
  "gitlab",
  "go1",
  "graphcms",
  "heroku",
  "hostedhooks",
  "hubspot",
  "instagram",
  "intercom",
  "jira",
  "launch_darkly",
  "linear",
  "mailchimp",
  "mailgun",
  "microsoft_teams",
  "modern_treasury",
  "mongodb",
  "mux",
  "orb",
  "orbit",
  "pagerduty",
  "pinwheel",
  "plivo",
  "pusher",
  "sendgrid",
  "sentry",
  "shopify",
  "signal_sciences",
  "slack",
  "sns",
  "sonatype",
  "square",
  "stripe",
  "svix",
  "terraform",
  "tiktok",
  "trendmicro_conformity",
  "twilio",
  "twitter",
  "typeform",
  "vmware",
  "webex",
  "whatsapp",
  "worldline",
  "xero",
  "zendesk",
  "zoom",
] as const;

export type Provider = (typeof PROVIDERS)[number];

/** The identity providers of the OAuth module and the `oauth` action (in the API's order). */
export const OAUTH_PROVIDERS = [
  "amazon",
  "facebook",
  "github",
  "gitlab",
  "google",
  "linkedin",
  "microsoft",
  "twitch",
] as const;

const SET = new Set<string>(PROVIDERS);

export function isProvider(value: string): value is Provider {
  return SET.has(value);
}

export function providerNeedsSecret(provider: Provider): boolean {
  return provider !== "sns";
}

/** Names joined with ", " in lines of at most `width` characters (a name is never split). */
export function wrapList(names: readonly string[], width = 76): string[] {
  const lines: string[] = [];
  let line = "";
  for (const [i, name] of names.entries()) {
    const word = i < names.length - 1 ? `${name},` : name;
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The closest provider name, if it is close enough to be a likely typo (see nearest). */
export function suggestProvider(input: string, distance = editDistance): Provider | undefined {
  return nearest(input.toLowerCase(), PROVIDERS, distance);
}

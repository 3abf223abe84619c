// Webhook verification providers the API supports. `sns` (AWS SNS) verifies by
// certificate, so it takes no secret.

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

const SET = new Set<string>(PROVIDERS);

export function isProvider(value: string): value is Provider {
  return SET.has(value);
}

export function providerNeedsSecret(provider: Provider): boolean {
  return provider !== "sns";
}

/**
 * The closest provider name, if it is close enough to be a likely typo (within a third of the
 * input's length). Only names whose length is within that many edits are compared: the
 * distance is at least the difference in lengths, so any input longer than about half again
 * the longest name is compared with none, and no input, however long, costs more than a few
 * small tables. `distance` is for tests, which count the comparisons.
 */
export function suggestProvider(input: string, distance = editDistance): Provider | undefined {
  const needle = input.toLowerCase();
  const allowed = Math.max(1, Math.floor(needle.length / 3));
  let best: Provider | undefined;
  let bestDistance = Infinity;
  for (const p of PROVIDERS) {
    if (Math.abs(needle.length - p.length) > allowed) continue;
    const d = distance(needle, p);
    if (d < bestDistance) {
      best = p;
      bestDistance = d;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}

/** Edit distance counting a swap of two neighbours as one edit ("slakc" → "slack"). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

// What verify says when it refuses: which check failed and why, in the words a user acts on
// (issue 28 item 4's list: a missing header, other bytes signed, a re-serialised body, a
// timestamp off by how much, a URL that differs, the wrong kind of secret).
import { describe, expect, it } from "vitest";
import { schemeFor, signDelivery } from "../../src/webhooks/index.js";
import type { Delivery, SignInput, VerifyInput } from "../../src/webhooks/index.js";

const T = 1_700_000_000;
const pretty = Buffer.from(JSON.stringify({ id: "evt_1", object: "event", data: { amount: 5 } }, null, 2));
const input = (secret: string, over: Partial<SignInput> = {}): SignInput => ({
  body: pretty,
  url: "https://abc.ngrok.app/hooks",
  timestamp: T,
  contentType: "application/json",
  secret,
  ...over,
});
const made = (provider: string, secret: string, over: Partial<SignInput> = {}) =>
  signDelivery(schemeFor(provider)!, input(secret, over));
const verify = (provider: string, request: Delivery, v: Partial<VerifyInput>) =>
  schemeFor(provider)!.verify({ request, now: T, ...v });

const rows: [string, string, Delivery, Partial<VerifyInput>, string, RegExp][] = [
  [
    "a header missing",
    "github",
    { ...made("github", "s"), headers: {} },
    { secret: "s" },
    "missing-header",
    /^the X-Hub-Signature-256 header is missing/,
  ],
  [
    "the body re-serialised compact",
    "github",
    { ...made("github", "s"), body: Buffer.from(JSON.stringify(JSON.parse(pretty.toString()))) },
    { secret: "s" },
    "signature",
    /matches the body as JSON indented by 2 spaces, not the \d+ bytes received: the body was re-serialised/,
  ],
  [
    "other bytes, JSON that re-encodes differently: the hint",
    "slack",
    { ...made("slack", "s", { body: Buffer.from('{"a": 1}') }), body: Buffer.from('{"a": 2}') },
    { secret: "s" },
    "signature",
    /other bytes were signed, or another secret was used \(the body was re-serialised\? /,
  ],
  // The shapes of hmac-schemes.ts word their failures as the rest (check.ts).
  [
    "the body re-serialised (an HMAC of the body: Bitbucket)",
    "bitbucket",
    { ...made("bitbucket", "s"), body: Buffer.from(JSON.stringify(JSON.parse(pretty.toString()))) },
    { secret: "s" },
    "signature",
    /matches the body as JSON indented by 2 spaces, not the \d+ bytes received: the body was re-serialised/,
  ],
  [
    "a stale t= (Mux), by how much",
    "mux",
    made("mux", "s"),
    { secret: "s", now: T + 400 },
    "timestamp",
    /^the Mux-Signature timestamp t \(1700000000\) is 400 s old: 100 s older than the 300 s tolerance$/,
  ],
  [
    "HubSpot signs the URL: a proxy's http:// named",
    "hubspot",
    { ...made("hubspot", "s"), url: "http://abc.ngrok.app/hooks" },
    { secret: "s" },
    "url",
    /^the signature is over https:\/\/abc\.ngrok\.app\/hooks, not http:\/\/abc\.ngrok\.app\/hooks \(they differ in the scheme/,
  ],
  [
    "a public key where Frame.io's secret belongs",
    "frameio",
    made("frameio", "s"),
    { publicKey: "-----BEGIN PUBLIC KEY-----" },
    "secret-kind",
    /^a public key was given, but Frame\.io signs with the webhook's signing secret/,
  ],
  [
    "a stale timestamp, by how much",
    "stripe",
    made("stripe", "whsec_x"),
    { secret: "whsec_x", now: T + 712 },
    "timestamp",
    /is 712 s old: 412 s older than the 300 s tolerance/,
  ],
  [
    "a timestamp from the future",
    "svix",
    made("svix", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
    { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", now: T - 400 },
    "timestamp",
    /400 s in the future: 100 s beyond the 300 s tolerance/,
  ],
  [
    "the URL a proxy changed (TLS ended before the app)",
    "square",
    { ...made("square", "k"), url: "http://abc.ngrok.app/hooks" },
    { secret: "k" },
    "url",
    /over https:\/\/abc\.ngrok\.app\/hooks, not http:\/\/abc\.ngrok\.app\/hooks \(they differ in the scheme/,
  ],
  [
    "a whsec_ secret given to GitHub",
    "github",
    made("github", "right"),
    { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
    "secret-kind",
    /looks like a Stripe or Svix signing secret \(whsec_…\): GitHub signs with the webhook's Secret/,
  ],
  [
    "a Square access token for the Signature key",
    "square",
    made("square", "k"),
    { secret: "EAAAl0ngAccessTokenValue1234567890" },
    "secret-kind",
    /a Square access token/,
  ],
  [
    "a public key given where a secret is needed",
    "slack",
    made("slack", "s"),
    { publicKey: "-----BEGIN PUBLIC KEY-----" },
    "secret-kind",
    /a public key was given, but Slack signs with the app's Signing Secret/,
  ],
  [
    "no secret at all",
    "zoom",
    made("zoom", "s"),
    {},
    "missing-secret",
    /no secret was given: Zoom signs with the app's Secret Token/,
  ],
  [
    "a secret given to SendGrid that is no public key",
    "sendgrid",
    {
      method: "POST",
      url: "u",
      headers: {
        "x-twilio-email-event-webhook-signature": "MEU=",
        "x-twilio-email-event-webhook-timestamp": String(T),
      },
      body: pretty,
    },
    { secret: "abc" },
    "secret-kind",
    /not an ECDSA P-256 public key/,
  ],
  [
    "the whitespace of a pasted secret",
    "shopify",
    made("shopify", "s"),
    { secret: "s\n" },
    "signature",
    /leading or trailing whitespace/,
  ],
];

describe("verify's refusals", () => {
  it.each(rows)("%s (%s)", (_what, provider, request, v, check, message) => {
    const verdict = verify(provider, request, v);
    expect(verdict).toMatchObject({ verified: false, check });
    expect(verdict.verified ? "" : verdict.message).toMatch(message);
  });

  it("never print the secret", () => {
    for (const [, provider, request, v] of rows) {
      const verdict = verify(provider, request, v);
      if (!verdict.verified && v.secret && v.secret.trim().length > 3)
        expect(verdict.message).not.toContain(v.secret.trim());
    }
  });
});

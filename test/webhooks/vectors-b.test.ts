// The schemes of src/webhooks/providers/ (webhooks-b's share) against the providers' own vectors:
// each fixture in test/fixtures/webhooks/<provider>.json names the repo, path and commit of the
// official library test it was read from. Then, for every scheme, a property: verify accepts what
// sign makes, and refuses a change of body, of timestamp (past the tolerance) or of URL.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCHEMES, schemeFor } from "../../src/webhooks/index.js";
import type { Delivery, Scheme } from "../../src/webhooks/scheme.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/webhooks");

interface Vector {
  name: string;
  secret: string;
  headers: Record<string, string>;
  body: string;
  now: number;
  url?: string;
  verified: boolean;
  check?: string;
}

interface Fixture {
  provider: string;
  source: { repo: string; path: string; commit: string };
  vectors: Vector[];
}

const fixture = <T = Fixture>(name: string): T =>
  JSON.parse(readFileSync(resolve(FIXTURES, `${name}.json`), "utf8")) as T;

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const delivery = (body: string, headers: Record<string, string>, url = "https://example.com/hook"): Delivery => ({
  method: "POST",
  url,
  headers: lower(headers),
  body: Buffer.from(body),
});

describe.each(["mux", "box", "worldline", "pagerduty", "pusher"])("%s: the official library's vectors", (name) => {
  const f = fixture(name);
  it(`come from ${f.source.repo} ${f.source.path} @${f.source.commit.slice(0, 7)}`, () => {
    expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(schemeFor(f.provider)?.provider).toBe(name);
  });
  it.each(f.vectors.map((v) => [v.name, v] as const))("%s", (_, v) => {
    const verdict = schemeFor(f.provider)!.verify({
      request: delivery(v.body, v.headers, v.url),
      secret: v.secret,
      now: v.now,
    });
    expect(verdict.verified).toBe(v.verified);
    if (!verdict.verified) expect(verdict.check).toBe(v.check);
  });
});

describe("hubspot v3: the library's 'Validates v3' inputs (HubSpot/hubspot-api-nodejs test/unit/signature.spec.ts)", () => {
  const f = fixture<{ vectors: [{ secret: string; url: string; body: string; timestamp: number }] }>("hubspot");
  const v = f.vectors[0];
  const ms = String(v.timestamp * 1000);
  // As src/utils/signature.ts computes it: method + url + requestBody + timestamp, base64.
  const signature = createHmac("sha256", v.secret).update(`POST${v.url}${v.body}${ms}`).digest("base64");
  const headers = { "X-HubSpot-Signature-v3": signature, "X-HubSpot-Request-Timestamp": ms };
  const scheme = schemeFor("hubspot")!;

  it("signs as the library does, and verifies it", () => {
    expect(
      scheme.sign({
        body: Buffer.from(v.body),
        secret: v.secret,
        url: v.url,
        timestamp: v.timestamp,
        contentType: "application/json",
      }),
    ).toEqual(headers);
    expect(scheme.verify({ request: delivery(v.body, headers, v.url), secret: v.secret, now: v.timestamp })).toEqual({
      verified: true,
    });
  });

  it("refuses another URL, and a timestamp older than MAX_ALLOWED_TIMESTAMP (300000 ms)", () => {
    const other = scheme.verify({
      request: delivery(v.body, headers, "https://proxy.example/webhook_uri"),
      secret: v.secret,
      now: v.timestamp,
    });
    expect(other).toMatchObject({ verified: false, check: "signature" });
    expect(!other.verified && other.message).toContain("https://proxy.example/webhook_uri");
    expect(
      scheme.verify({ request: delivery(v.body, headers, v.url), secret: v.secret, now: v.timestamp + 301 }),
    ).toMatchObject({
      verified: false,
      check: "timestamp",
    });
  });
});

describe("linear: the SDK's tests (linear/linear packages/sdk/src/_tests/LinearWebhooks.test.ts)", () => {
  const f = fixture<{
    vectors: [{ secret: string; wrongSecret: string; body: { webhookTimestamp: number }; staleBy: number }];
  }>("linear");
  const v = f.vectors[0];
  const raw = JSON.stringify(v.body);
  const sign = (secret: string) => createHmac("sha256", secret).update(raw).digest("hex");
  const verify = (signature: string, now: number, body = raw) =>
    schemeFor("linear")!.verify({ request: delivery(body, { "Linear-Signature": signature }), secret: v.secret, now });
  const now = v.body.webhookTimestamp / 1000;

  it("correct signature, correct timestamp (webhookTimestamp of the body)", () => {
    expect(verify(sign(v.secret), now)).toEqual({ verified: true });
  });
  it("incorrect signature (WRONG_SECRET)", () => {
    expect(verify(sign(v.wrongSecret), now)).toMatchObject({ verified: false, check: "signature" });
  });
  it("correct signature, invalid timestamp (1,000,000 ms off; tolerance 60 s)", () => {
    const verdict = verify(sign(v.secret), now + v.staleBy / 1000);
    expect(verdict).toMatchObject({ verified: false, check: "timestamp" });
    expect(!verdict.verified && verdict.message).toContain("1000 s old");
  });
  it("correct signature, no timestamp: passes on the signature alone", () => {
    const bare = JSON.stringify({ ...v.body, webhookTimestamp: undefined });
    const signature = createHmac("sha256", v.secret).update(bare).digest("hex");
    expect(verify(signature, 0, bare)).toEqual({ verified: true });
  });
});

/** Fields a scheme signs besides the body: the URL (HubSpot) and the time (those with a tolerance). */
const signsUrl = new Set(["hubspot"]);

describe("mailgun: the docs' signature object (documentation.mailgun.com …/webhooks/securing-webhooks)", () => {
  // The page's example token and timestamp, signed as its NodeJS snippet signs:
  // createHmac('sha256', signingKey).update(timestamp.concat(token)).digest('hex').
  const token = "e0b5477167110d68991efc6b9f89f0a11066af27834600e123";
  const timestamp = "1770920772";
  const key = "key-example";
  const signature = createHmac("sha256", key).update(timestamp.concat(token)).digest("hex");
  const scheme = schemeFor("mailgun")!;
  const json = (sig = signature) =>
    JSON.stringify({ signature: { token, timestamp, signature: sig }, "event-data": { event: "delivered" } });
  const verify = (body: string, now = Number(timestamp), secret = key) =>
    scheme.verify({ request: delivery(body, { "Content-Type": "application/json" }), secret, now });

  it.each([
    ["a JSON webhook", json(), Number(timestamp), key, { verified: true }],
    [
      "a form post (routes)",
      new URLSearchParams({ timestamp, token, signature, recipient: "a@b" }).toString(),
      Number(timestamp),
      key,
      { verified: true },
    ],
    ["another signing key", json(), Number(timestamp), "key-other", { verified: false, check: "signature" }],
    ["181 s later: past ngrok's 180 s", json(), Number(timestamp) + 181, key, { verified: false, check: "timestamp" }],
    [
      "no signature in the body",
      '{"event-data":{}}',
      Number(timestamp),
      key,
      { verified: false, check: "missing-header" },
    ],
  ])("%s", (_, body, now, secret, verdict) => {
    expect(verify(body, now, secret)).toMatchObject(verdict);
  });

  it("signs nothing of the body (only timestamp + token), and cannot sign a delivery", () => {
    expect(verify(json().replace("delivered", "opened"))).toEqual({ verified: true });
    expect(() =>
      scheme.sign({
        body: Buffer.from("{}"),
        secret: key,
        url: "http://x/",
        timestamp: 1,
        contentType: "application/json",
      }),
    ).toThrow(/edgectl can verify a Mailgun delivery but not sign one/);
  });
});

/** Every scheme that signs a delivery's headers (Mailgun's signature is inside the body: above). */
const SIGNING = SCHEMES.filter((s) => s.provider !== "mailgun");

describe.each(SIGNING.map((s) => [s.provider, s] as const))(
  "%s: verify accepts what sign makes",
  (_, scheme: Scheme) => {
    const url = "https://app.example.com/webhooks?x=1";
    const arbitraries = fc.record({
      body: fc.string({ minLength: 1, maxLength: 64 }),
      secret: fc.string({ minLength: 1, maxLength: 24 }),
      timestamp: fc.integer({ min: 1_500_000_000, max: 2_000_000_000 }),
    });
    const signed = (body: string, secret: string, timestamp: number) =>
      delivery(
        body,
        scheme.sign({ body: Buffer.from(body), secret, url, timestamp, contentType: "application/json" }),
        url,
      );

    it("and refuses another body", () => {
      fc.assert(
        fc.property(arbitraries, fc.string({ minLength: 1, maxLength: 8 }), ({ body, secret, timestamp }, extra) => {
          const request = signed(body, secret, timestamp);
          expect(scheme.verify({ request, secret, now: timestamp })).toEqual({ verified: true });
          const changed = { ...request, body: Buffer.concat([request.body, Buffer.from(extra)]) };
          expect(scheme.verify({ request: changed, secret, now: timestamp })).toMatchObject({
            verified: false,
            check: "signature",
          });
        }),
        { numRuns: 15 },
      );
    });

    it("and refuses a stale timestamp (where one is signed) or another URL (where the URL is signed)", () => {
      fc.assert(
        fc.property(arbitraries, ({ body, secret, timestamp }) => {
          const request = signed(body, secret, timestamp);
          if (scheme.toleranceSeconds !== undefined) {
            expect(scheme.verify({ request, secret, now: timestamp + scheme.toleranceSeconds })).toEqual({
              verified: true,
            });
            expect(scheme.verify({ request, secret, now: timestamp + scheme.toleranceSeconds + 1 })).toMatchObject({
              verified: false,
              check: "timestamp",
            });
          }
          if (signsUrl.has(scheme.provider)) {
            const moved = { ...request, url: "https://other.example.com/webhooks?x=1" };
            expect(scheme.verify({ request: moved, secret, now: timestamp })).toMatchObject({ verified: false });
          }
        }),
        { numRuns: 10 },
      );
    });

    it("names the missing header and the missing secret", () => {
      const request = signed("{}", "s", 1_700_000_000);
      expect(scheme.verify({ request: { ...request, headers: {} }, secret: "s", now: 1_700_000_000 })).toMatchObject({
        verified: false,
        check: "missing-header",
      });
      expect(scheme.verify({ request, now: 1_700_000_000 })).toMatchObject({
        verified: false,
        check: "missing-secret",
      });
    });

    it("cites a source", () => {
      expect(scheme.sources.length).toBeGreaterThan(0);
    });
  },
);

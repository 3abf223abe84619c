// What travels in the body rather than a header: Mailgun's signature object (timestamp + token,
// the body itself unsigned) and Linear's webhookTimestamp. The providers' own vectors are in
// test/fixtures/webhooks/*.json (vectors.test.ts); sign → verify properties in
// roundtrip.property.test.ts.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { schemeFor } from "../../src/webhooks/index.js";
import type { Delivery } from "../../src/webhooks/scheme.js";

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const delivery = (body: string, headers: Record<string, string>, url = "https://example.com/hook"): Delivery => ({
  method: "POST",
  url,
  headers: lower(headers),
  body: Buffer.from(body),
});

describe("linear: the time is the body's webhookTimestamp (linear/linear packages/sdk/src/webhooks/client.ts)", () => {
  const secret = "SECRET";
  const verify = (signature: string, now: number, body: string) =>
    schemeFor("linear")!.verify({ request: delivery(body, { "Linear-Signature": signature }), secret, now });
  it("correct signature, no timestamp: passes on the signature alone", () => {
    const bare = JSON.stringify({ action: "create", webhookTimestamp: undefined });
    const signature = createHmac("sha256", secret).update(bare).digest("hex");
    expect(verify(signature, 0, bare)).toEqual({ verified: true });
  });
});

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

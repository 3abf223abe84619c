// Every scheme against its provider's own vectors: the examples in the provider's docs and the
// test vectors of its official library, recorded with their repo, path and commit in
// test/fixtures/webhooks/<provider>.json. `sign: true` vectors are also made again by `sign`,
// header for header.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMES, schemeFor, signDelivery, zoomUrlValidationAnswer } from "../../src/webhooks/index.js";
import type { Scheme } from "../../src/webhooks/index.js";
import { standardScheme } from "../../src/webhooks/standard.js";

const DIR = join(import.meta.dirname, "../fixtures/webhooks");

interface Vector {
  name: string;
  source: number;
  sign?: boolean;
  secret?: string;
  publicKey?: string;
  id?: string;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  now: number;
  expect: { verified: boolean; check?: string; message?: string };
  urlValidation?: { plainToken: string; encryptedToken: string };
}
interface Fixture {
  provider: string;
  sources: ({ repo: string; path: string; commit: string } | { docs: string })[];
  vectors: Vector[];
}

/** The Standard Webhooks scheme itself (webhook-* headers), which Svix and Clerk are built on. */
const standard = standardScheme({
  provider: "standard-webhooks",
  name: "Standard Webhooks",
  prefix: "webhook",
  secretName: "the endpoint's secret",
  sources: ["standard-webhooks/standard-webhooks"],
});

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".json") && f !== "keys.json")
  .map((f) => ({ file: f, fixture: JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture }));

const schemeOf = (file: string): Scheme =>
  file === "standard-webhooks.json" ? standard : schemeFor(file.replace(/\.json$/, ""))!;

describe("the fixtures", () => {
  it("cover every scheme of the table, each vector citing a source with a commit or a docs page", () => {
    const covered = fixtures.map((f) => f.file.replace(/\.json$/, ""));
    // clerk is svix's scheme under another name (providers/clerk.ts): svix.json holds it. These
    // publish neither an example nor a library with test vectors: only their docs' description,
    // held by roundtrip.property.test.ts (and Mailgun's docs example by in-body.test.ts).
    const none = [
      "bitbucket",
      "buildkite",
      "calendly",
      "circleci",
      "clerk",
      "dropbox",
      "facebook_graph_api",
      "facebook_messenger",
      "frameio",
      "heroku",
      "instagram",
      "intercom",
      "launch_darkly",
      "mailgun",
      "sentry",
      "terraform",
      "twitter",
      "typeform",
      "webex",
      "whatsapp",
      "xero",
    ];
    expect(SCHEMES.map((s) => s.provider).filter((p) => !none.includes(p) && !covered.includes(p))).toEqual([]);
    expect(none.filter((p) => covered.includes(p))).toEqual([]);
    for (const { fixture } of fixtures) {
      for (const source of fixture.sources) {
        if ("repo" in source) expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
        else expect(source.docs).toMatch(/^https:\/\//);
      }
      for (const v of fixture.vectors) expect(fixture.sources[v.source]).toBeDefined();
    }
  });
});

for (const { file, fixture } of fixtures) {
  const scheme = schemeOf(file);
  describe(`${scheme.name} (${file})`, () => {
    it.each(fixture.vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
      const verdict = scheme.verify({
        request: { ...v.request, body: Buffer.from(v.request.body) },
        ...(v.secret !== undefined ? { secret: v.secret } : {}),
        ...(v.publicKey !== undefined ? { publicKey: v.publicKey } : {}),
        now: v.now,
      });
      if (v.expect.verified) expect(verdict).toEqual({ verified: true });
      else {
        expect(verdict).toMatchObject({ verified: false, check: v.expect.check });
        if (v.expect.message) expect(verdict.verified ? "" : verdict.message).toContain(v.expect.message);
      }
      if (v.sign) {
        const delivery = signDelivery(scheme, {
          body: Buffer.from(v.request.body),
          // Twilio adds bodySHA256 to the URL of a JSON delivery itself
          url: v.request.url.replace(/[?&]bodySHA256=[0-9a-f]+$/, ""),
          timestamp: v.now,
          contentType: v.request.headers["content-type"] ?? "application/json",
          ...(v.secret !== undefined ? { secret: v.secret } : {}),
          ...(v.id !== undefined ? { id: v.id } : {}),
        });
        const made = Object.fromEntries(Object.entries(delivery.headers).map(([k, value]) => [k.toLowerCase(), value]));
        const own = new Set(scheme.headers.map((h) => h.toLowerCase()));
        const expected = Object.fromEntries(Object.entries(v.request.headers).filter(([k]) => own.has(k)));
        expect(Object.keys(expected).length).toBeGreaterThan(0);
        expect(made).toMatchObject(expected);
        expect(delivery.url).toBe(v.request.url);
      }
      if (v.urlValidation) expect(zoomUrlValidationAnswer(v.secret!, v.request.body)).toEqual(v.urlValidation);
    });
  });
}

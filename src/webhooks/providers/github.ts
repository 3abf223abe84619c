// GitHub: X-Hub-Signature-256 = "sha256=" + hex HMAC-SHA256(secret, raw body); the legacy
// X-Hub-Signature carries the same over SHA-1. No timestamp.
// https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries
// ("Validating webhook deliveries", incl. its test values); official library
// octokit/webhooks-methods.js src/node/sign.ts, src/node/verify.ts.
import { fail, header, hmac, mismatch, missingHeader, needSecret, safeEqual, VERIFIED } from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "X-Hub-Signature-256";
const LEGACY = "X-Hub-Signature";
const sig = (secret: string, body: Buffer) => `sha256=${hmac("sha256", secret, body).toString("hex")}`;

export const scheme: Scheme = {
  provider: "github",
  name: "GitHub",
  headers: [SIG, LEGACY],
  key: "secret",
  sources: [
    "https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries",
    "octokit/webhooks-methods.js src/node/sign.ts, src/node/verify.ts",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("GitHub signs with the webhook's Secret: give one");
    return {
      [SIG]: sig(input.secret, input.body),
      [LEGACY]: `sha1=${hmac("sha1", input.secret, input.body).toString("hex")}`,
    };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined) {
      return missingHeader(
        SIG,
        header(input.request, LEGACY)
          ? "only the legacy X-Hub-Signature (SHA-1) is present"
          : "GitHub sends it when the webhook has a Secret",
      );
    }
    if (!/^sha256=[0-9a-f]{64}$/i.test(given.trim())) {
      return fail("malformed-header", `${SIG} is not "sha256=" followed by 64 hex digits`);
    }
    const missing = needSecret(input, "GitHub signs with the webhook's Secret");
    if (missing) return missing;
    const secret = input.secret!;
    const matches = (body: Buffer) => safeEqual(sig(secret, body), given.trim().toLowerCase());
    if (matches(input.request.body)) return VERIFIED;
    return mismatch({
      name: "GitHub",
      secretName: "the webhook's Secret",
      signed: "HMAC-SHA256 of the raw body",
      body: input.request.body,
      secret,
      matches,
    });
  },
};

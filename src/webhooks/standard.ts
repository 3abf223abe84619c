// Standard Webhooks (the specification Svix wrote and sends): <prefix>-id, <prefix>-timestamp
// and <prefix>-signature, the signature a space-separated list of "v1,<base64 HMAC-SHA256(key,
// id + "." + timestamp + "." + raw body)>" (several during a key's rotation; other versions such
// as v1a are skipped). The key is the base64 after "whsec_". Tolerance 5 minutes either way.
// https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md ;
// libraries standard-webhooks/standard-webhooks libraries/javascript/src/index.ts
// (WEBHOOK_TOLERANCE_IN_SECONDS = 5 * 60; "too old" / "too new") and svix/svix-webhooks
// javascript/src/webhook.ts (svix-* headers, webhook-* accepted too).
import { randomBytes } from "node:crypto";
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  safeEqual,
  timestampCheck,
  unixSeconds,
  VERIFIED,
} from "./check.js";
import type { Scheme } from "./scheme.js";
import { SignError } from "./scheme.js";

const TOLERANCE = 300;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The HMAC key of a "whsec_<base64>" secret (the prefix optional); undefined when not base64. */
export function standardKey(secret: string): Buffer | undefined {
  const b64 = secret.trim().replace(/^whsec_/, "");
  return b64 && BASE64.test(b64) ? Buffer.from(b64, "base64") : undefined;
}

export function standardSignature(key: Buffer, id: string, timestamp: string | number, body: Buffer): string {
  return hmac("sha256", key, `${id}.${timestamp}.`, body).toString("base64");
}

export interface StandardOptions {
  provider: string;
  name: string;
  /** Header prefix the provider sends ("svix" or "webhook"); verify also accepts the other. */
  prefix: "svix" | "webhook";
  secretName: string;
  sources: readonly string[];
}

export function standardScheme(o: StandardOptions): Scheme {
  const names = (p: string) => ({ id: `${p}-id`, ts: `${p}-timestamp`, sig: `${p}-signature` });
  const own = names(o.prefix);
  const other = names(o.prefix === "svix" ? "webhook" : "svix");
  return {
    provider: o.provider,
    name: o.name,
    headers: [own.id, own.ts, own.sig],
    key: "secret",
    toleranceSeconds: TOLERANCE,
    sources: o.sources,
    sign(input) {
      if (!input.secret) throw new SignError(`${o.name} signs with ${o.secretName} (whsec_…): give one`);
      const key = standardKey(input.secret);
      if (!key) throw new SignError(`${o.secretName} is "whsec_" followed by base64; the secret given is not`);
      const id = input.id ?? `msg_${randomBytes(12).toString("hex")}`;
      return {
        [own.id]: id,
        [own.ts]: String(input.timestamp),
        [own.sig]: `v1,${standardSignature(key, id, input.timestamp, input.body)}`,
      };
    },
    verify(input) {
      const { request } = input;
      const set = header(request, own.sig) !== undefined || header(request, other.sig) === undefined ? own : other;
      const id = header(request, set.id);
      const tsText = header(request, set.ts);
      const given = header(request, set.sig);
      if (given === undefined) return missingHeader(own.sig);
      if (id === undefined) return missingHeader(set.id, "the message id is part of what is signed");
      if (tsText === undefined) return missingHeader(set.ts, "it is part of what is signed");
      const ts = unixSeconds(tsText);
      if (ts === undefined) return fail("malformed-header", `${set.ts} is not unix seconds`);
      const signatures = given
        .split(" ")
        .map((s) => s.split(","))
        .filter(([version, sig]) => version === "v1" && sig)
        .map(([, sig]) => sig!);
      if (!signatures.length) return fail("malformed-header", `${set.sig} has no "v1,<base64>" signature`);
      if (!input.secret) {
        return fail(
          input.publicKey ? "secret-kind" : "missing-secret",
          `${o.name} signs with ${o.secretName} (whsec_…): give it`,
        );
      }
      const key = standardKey(input.secret);
      if (!key) {
        return fail(
          "secret-kind",
          `${o.secretName} is "whsec_" followed by base64, and the secret given is not: is it another provider's secret?`,
        );
      }
      const stale = timestampCheck(ts, input.now, TOLERANCE, true, set.ts);
      const matches = (body: Buffer) => {
        const expected = standardSignature(key, id, tsText.trim(), body);
        return signatures.some((s) => safeEqual(s, expected));
      };
      if (matches(request.body)) return stale ?? VERIFIED;
      return mismatch({
        name: o.name,
        secretName: o.secretName,
        signed: `any of the ${signatures.length} v1 signature(s), HMAC-SHA256 of "${set.id}.${set.ts}.body"`,
        body: request.body,
        secret: input.secret,
        own: /^whsec_/,
        matches,
        ...(stale ? { stale } : {}),
      });
    },
  };
}

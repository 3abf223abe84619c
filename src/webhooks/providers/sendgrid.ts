// SendGrid (Event Webhook, signed): X-Twilio-Email-Event-Webhook-Signature = base64 DER ECDSA
// P-256/SHA-256 signature over X-Twilio-Email-Event-Webhook-Timestamp + raw body, checked with
// the "Verification Key" (base64 DER SPKI public key; ngrok takes it as the secret). SendGrid
// documents no tolerance: ngrok's 180 s rule applies.
// https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features ;
// official library sendgrid/sendgrid-nodejs packages/eventwebhook/src/eventwebhook.js
// (verifySignature: timestamp + payload; Signature.fromBase64; PublicKey.fromPem).
import { createPrivateKey, createPublicKey, sign as ecSign, verify as ecVerify } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { fail, header, mismatch, missingHeader, parsedKey, timestampCheck, unixSeconds, VERIFIED } from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "X-Twilio-Email-Event-Webhook-Signature";
const TS = "X-Twilio-Email-Event-Webhook-Timestamp";
const TOLERANCE = 180;

/** A P-256 public key from PEM (SPKI or certificate) or SendGrid's base64 DER; undefined if not one. */
export function ecPublicKey(text: string): KeyObject | undefined {
  return parsedKey("ec-public", text, parseEcPublicKey);
}

function parseEcPublicKey(text: string): KeyObject | undefined {
  try {
    const t = text.trim();
    const key = t.startsWith("-----BEGIN")
      ? createPublicKey(t)
      : createPublicKey({ key: Buffer.from(t.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" });
    return key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1" ? key : undefined;
  } catch {
    return undefined;
  }
}

export const scheme: Scheme = {
  provider: "sendgrid",
  name: "SendGrid",
  headers: [SIG, TS],
  key: "public-key",
  toleranceSeconds: TOLERANCE,
  sources: [
    "https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features",
    "sendgrid/sendgrid-nodejs packages/eventwebhook/src/eventwebhook.js",
  ],
  sign(input) {
    if (!input.privateKey)
      throw new SignError("SendGrid signs with an ECDSA P-256 private key: give one (PEM, PKCS#8)");
    let key: KeyObject;
    try {
      key = parsedKey("private", input.privateKey, createPrivateKey);
    } catch {
      throw new SignError("the private key is not a PEM private key");
    }
    if (key.asymmetricKeyType !== "ec")
      throw new SignError(
        `SendGrid signs with ECDSA P-256; the key given is ${key.asymmetricKeyType ?? "another kind"}`,
      );
    const signature = ecSign("sha256", Buffer.concat([Buffer.from(String(input.timestamp)), input.body]), key);
    return { [SIG]: signature.toString("base64"), [TS]: String(input.timestamp) };
  },
  verify(input) {
    const given = header(input.request, SIG);
    if (given === undefined)
      return missingHeader(SIG, "SendGrid sends it when the Event Webhook's signature verification is on");
    const tsText = header(input.request, TS);
    if (tsText === undefined) return missingHeader(TS, "it is part of what SendGrid signs");
    const ts = unixSeconds(tsText);
    if (ts === undefined) return fail("malformed-header", `${TS} is not unix seconds`);
    const text = input.publicKey ?? input.secret;
    if (!text)
      return fail(
        "missing-secret",
        "no key was given: SendGrid signs with ECDSA; give the Event Webhook's Verification Key (a public key)",
      );
    const key = ecPublicKey(text);
    if (!key) {
      return fail(
        "secret-kind",
        text.includes("PRIVATE KEY")
          ? "a private key was given: verifying takes the public Verification Key"
          : "the key given is not an ECDSA P-256 public key: SendGrid verifies with the Event Webhook's Verification Key (base64 DER or PEM)",
      );
    }
    const signature = Buffer.from(given.trim(), "base64");
    const stale = timestampCheck(ts, input.now, TOLERANCE, true, TS);
    const matches = (body: Buffer) => {
      try {
        return ecVerify("sha256", Buffer.concat([Buffer.from(tsText.trim()), body]), key, signature);
      } catch {
        return false;
      }
    };
    if (matches(input.request.body)) return stale ?? VERIFIED;
    return mismatch({
      name: "SendGrid",
      secretName: "this Verification Key",
      keyWord: "key",
      signed: `the ECDSA signature over ${TS} + the raw body`,
      body: input.request.body,
      matches,
      ...(stale ? { stale } : {}),
    });
  },
};

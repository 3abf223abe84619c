// One signing scheme per provider, as the provider documents it (contract, "Webhook
// signatures"). Each provider's module in src/webhooks/providers/ exports one Scheme; the
// table in src/webhooks/index.ts lists them. Used by `webhook sign|verify|providers`, by
// `policy test` (verify-webhook) and by the emulator's traffic port: one implementation each.
// This layer imports only node:crypto (and src/text), so the emulator can use it too.

/** What a scheme signs with: a shared secret, or a key pair (SendGrid ECDSA, SNS RSA). */
export type KeyKind = "secret" | "private-key" | "public-key";

/** A request as received or to be sent, the body's exact bytes. Header names are lower-case as
 *  received and as the provider writes them when made by `sign`; schemes look them up in any case. */
export interface Delivery {
  method: string;
  /** The full URL the provider delivered to (Twilio and Square sign it). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface SignInput {
  body: Buffer;
  /** The shared secret (HMAC schemes and token schemes), as the user pasted it. */
  secret?: string;
  /** PEM (PKCS#8) private key text, for schemes signed with a key pair. */
  privateKey?: string;
  url: string;
  /** Unix seconds: the delivery's time. */
  timestamp: number;
  /** The message id (Svix, Standard Webhooks, SNS); a fresh one when absent. */
  id?: string;
  contentType: string;
}

export interface VerifyInput {
  request: Delivery;
  /** The shared secret; for SendGrid (whose key ngrok takes as the `secret`) also its public key. */
  secret?: string;
  /** PEM (SPKI) public key or X.509 certificate text, or the provider's own published format
   *  (SendGrid's base64 DER key). */
  publicKey?: string;
  /** Unix seconds: now, injected. */
  now: number;
}

/** Which check failed, stable for -o json and tests. */
export type Failure =
  "missing-header" | "malformed-header" | "signature" | "timestamp" | "url" | "secret-kind" | "missing-secret";

/** `message` says which check failed and why, in words for a person (no secret in it). */
export type Verdict = { verified: true } | { verified: false; check: Failure; message: string };

/** Thrown by `sign`/`deliver` when the input cannot make a delivery (no secret, a body SNS
 *  cannot sign, a key of the wrong kind): the command layer turns it into exit 2. */
export class SignError extends Error {
  override readonly name = "SignError";
}

export interface Scheme {
  /** ngrok's provider id (verify-webhook `provider`), lower case. */
  provider: string;
  /** The provider's name as people write it. */
  name: string;
  /** The header names a delivery carries (as the provider writes them). */
  headers: readonly string[];
  key: KeyKind;
  /** Seconds a timestamp may differ from now (the provider's, else 180: ngrok's old rule); none when unsigned in time. */
  toleranceSeconds?: number;
  /** Where the scheme comes from: the provider's docs page and its official library (repo and path). */
  sources: readonly string[];
  /** Headers whose value is the secret itself (GitLab's X-Gitlab-Token): masked when printed. */
  secretHeaders?: readonly string[];
  /** Whether the URL is part of what is signed (Twilio, Square): a proxy that changes it breaks the signature. */
  signsUrl?: boolean;
  /** The headers of a delivery of `input.body` (names as the provider writes them). */
  sign(input: SignInput): Record<string, string>;
  /** The whole delivery, for schemes that also change the URL or the body (Twilio's
   *  `bodySHA256` query parameter for JSON, SNS's signature fields inside the body). Absent:
   *  POST `input.body` to `input.url` with `sign`'s headers (use `signDelivery`, index.ts). */
  deliver?(input: SignInput): Delivery;
  verify(input: VerifyInput): Verdict;
}

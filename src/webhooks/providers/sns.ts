// Amazon SNS: the signature is inside the JSON body. `Signature` = base64 RSA (PKCS#1 v1.5)
// over "Name\nValue\n" for the canonical fields in this order — a Notification: Message,
// MessageId, Subject (when present), Timestamp, TopicArn, Type; a SubscriptionConfirmation or
// UnsubscribeConfirmation: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type —
// with SHA1 when SignatureVersion is "1", SHA256 when "2"; the key is the certificate at
// SigningCertURL. edgectl never fetches it: the certificate (or its public key) comes from a
// file. AWS documents no tolerance for Timestamp: ngrok's 180 s rule applies.
// https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html ;
// https://docs.aws.amazon.com/sns/latest/dg/http-header.html (x-amz-sns-* headers) ;
// official library aws/aws-js-sns-message-validator index.js (signableKeysForNotification,
// signableKeysForSubscription, "key\nvalue\n", RSA-SHA1 / RSA-SHA256).
import {
  createPrivateKey,
  createPublicKey,
  randomUUID,
  sign as rsaSign,
  verify as rsaVerify,
  X509Certificate,
} from "node:crypto";
import type { KeyObject } from "node:crypto";
import { fail, foreignKind, parsedKey, timestampCheck, VERIFIED } from "../check.js";
import type { Delivery, Scheme, SignInput } from "../scheme.js";
import { SignError } from "../scheme.js";

const TOLERANCE = 180;
const NOTIFICATION = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"] as const;
const CONFIRMATION = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"] as const;
const HEADERS = ["x-amz-sns-message-type", "x-amz-sns-message-id", "x-amz-sns-topic-arn"] as const;

type Message = Record<string, unknown>;

/** The string SNS signs (aws-js-sns-message-validator: "key\nvalue\n" per present key). */
export function stringToSign(message: Message): string {
  const keys =
    message.Type === "SubscriptionConfirmation" || message.Type === "UnsubscribeConfirmation"
      ? CONFIRMATION
      : NOTIFICATION;
  let s = "";
  for (const key of keys) {
    const value = message[key];
    if (value === undefined || value === null) continue;
    s += `${key}\n${String(value)}\n`;
  }
  return s;
}

const digest = (version: unknown) => (String(version) === "2" ? "sha256" : "sha1");

function parse(body: Buffer): Message | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

/** An RSA public key from a PEM certificate or public key; undefined when it is neither. */
export function rsaPublicKey(text: string): KeyObject | undefined {
  return parsedKey("rsa-public", text, parseRsaPublicKey);
}

function parseRsaPublicKey(text: string): KeyObject | undefined {
  try {
    const key = text.includes("BEGIN CERTIFICATE") ? new X509Certificate(text).publicKey : createPublicKey(text);
    return key.asymmetricKeyType === "rsa" ? key : undefined;
  } catch {
    return undefined;
  }
}

function delivery(input: SignInput): Delivery {
  if (!input.privateKey) throw new SignError("SNS signs with an RSA private key (its certificate's): give one (PEM)");
  let key: KeyObject;
  try {
    key = parsedKey("private", input.privateKey, createPrivateKey);
  } catch {
    throw new SignError("the private key is not a PEM private key");
  }
  if (key.asymmetricKeyType !== "rsa") throw new SignError("SNS signs with RSA; the key given is not an RSA key");
  const given = parse(input.body);
  if (!given || typeof given.TopicArn !== "string" || given.Message === undefined) {
    throw new SignError("SNS signs a JSON message with at least Message and TopicArn (the other fields are filled in)");
  }
  const region = /^arn:aws[\w-]*:sns:([\w-]+):/.exec(given.TopicArn)?.[1] ?? "us-east-1";
  const message: Message = {
    Type: "Notification",
    MessageId: input.id ?? randomUUID(),
    ...given,
    Timestamp: given.Timestamp ?? new Date(input.timestamp * 1000).toISOString(),
    SignatureVersion: String(given.SignatureVersion ?? "1"),
    SigningCertURL:
      given.SigningCertURL ?? `https://sns.${region}.amazonaws.com/SimpleNotificationService-edgectl-local.pem`,
  };
  delete message.Signature;
  message.Signature = rsaSign(digest(message.SignatureVersion), Buffer.from(stringToSign(message)), key).toString(
    "base64",
  );
  return {
    method: "POST",
    url: input.url,
    headers: {
      "Content-Type": "text/plain; charset=UTF-8",
      [HEADERS[0]]: String(message.Type),
      [HEADERS[1]]: String(message.MessageId),
      [HEADERS[2]]: String(message.TopicArn),
    },
    body: Buffer.from(JSON.stringify(message, null, 2)),
  };
}

export const scheme: Scheme = {
  provider: "sns",
  name: "Amazon SNS",
  headers: HEADERS,
  key: "public-key",
  toleranceSeconds: TOLERANCE,
  sources: [
    "https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html",
    "aws/aws-js-sns-message-validator index.js",
  ],
  sign(input) {
    const { "Content-Type": _type, ...headers } = delivery(input).headers;
    return headers;
  },
  deliver: delivery,
  verify(input) {
    const message = parse(input.request.body);
    if (!message)
      return fail("malformed-header", "the body is not an SNS message: SNS puts its signature in a JSON body");
    for (const field of ["Signature", "SignatureVersion", "SigningCertURL", "Timestamp", "Type"]) {
      if (typeof message[field] !== "string")
        return fail("missing-header", `the message has no ${field} field: SNS signs its messages in the body`);
    }
    const version = String(message.SignatureVersion);
    if (version !== "1" && version !== "2")
      return fail("malformed-header", `SignatureVersion is ${version}: SNS uses 1 (SHA1) or 2 (SHA256)`);
    const text = input.publicKey;
    if (!text) {
      if (input.secret) {
        const kind = foreignKind(input.secret.trim());
        return fail(
          "secret-kind",
          `a secret was given${kind ? ` (it looks like ${kind})` : ""}, but SNS takes none: it signs with the certificate at ${String(message.SigningCertURL)}; download it and give it as the public key`,
        );
      }
      return fail(
        "missing-secret",
        `no certificate was given: SNS signs with the certificate at ${String(message.SigningCertURL)}; edgectl never fetches it: download it and give it as the public key`,
      );
    }
    const key = rsaPublicKey(text);
    if (!key)
      return fail("secret-kind", "the key given is not an RSA certificate or public key (PEM): SNS signs with RSA");
    const when = Date.parse(String(message.Timestamp));
    if (Number.isNaN(when))
      return fail("malformed-header", `Timestamp ${String(message.Timestamp)} is not an ISO 8601 time`);
    const stale = timestampCheck(Math.floor(when / 1000), input.now, TOLERANCE, true, "the message's Timestamp");
    const signature = Buffer.from(String(message.Signature), "base64");
    if (rsaVerify(digest(version), Buffer.from(stringToSign(message)), key, signature)) return stale ?? VERIFIED;
    const fields = (
      message.Type === "SubscriptionConfirmation" || message.Type === "UnsubscribeConfirmation"
        ? CONFIRMATION
        : NOTIFICATION
    ).join(", ");
    return fail(
      "signature",
      `the Signature (RSA-SHA${version === "2" ? "256" : "1"}) does not match the canonical fields ${fields} with the certificate given: a field was changed, or the certificate is not the one at ${String(message.SigningCertURL)}${stale ? `; also, ${stale.message}` : ""}`,
    );
  },
};

// Twilio: X-Twilio-Signature = base64 HMAC-SHA1(Auth Token, the full URL Twilio requested +
// for a form POST each parameter's name and value, names sorted (a repeated name's values
// sorted, duplicates once)). A JSON body is not in the signature: Twilio adds its hex SHA-256
// to the URL as the `bodySHA256` query parameter, which the URL signature then covers. Twilio's
// libraries accept the URL with and without its default port. No timestamp.
// https://www.twilio.com/docs/usage/webhooks/webhooks-security#validating-signatures-from-twilio ;
// official libraries twilio/twilio-node src/webhooks/webhooks.ts (getExpectedTwilioSignature,
// toFormUrlEncodedParam, validateRequest: removePort/addPort) and twilio/twilio-python
// twilio/request_validator.py (compute_signature, compute_hash, validate). When a Webhooks Rule
// signs instead, X-Twilio-Webhooks-Signature-Settings says "key=…,algorithm=HMAC_SHA256" and
// the same string is signed with HMAC-SHA256 and the rule's SharedKey (twilio/twilio-node
// examples/WebhookSignatureValidation.md).
import {
  fail,
  header,
  hmac,
  mismatch,
  missingHeader,
  needSecret,
  safeEqual,
  sha256Hex,
  urlDiffers,
  urlVariants,
  VERIFIED,
} from "../check.js";
import type { Delivery, Scheme, SignInput } from "../scheme.js";
import { SignError } from "../scheme.js";

const SIG = "X-Twilio-Signature";
const SETTINGS = "X-Twilio-Webhooks-Signature-Settings";

const isJson = (contentType: string | undefined) =>
  /^application\/([\w.+-]*\+)?json\b/i.test(contentType?.trim() ?? "");

/** url + each sorted parameter's name and values, as twilio-python compute_signature. */
function signedText(url: string, form: URLSearchParams | undefined): string {
  let s = url;
  if (form) {
    for (const name of [...new Set(form.keys())].sort()) {
      for (const value of [...new Set(form.getAll(name))].sort()) s += name + value;
    }
  }
  return s;
}

const sig = (token: string, url: string, form: URLSearchParams | undefined, algorithm: "sha1" | "sha256" = "sha1") =>
  hmac(algorithm, token, signedText(url, form)).toString("base64");

/** The URL with and without its default port, as twilio-node validateRequest tries both. */
function withAndWithoutPort(url: string): string[] {
  try {
    const u = new URL(url);
    const port = u.protocol === "https:" ? "443" : "80";
    const without = new URL(url);
    without.port = "";
    const withPort = `${u.protocol}//${u.username}${u.password ? `:${u.password}` : ""}${u.username || u.password ? "@" : ""}${u.hostname}:${u.port || port}${u.pathname}${u.search}`;
    return [...new Set([url, without.toString(), withPort])];
  } catch {
    return [url];
  }
}

function delivery(input: SignInput): Delivery {
  if (!input.secret) throw new SignError("Twilio signs with the account's Auth Token: give one");
  let url = input.url;
  let form: URLSearchParams | undefined;
  if (isJson(input.contentType)) {
    url += `${url.includes("?") ? "&" : "?"}bodySHA256=${sha256Hex(input.body)}`;
  } else {
    form = new URLSearchParams(input.body.toString("utf8"));
  }
  return {
    method: "POST",
    url,
    headers: { "Content-Type": input.contentType, [SIG]: sig(input.secret, url, form) },
    body: input.body,
  };
}

export const scheme: Scheme = {
  provider: "twilio",
  name: "Twilio",
  headers: [SIG],
  key: "secret",
  signsUrl: true,
  sources: [
    "https://www.twilio.com/docs/usage/webhooks/webhooks-security",
    "twilio/twilio-node src/webhooks/webhooks.ts",
    "twilio/twilio-python twilio/request_validator.py",
    "twilio/twilio-node examples/WebhookSignatureValidation.md",
  ],
  sign(input) {
    const { [SIG]: signature } = delivery(input).headers;
    return { [SIG]: signature! };
  },
  deliver: delivery,
  verify(input) {
    const { request } = input;
    const given = header(request, SIG);
    if (given === undefined) return missingHeader(SIG);
    const settings = header(request, SETTINGS);
    const algorithm = settings && /algorithm=HMAC_SHA256\b/i.test(settings) ? "sha256" : "sha1";
    if (settings && algorithm === "sha1" && !/algorithm=HMAC_SHA1\b/i.test(settings)) {
      return fail("malformed-header", `${SETTINGS} names no algorithm edgectl knows (HMAC_SHA1, HMAC_SHA256)`);
    }
    const shape = algorithm === "sha256" ? /^[A-Za-z0-9+/]{43}=$/ : /^[A-Za-z0-9+/]{27}=$/;
    if (!shape.test(given.trim())) {
      const what = algorithm === "sha256" ? "SHA-256 HMAC (44 characters)" : "SHA-1 HMAC (28 characters)";
      return fail("malformed-header", `${SIG} is not a base64 ${what}`);
    }
    const missing = needSecret(input, "Twilio signs with the account's Auth Token");
    if (missing) return missing;
    const token = input.secret!;
    let bodyHash: string | null = null;
    try {
      bodyHash = new URL(request.url).searchParams.get("bodySHA256");
    } catch {
      return fail(
        "url",
        `the URL ${request.url} is not a full URL: Twilio signs the URL it requested (scheme, host, path, query)`,
      );
    }
    const json = isJson(header(request, "content-type")) || bodyHash !== null;
    if (json && bodyHash === null) {
      return fail(
        "url",
        `the URL has no bodySHA256 query parameter: Twilio adds it to the URL of a JSON delivery and signs that URL (was the query string dropped?)`,
      );
    }
    const form = json ? undefined : new URLSearchParams(request.body.toString("utf8"));
    const matchesUrl = (url: string, f = form) =>
      withAndWithoutPort(url).some((u) => safeEqual(sig(token, u, f, algorithm), given.trim()));
    if (json) {
      const bodyOk = (body: Buffer) => safeEqual(sha256Hex(body), bodyHash!.toLowerCase());
      if (!bodyOk(request.body)) {
        return mismatch({
          name: "Twilio",
          secretName: "SHA-256",
          signed: `the URL's bodySHA256 (${bodyHash}), the SHA-256 Twilio took of the body it sent`,
          keyless: true,
          body: request.body,
          matches: bodyOk,
        });
      }
    }
    if (matchesUrl(request.url)) return VERIFIED;
    for (const variant of urlVariants(request.url, request.headers)) {
      if (matchesUrl(variant.url)) return urlDiffers(request.url, variant);
    }
    return mismatch({
      name: "Twilio",
      secretName: algorithm === "sha256" ? "this SharedKey" : "this Auth Token",
      signed: `HMAC-${algorithm.toUpperCase()} of the URL ${request.url}${json ? "" : " + the sorted POST parameters"}`,
      also: "either the URL differs from the one Twilio requested (give that one) or the parameters or the token differ",
      body: request.body,
      secret: token,
      matches: (body) => !json && matchesUrl(request.url, new URLSearchParams(body.toString("utf8"))),
    });
  },
};

// `webhook verify`: a raw HTTP/1.1 request from a file or stdin, checked as the provider's scheme
// checks it (src/webhooks/): `verified` (exit 0) or `not verified: <check>: <why>` (exit 1), the
// verdict on stdout either way; input that is not a request, or a provider edgectl cannot verify,
// is exit 2. Contract, "Webhook signatures".
import * as z from "zod/mini";
import { CheckFailedError, UsageError } from "../../errors.js";
import { renderData } from "../../output/print.js";
import { escapeControl } from "../../text/escape.js";
import type { Delivery, Scheme, Verdict } from "../../webhooks/scheme.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { readFileBytes } from "../input.js";
import { secretFlags } from "../webhook-verification/secret-input.js";
import { nowSeconds, readKeyFile, readSchemeSecret, schemeOf, secretGiven, unixSeconds } from "./scheme-input.js";

const flags = {
  ...secretFlags,
  requestFile: {
    flag: "--request-file <path>",
    help: "the raw HTTP/1.1 request (request line, headers, blank line, body), or - for stdin",
    schema: () =>
      z
        .string({ error: "required: the request's file, or - for stdin" })
        .check(z.minLength(1, "give a file, or - for stdin")),
    complete: "file" as const,
  },
  publicKeyFile: {
    flag: "--public-key-file <path>",
    help: "PEM (SPKI) public key, or the provider's own format, for providers that sign with a key pair",
    schema: () => z.optional(z.string()),
    complete: "file" as const,
  },
  url: {
    flag: "--url <url>",
    help: "the URL the provider delivered to (default: from Host and the request line)",
    schema: () =>
      z.optional(
        z.string().check(z.refine((v) => URL.canParse(v) && /^https?:/i.test(v), "must be an http:// or https:// URL")),
      ),
  },
  now: {
    flag: "--now <unix>",
    help: "the time to check timestamps against, Unix seconds (default now)",
    schema: unixSeconds,
  },
};

export type VerifyFlags = OptionsOf<Record<never, never>, typeof flags>;

export const verify = defineCommand({
  name: "verify",
  description: "Check a raw HTTP request's webhook signature as the provider signs it, and say which check failed",
  flags,
  rules: [
    {
      ok: (o) => !(o.requestFile === "-" && o.secretStdin),
      message: "--request-file - and --secret-stdin: stdin can hold the request or the secret, not both",
    },
  ],
  about: `Prints "verified" and exits 0, or "not verified: <check>: <why>" and exits 1: a missing header,
a signature over other bytes (a re-serialised body), a timestamp off by how much, a URL that
differs (pass --url with the one the provider called), the wrong kind of secret. Input that is
not a request, and a provider edgectl cannot verify, exit 2. The secret comes from exactly one of
--secret-stdin, --secret-file, --secret, or else EDGECTL_WEBHOOK_SECRET; a provider that signs
with a key pair takes --public-key-file.`,
  examples: [
    "$ edgectl webhook verify --provider stripe --request-file delivery.http --secret whsec_test --now 1700000010",
    "$ edgectl webhook verify --provider stripe --request-file delivery.http --secret whsec_test --now 1700003600 -o json   # exit 1",
    "$ cat delivery.http | edgectl webhook verify --provider stripe --request-file - --secret whsec_test --now 1700000010",
  ],
  run: async (options, deps) => run(await verifyOptions(options, deps), deps),
});

export interface VerifyOptions {
  scheme: Scheme;
  request: Delivery;
  secret?: string;
  publicKey?: string;
  now: number;
}

export async function verifyOptions(o: VerifyFlags, deps: Deps): Promise<VerifyOptions> {
  const scheme = await schemeOf(o.provider);
  const raw =
    o.requestFile === "-"
      ? await readRequestStdin(deps)
      : await readFileBytes(o.requestFile, "--request-file", deps.cwd);
  const { parseRawRequest, RequestParseError } = await import("../../webhooks/http-request.js");
  let request: Delivery;
  try {
    request = parseRawRequest(raw, o.url);
  } catch (err) {
    if (err instanceof RequestParseError) throw new UsageError(`--request-file: ${escapeControl(err.message)}`);
    throw err;
  }
  const now = o.now ?? nowSeconds(deps);
  // A key of the other kind is passed on as given: the scheme's verdict names the wrong kind
  // of secret (src/webhooks/check.ts), as policy test and the emulator would.
  const publicKey =
    o.publicKeyFile === undefined ? undefined : await readKeyFile(o.publicKeyFile, "--public-key-file", deps.cwd);
  if (scheme.key === "secret") {
    const secret =
      publicKey !== undefined && !secretGiven(o) && deps.env.EDGECTL_WEBHOOK_SECRET === undefined
        ? undefined
        : await readSchemeSecret(o, o.provider, deps);
    return { scheme, request, now, secret, publicKey };
  }
  if (publicKey === undefined && !secretGiven(o))
    throw new UsageError(`--public-key-file: ${scheme.name} signs with a key pair; give its public key's file`);
  return {
    scheme,
    request,
    now,
    publicKey,
    secret: secretGiven(o) ? await readSchemeSecret(o, o.provider, deps) : undefined,
  };
}

async function readRequestStdin(deps: Deps): Promise<Buffer> {
  if (deps.io.stdin.isTTY)
    throw new UsageError("--request-file -: stdin is a terminal; pipe the request in, or name a file");
  return Buffer.from(await deps.readStdin("--request-file"));
}

export async function run(options: VerifyOptions, deps: Deps): Promise<void> {
  const verdict: Verdict = options.scheme.verify({
    request: options.request,
    secret: options.secret,
    publicKey: options.publicKey,
    now: options.now,
  });
  const { output } = deps.settings;
  deps.io.stdout.write(
    output !== "table"
      ? renderData(output, verdict)
      : verdict.verified
        ? "verified\n"
        : `not verified: ${verdict.check}: ${escapeControl(verdict.message)}\n`,
  );
  if (!verdict.verified)
    throw new CheckFailedError(`the request is not verified as ${options.scheme.name} signs (${verdict.check})`);
}

// `webhook sign`: the headers a real delivery of a body carries, signed as the provider signs it
// (src/webhooks/), for a secret or a private key; `--send` POSTs the body with them to --url and
// the answer's status is the result (exit 0 on 2xx, 1 otherwise). Contract, "Webhook signatures".
import * as z from "zod/mini";
import { ApiError, NetworkError, UsageError } from "../../errors.js";
import { MASK } from "../../output/mask.js";
import { renderData } from "../../output/print.js";
import { escapeControl } from "../../text/escape.js";
import { type Delivery, type Scheme, SignError } from "../../webhooks/scheme.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { readFileBytes, switchValue } from "../input.js";
import { showSecretFlag } from "../webhook-verification/route.js";
import { secretFlags } from "../webhook-verification/secret-input.js";
import { nowSeconds, readKeyFile, readSchemeSecret, schemeOf, secretGiven, unixSeconds } from "./scheme-input.js";

const DEFAULT_URL = "http://localhost/";

const args = {
  stdin: {
    arg: "[-]",
    help: "read the body from stdin",
    schema: () =>
      z.optional(
        z.string().check(z.refine((v) => v === "-", "give - to read the body from stdin, or --body / --body-file")),
      ),
  },
};

const flags = {
  ...secretFlags,
  body: { flag: "--body <text>", help: "the body, as typed", schema: () => z.optional(z.string()) },
  bodyFile: {
    flag: "--body-file <path>",
    help: "read the body's exact bytes from a file",
    schema: () => z.optional(z.string()),
    complete: "file" as const,
  },
  privateKeyFile: {
    flag: "--private-key-file <path>",
    help: "PEM (PKCS#8) private key, for providers that sign with a key pair",
    schema: () => z.optional(z.string()),
    complete: "file" as const,
  },
  url: {
    flag: "--url <url>",
    help: `the URL the delivery goes to (signed by Twilio, Square, HubSpot; default ${DEFAULT_URL})`,
    schema: () =>
      z.optional(
        z.string().check(z.refine((v) => URL.canParse(v) && /^https?:/i.test(v), "must be an http:// or https:// URL")),
      ),
  },
  timestamp: {
    flag: "--timestamp <unix>",
    help: "the delivery's time, Unix seconds (default now)",
    schema: unixSeconds,
  },
  contentType: {
    flag: "--content-type <type>",
    help: "the body's type (default application/json for a JSON body, else application/x-www-form-urlencoded)",
    schema: () => z.optional(z.string().check(z.minLength(1, "must not be empty"))),
  },
  id: {
    flag: "--id <message-id>",
    help: "the message id (Svix, Standard Webhooks; Worldline's key id); default a fresh one",
    schema: () => z.optional(z.string().check(z.minLength(1, "must not be empty"))),
  },
  send: {
    flag: "--send",
    help: "POST the body with these headers to --url and print the answer's status",
    ...switchValue(),
  },
  showSecret: showSecretFlag,
};

export type SignFlags = OptionsOf<typeof args, typeof flags>;

export const sign = defineCommand({
  name: "sign",
  description: "Print the headers a provider's real delivery of a body carries (or --send it)",
  args,
  flags,
  rules: [
    {
      ok: (o) => [o.body !== undefined, o.bodyFile !== undefined, o.stdin === "-"].filter(Boolean).length === 1,
      message: (o) =>
        o.body === undefined && o.bodyFile === undefined && o.stdin === undefined
          ? "--body, --body-file, -: give the body (one of them)"
          : "--body, --body-file, -: give the body from only one source",
    },
    {
      ok: (o) => !(o.stdin === "-" && o.secretStdin),
      message: "- and --secret-stdin: stdin can hold the body or the secret, not both",
    },
    { ok: (o) => !o.send || o.url !== undefined, message: "--send: give --url, the address to POST to" },
  ],
  about: `Prints the headers as "Name: value" lines (-o json: {"method", "url", "headers", "body"}). The
secret comes from exactly one of --secret-stdin, --secret-file, --secret, or else
EDGECTL_WEBHOOK_SECRET; a provider that signs with a key pair takes --private-key-file. A header
whose value is the secret itself is shown as ******** unless --show-secret (--send sends the real
one). --send POSTs the body with the headers to --url (a local app, the emulator's traffic port)
and prints the answer's status: exit 0 on 2xx, 1 otherwise.`,
  examples: [
    `$ edgectl webhook sign --provider github --secret s3cret --body '{"a":1}'`,
    `$ edgectl webhook sign --provider stripe --secret whsec_test --timestamp 1700000000 --body '{"id":"evt_1"}' -o json`,
    `$ edgectl webhook sign --provider github --secret s3cret --body '{"a":1}' --url http://127.0.0.1:3000/hook --send`,
  ],
  run: async (options, deps) => run(await signOptions(options, deps), deps),
});

export interface SignOptions {
  scheme: Scheme;
  body: Buffer;
  secret?: string;
  privateKey?: string;
  url: string;
  timestamp: number;
  contentType: string;
  id?: string;
  send: boolean;
  showSecret: boolean;
}

/** The flags, read: the scheme, the body's bytes, the key, the clock's time. */
export async function signOptions(o: SignFlags, deps: Deps): Promise<SignOptions> {
  const scheme = await schemeOf(o.provider);
  let secret: string | undefined;
  let privateKey: string | undefined;
  if (scheme.key === "secret") {
    if (o.privateKeyFile !== undefined)
      throw new UsageError(
        `--private-key-file: ${scheme.name} signs with a shared secret; give --secret-stdin, --secret-file or --secret`,
      );
    secret = await readSchemeSecret(o, o.provider, deps);
  } else {
    if (secretGiven(o))
      throw new UsageError(
        `--secret-stdin, --secret-file, --secret: ${scheme.name} signs with a private key; give --private-key-file`,
      );
    if (o.privateKeyFile === undefined)
      throw new UsageError(`--private-key-file: ${scheme.name} signs with a private key (PEM, PKCS#8); give its file`);
    privateKey = await readKeyFile(o.privateKeyFile, "--private-key-file", deps.cwd);
  }
  const body =
    o.body !== undefined
      ? Buffer.from(o.body)
      : o.bodyFile !== undefined
        ? await readFileBytes(o.bodyFile, "--body-file", deps.cwd)
        : await readBodyStdin(deps);
  return {
    scheme,
    body,
    secret,
    privateKey,
    url: o.url ?? DEFAULT_URL,
    timestamp: o.timestamp ?? nowSeconds(deps),
    contentType: o.contentType ?? (isJson(body) ? "application/json" : "application/x-www-form-urlencoded"),
    id: o.id,
    send: o.send,
    showSecret: o.showSecret,
  };
}

async function readBodyStdin(deps: Deps): Promise<Buffer> {
  if (deps.io.stdin.isTTY) throw new UsageError("-: stdin is a terminal; pipe the body in, or use --body-file");
  return Buffer.from(await deps.readStdin("-"));
}

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

export async function run(options: SignOptions, deps: Deps): Promise<void> {
  const { scheme } = options;
  const { signDelivery } = await import("../../webhooks/index.js");
  let delivery: Delivery;
  try {
    // The whole delivery: Twilio adds bodySHA256 to a JSON delivery's URL, SNS signs inside the body.
    delivery = signDelivery(scheme, {
      body: options.body,
      secret: options.secret,
      privateKey: options.privateKey,
      url: options.url,
      timestamp: options.timestamp,
      id: options.id,
      contentType: options.contentType,
    });
  } catch (err) {
    // What the scheme cannot sign (a key it cannot read, Mailgun's signature inside the body).
    if (err instanceof SignError) throw new UsageError(`--provider ${scheme.provider}: ${escapeControl(err.message)}`);
    throw err;
  }
  const { headers } = delivery;
  if (delivery.url !== options.url) deps.warn(`${scheme.name} delivers to ${escapeControl(delivery.url)} (signed)`);
  if (!delivery.body.equals(options.body))
    deps.warn(`${scheme.name} delivers another body than given (its signature is inside it): see -o json`);
  const masked = (secret: string[]) =>
    Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        !options.showSecret && secret.some((s) => s.toLowerCase() === name.toLowerCase()) ? MASK : value,
      ]),
    );
  const shown = masked([...(scheme.secretHeaders ?? [])]);
  const request = { method: delivery.method, url: delivery.url, headers: shown, body: delivery.body.toString("utf8") };
  const { output } = deps.settings;
  if (!options.send) {
    deps.io.stdout.write(
      output === "table"
        ? Object.entries(shown)
            .map(([name, value]) => `${escapeControl(name)}: ${escapeControl(value)}\n`)
            .join("")
        : renderData(output, request),
    );
    return;
  }
  const answer = await post(delivery.url, headers, delivery.body, deps.settings.timeoutMs);
  deps.io.stdout.write(
    output === "table"
      ? `${answer.status} ${escapeControl(answer.statusText)}\n`
      : renderData(output, { status: answer.status, status_text: answer.statusText, request }),
  );
  if (answer.status < 200 || answer.status > 299)
    throw new ApiError(`${escapeControl(options.url)} answered ${answer.status} ${answer.statusText}`, {
      statusCode: answer.status,
    });
}

/** One plain POST with node:http(s): the body's exact bytes, the headers as signed. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
): Promise<{ status: number; statusText: string }> {
  const target = new URL(url);
  const { request } = target.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: "POST", headers: { ...headers, "Content-Length": String(body.length) }, timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "" }));
        res.on("error", (err) => reject(new NetworkError(`${target.origin}: ${err.message}`, { cause: err })));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on("error", (err) =>
      reject(
        new NetworkError(
          `could not POST to ${escapeControl(url)}: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
        ),
      ),
    );
    req.end(body);
  });
}

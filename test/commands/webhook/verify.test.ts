// `edgectl webhook verify`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) the raw HTTP/1.1 request as a file holds it (src/webhooks/http-request.ts), the verdicts
// with fake deps (an injected clock, a stand-in key-pair scheme for the kind of key), and the whole
// CLI in-process for exit 0 / 1 / 2 with the verdict on stdout. The schemes themselves are held by
// test/webhooks/ (vectors, roundtrip, messages).
import { createHmac } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  run,
  verify,
  verifyOptions,
  type VerifyFlags,
  type VerifyOptions,
} from "../../../src/commands/webhook/verify.js";
import { CheckFailedError, UsageError } from "../../../src/errors.js";
import { parseRawRequest, RequestParseError } from "../../../src/webhooks/http-request.js";
import { schemeFor } from "../../../src/webhooks/index.js";
import type { Scheme } from "../../../src/webhooks/scheme.js";
import { useScratch } from "../../e2e/support.js";
import { appSandbox } from "../../helpers/app.js";
import { fakeDeps } from "../fake-deps.js";
import { parse, refusal } from "../parse.js";

const BASE: VerifyFlags = {
  provider: "mux",
  secretStdin: false,
  secretFile: undefined,
  secret: undefined,
  requestFile: "req.http",
  publicKeyFile: undefined,
  url: undefined,
  now: undefined,
};

describe("webhook verify argv → options", () => {
  it.each([
    [["--provider", "MUX", "--request-file", "req.http", "--secret", "s"], { secret: "s" }],
    [
      [
        "--provider",
        "box",
        "--request-file",
        "-",
        "--secret-file",
        "k",
        "--now",
        "1577862000",
        "--url",
        "https://a.example/h",
      ],
      { provider: "box", requestFile: "-", secretFile: "k", now: 1577862000, url: "https://a.example/h" },
    ],
    [
      ["--provider", "linear", "--request-file", "r", "--public-key-file", "pub.pem"],
      { provider: "linear", requestFile: "r", publicKeyFile: "pub.pem" },
    ],
  ])("reads %j", async (argv, options) => {
    expect((await parse(verify, argv)).options).toEqual({ ...BASE, ...options });
  });

  it.each([
    [["--provider", "mux"], /^--request-file: required: the request's file, or - for stdin/],
    [["--provider", "mux", "--request-file", "r", "--now", "later"], /^--now: .*must be a Unix time in seconds/],
    [
      ["--provider", "mux", "--request-file", "-", "--secret-stdin"],
      /stdin can hold the request or the secret, not both/,
    ],
    [
      ["--provider", "mux", "--request-file", "r", "--url", "mailto:a@b"],
      /^--url: .*must be an http:\/\/ or https:\/\/ URL/,
    ],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(verify, argv)).message).toMatch(message);
  });
});

describe("a raw HTTP/1.1 request → the delivery", () => {
  it.each([
    [
      "CRLF lines, Content-Length cuts the body",
      "POST /h?x=1 HTTP/1.1\r\nHost: a.example\r\nContent-Length: 2\r\n\r\n{}trailing",
      "https://a.example/h?x=1",
      "{}",
    ],
    [
      "LF lines, no Content-Length: the rest is the body",
      'POST /h HTTP/1.1\nHost: a.example\n\n{"a":\n1}\n',
      "https://a.example/h",
      '{"a":\n1}\n',
    ],
    [
      "X-Forwarded-Proto: http",
      "POST / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Forwarded-Proto: http\r\n\r\n",
      "http://127.0.0.1:8080/",
      "",
    ],
    ["absolute target", "POST http://b.example/p HTTP/1.1\r\nHost: a.example\r\n\r\nx", "http://b.example/p", "x"],
    [
      "chunked body",
      "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
      "https://a/c",
      "abcde",
    ],
    ["headers only", "GET /ping HTTP/1.0\nHost: a\n", "https://a/ping", ""],
  ])("%s", (_, raw, url, body) => {
    const request = parseRawRequest(Buffer.from(raw));
    expect(request.url).toBe(url);
    expect(request.body.toString()).toBe(body);
  });

  it("joins repeated headers with ', ', lower-cases names, and takes --url over Host", () => {
    const r = parseRawRequest(Buffer.from("POST /h HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\n\r\n"), "https://given.example/h");
    expect(r.headers).toEqual({ "x-a": "1, 2" });
    expect(r.url).toBe("https://given.example/h");
  });

  it.each([
    ["{}", /the first line is not a request line/],
    [
      "POST /h HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{}",
      /the body has 2 bytes, fewer than its Content-Length of 9/,
    ],
    ["POST /h HTTP/1.1\r\nContent-Length: 0\r\n\r\n", /no Host header: give --url/],
    ["POST /h HTTP/1.1\r\nHost a\r\n\r\n", /line 2 is not a header/],
    ["", /the request is empty/],
  ])("refuses %j", (raw, message) => {
    expect(() => parseRawRequest(Buffer.from(raw))).toThrow(RequestParseError);
    expect(() => parseRawRequest(Buffer.from(raw))).toThrow(message);
  });
});

const BODY = '{"type":"video.asset.ready"}';
const T = 1_700_000_000;
const muxHeader = (body: string, t = T, secret = "s") =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
const muxRequest = (body = BODY, header = muxHeader(BODY)) =>
  `POST /webhooks/mux HTTP/1.1\r\nHost: app.example\r\nContent-Type: application/json\r\nMux-Signature: ${header}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** A provider that signs with a key pair, as SendGrid and SNS do. */
const keyPairScheme: Scheme = {
  provider: "stand-in",
  name: "Stand-in",
  headers: ["X-Sig"],
  key: "public-key",
  sources: ["test"],
  sign: () => ({}),
  verify: (input) =>
    input.publicKey === "PEM\n"
      ? { verified: true }
      : input.secret !== undefined
        ? { verified: false, check: "secret-kind", message: "Stand-in signs with a private key" }
        : { verified: false, check: "signature", message: "no" },
};

async function verdictOf(o: VerifyOptions, output: "table" | "json" = "table") {
  const deps = fakeDeps({ settings: { output } });
  const error = await run(o, deps).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { stdout: deps.out.text, error };
}

describe("webhook verify: options → the verdict", () => {
  const { file } = useScratch("edgectl-webhook-verify-");

  const fromFile = async (raw: string, flags: Partial<VerifyFlags>, now?: number) =>
    verifyOptions(
      {
        ...BASE,
        requestFile: file("req.http", raw),
        secret: "s",
        ...flags,
        ...(flags.publicKeyFile
          ? { publicKeyFile: file("pub.pem", "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n") }
          : {}),
      },
      Object.assign(fakeDeps(), { now: () => (now ?? T) * 1000 }),
    );

  it.each([
    ["a delivery as Mux signs it", muxRequest(), {}, T + 10, "verified\n"],
    [
      "a re-serialised body (other bytes than were signed)",
      muxRequest('{\n  "type": "video.asset.ready"\n}', muxHeader(BODY)),
      {},
      T,
      "not verified: signature: the signature matches the body as compact JSON, not the 33 bytes received: the body was re-serialised after it was signed (verify the raw body)\n",
    ],
    [
      "a stale timestamp, by how much",
      muxRequest(),
      {},
      T + 3600,
      "not verified: timestamp: the Mux-Signature timestamp t (1700000000) is 3600 s old: 3300 s older than the 300 s tolerance\n",
    ],
    ["the wrong secret", muxRequest(), { secret: "other" }, T, /^not verified: signature: /],
    [
      "a missing header",
      "POST /webhooks/mux HTTP/1.1\r\nHost: app.example\r\n\r\n{}",
      {},
      T,
      "not verified: missing-header: the Mux-Signature header is missing\n",
    ],
    [
      "a public key for a secret scheme: the wrong kind of secret",
      muxRequest(),
      { secret: undefined, publicKeyFile: "PUB" },
      T,
      "not verified: secret-kind: a public key was given, but Mux signs with the webhook's signing secret; give that secret instead\n",
    ],
  ])("%s", async (_, raw, flags, now, expected) => {
    const { stdout, error } = await verdictOf(await fromFile(raw, flags, now));
    if (typeof expected === "string") expect(stdout).toBe(expected);
    else expect(stdout).toMatch(expected);
    if (stdout === "verified\n") expect(error).toBeUndefined();
    else expect(error).toBeInstanceOf(CheckFailedError);
  });

  it("--now overrides the clock; -o json is the verdict object", async () => {
    const o = await verifyOptions(
      { ...BASE, requestFile: file("r.http", muxRequest()), secret: "s", now: T + 301 },
      fakeDeps(),
    );
    const { stdout } = await verdictOf(o, "json");
    expect(JSON.parse(stdout)).toEqual({
      verified: false,
      check: "timestamp",
      message: "the Mux-Signature timestamp t (1700000000) is 301 s old: 1 s older than the 300 s tolerance",
    });
  });

  it("a key-pair scheme: a secret is the wrong kind; its public key file verifies", async () => {
    const request = parseRawRequest(Buffer.from(muxRequest()));
    const wrong = await verdictOf({
      scheme: keyPairScheme,
      request,
      now: T,
      secret: "s3cret",
    });
    expect(wrong.stdout).toBe("not verified: secret-kind: Stand-in signs with a private key\n");
    const right = await verdictOf({ scheme: keyPairScheme, request, now: T, publicKey: "PEM\n" });
    expect(right).toEqual({ stdout: "verified\n", error: undefined });
  });

  it("reads the request from stdin (-)", async () => {
    const o = await verifyOptions(
      { ...BASE, requestFile: "-", secret: "s", now: T },
      fakeDeps({ stdin: muxRequest() }),
    );
    expect(o.request.url).toBe("https://app.example/webhooks/mux");
    expect(schemeFor("mux")!.verify({ request: o.request, secret: "s", now: T })).toEqual({ verified: true });
  });

  it.each([
    [{ provider: "aftership" as const }, /^--provider: edgectl cannot sign or verify aftership webhooks/],
    [{ requestFile: "/nonexistent/req.http" }, /^--request-file: cannot read \/nonexistent\/req\.http: ENOENT/],
  ])("refuses %j: exit 2", async (flags, message) => {
    const err = await verifyOptions({ ...BASE, secret: "s", ...flags }, fakeDeps()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
  });
});

describe("edgectl webhook verify (in-process): exit 0 / 1 / 2, the verdict on stdout", () => {
  const sandbox = appSandbox();
  afterAll(() => sandbox.cleanup());
  const verifyCli = (input: string, ...more: string[]) =>
    sandbox.run(["webhook", "verify", "--provider", "mux", "--request-file", "-", "--secret", "s", ...more], { input });

  it("verified → 0; stale → 1 with the verdict; not a request → 2 with stdout empty", async () => {
    expect(await verifyCli(muxRequest(), "--now", String(T))).toEqual({ exitCode: 0, stdout: "verified", stderr: "" });
    const stale = await verifyCli(muxRequest(), "--now", String(T + 400));
    expect(stale.exitCode).toBe(1);
    expect(stale.stdout).toBe(
      "not verified: timestamp: the Mux-Signature timestamp t (1700000000) is 400 s old: 100 s older than the 300 s tolerance",
    );
    expect(stale.stderr).toBe("error: the request is not verified as Mux signs (timestamp)");
    // -o json: the verdict on stdout, the error kind "check" (exit 1, as a test runner's)
    const json = await verifyCli(muxRequest(), "--now", String(T + 400), "-o", "json");
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ verified: false, check: "timestamp" });
    expect(JSON.parse(json.stderr)).toEqual({
      error: { kind: "check", message: "the request is not verified as Mux signs (timestamp)" },
    });
    const bad = await verifyCli("not a request", "--now", String(T));
    expect(bad).toMatchObject({ exitCode: 2, stdout: "" });
    expect(bad.stderr).toMatch(/^error: --request-file: the first line is not a request line/);
  });
});

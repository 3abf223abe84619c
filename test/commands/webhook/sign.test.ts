// `edgectl webhook sign`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps (an injected clock, a stand-in scheme for a secret-valued header),
// `--send` to a node:http server on 127.0.0.1:0 in-process, and the whole CLI in-process for the
// exit codes. The schemes themselves are held by test/webhooks/ (vectors, roundtrip).
import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, sign, signOptions, type SignFlags, type SignOptions } from "../../../src/commands/webhook/sign.js";
import { ApiError, NetworkError, UsageError } from "../../../src/errors.js";
import { schemeFor } from "../../../src/webhooks/index.js";
import type { Scheme } from "../../../src/webhooks/scheme.js";
import { useScratch } from "../../e2e/support.js";
import { appSandbox } from "../../helpers/app.js";
import { fakeDeps } from "../fake-deps.js";
import { parse, refusal } from "../parse.js";

const BASE: SignFlags = {
  provider: "linear",
  secretStdin: false,
  secretFile: undefined,
  secret: undefined,
  stdin: undefined,
  body: undefined,
  bodyFile: undefined,
  privateKeyFile: undefined,
  url: undefined,
  timestamp: undefined,
  contentType: undefined,
  id: undefined,
  send: false,
  showSecret: false,
};

describe("webhook sign argv → options", () => {
  it.each([
    [["--provider", "Linear", "--body", "{}", "--secret", "s"], { body: "{}", secret: "s" }],
    [
      ["-", "--provider", "mux", "--secret-file", "f", "--timestamp", "1700000000", "--url", "http://127.0.0.1:3000/h"],
      { provider: "mux", stdin: "-", secretFile: "f", timestamp: 1700000000, url: "http://127.0.0.1:3000/h" },
    ],
    [
      [
        "--provider",
        "worldline",
        "--body-file",
        "b.json",
        "--id",
        "key-1",
        "--content-type",
        "text/plain",
        "--send",
        "--url",
        "http://x/",
        "--show-secret",
      ],
      {
        provider: "worldline",
        bodyFile: "b.json",
        id: "key-1",
        contentType: "text/plain",
        send: true,
        url: "http://x/",
        showSecret: true,
      },
    ],
  ])("reads %j", async (argv, options) => {
    expect((await parse(sign, argv)).options).toEqual({ ...BASE, ...options });
  });

  it.each([
    [["--provider", "linear", "--secret", "s"], "--body, --body-file, -: give the body (one of them)"],
    [
      ["--provider", "linear", "--body", "a", "--body-file", "f"],
      "--body, --body-file, -: give the body from only one source",
    ],
    [
      ["-", "--provider", "linear", "--secret-stdin"],
      "- and --secret-stdin: stdin can hold the body or the secret, not both",
    ],
    [["--provider", "linear", "--body", "a", "--send"], "--send: give --url, the address to POST to"],
    [["--provider", "linear", "--body", "a", "--timestamp", "soon"], /^--timestamp: .*must be a Unix time in seconds/],
    [["--provider", "linear", "--body", "a", "--url", "ftp://x/"], /^--url: .*must be an http:\/\/ or https:\/\/ URL/],
    [["body.json", "--provider", "linear"], /give - to read the body from stdin/],
    [["--provider", "githb", "--body", "a"], /did you mean "github"/],
  ])("refuses %j", async (argv, message) => {
    const err = await refusal(sign, argv);
    if (typeof message === "string") expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });
});

const hex = (secret: string, ...parts: string[]) => {
  const mac = createHmac("sha256", secret);
  for (const p of parts) mac.update(p);
  return mac.digest("hex");
};

async function usage(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("expected a UsageError");
}

/** A provider whose header is the secret itself, as GitLab's X-Gitlab-Token is. */
const tokenScheme: Scheme = {
  provider: "stand-in",
  name: "Stand-in",
  headers: ["X-Token"],
  key: "secret",
  sources: ["test"],
  secretHeaders: ["X-Token"],
  sign: (input) => ({ "X-Token": input.secret! }),
  verify: () => ({ verified: true }),
};

const options = (o: Partial<SignOptions>): SignOptions => ({
  scheme: schemeFor("linear")!,
  body: Buffer.from("{}"),
  secret: "s",
  url: "http://localhost/",
  timestamp: 1_700_000_000,
  contentType: "application/json",
  send: false,
  showSecret: false,
  ...o,
});

describe("webhook sign: options + stand-ins → output", () => {
  const { file } = useScratch("edgectl-webhook-sign-");

  it("prints the delivery's headers as Name: value lines, at the injected clock's time", async () => {
    const deps = Object.assign(fakeDeps(), { now: () => 1_700_000_000_999 });
    await run(await signOptions({ ...BASE, body: '{"action":"create"}', secret: "s3cret" }, deps), deps);
    expect(deps.out.text).toBe(
      [
        "Content-Type: application/json",
        `Linear-Signature: ${hex("s3cret", '{"action":"create"}')}`,
        "Linear-Timestamp: 1700000000000",
        "",
      ].join("\n"),
    );
  });

  it("-o json: {method, url, headers, body}; a body that is not JSON is form-encoded by default", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    const path = file("form.txt", "a=1&b=2");
    await run(
      await signOptions(
        {
          ...BASE,
          provider: "mux",
          bodyFile: path,
          secret: "s",
          timestamp: 1_600_000_000,
          url: "https://app.example/h",
        },
        deps,
      ),
      deps,
    );
    expect(JSON.parse(deps.out.text)).toEqual({
      method: "POST",
      url: "https://app.example/h",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Mux-Signature": `t=1600000000,v1=${hex("s", "1600000000.", "a=1&b=2")}`,
      },
      body: "a=1&b=2",
    });
  });

  it("reads the body from stdin (-) and the secret from EDGECTL_WEBHOOK_SECRET", async () => {
    const deps = fakeDeps({ stdin: "payload", env: { EDGECTL_WEBHOOK_SECRET: "envkey" } });
    const o = await signOptions({ ...BASE, provider: "bitbucket", stdin: "-", contentType: "text/plain" }, deps);
    expect(o).toMatchObject({ secret: "envkey", contentType: "text/plain" });
    expect(o.body.toString()).toBe("payload");
  });

  it("masks a header whose value is the secret unless --show-secret", async () => {
    const hidden = fakeDeps();
    await run(options({ scheme: tokenScheme, secret: "tok" }), hidden);
    expect(hidden.out.text).toBe("Content-Type: application/json\nX-Token: ********\n");
    const shown = fakeDeps();
    await run(options({ scheme: tokenScheme, secret: "tok", showSecret: true }), shown);
    expect(shown.out.text).toContain("X-Token: tok\n");
  });

  it.each([
    [
      { provider: "aftership" as const, body: "x", secret: "s" },
      /^--provider: edgectl cannot sign or verify aftership webhooks/,
    ],
    [{ body: "x", privateKeyFile: "k.pem" }, /^--private-key-file: Linear signs with a shared secret/],
    [{ body: "x" }, /^--secret-stdin, --secret-file, --secret: provider linear needs a secret/],
    [
      { bodyFile: "/nonexistent/body.json", secret: "s" },
      /^--body-file: cannot read \/nonexistent\/body\.json: ENOENT/,
    ],
  ])("refuses %j: exit 2 (usage), nothing signed", async (flags, message) => {
    expect(await usage(signOptions({ ...BASE, ...flags }, fakeDeps()))).toMatch(message);
  });
});

describe("webhook sign: the whole delivery (signDelivery), not only headers", () => {
  it("Twilio, a JSON body: the URL carries bodySHA256 (-o json), and verify accepts that delivery", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    const body = '{"CallSid":"CA1"}';
    await run(
      await signOptions(
        { ...BASE, provider: "twilio", body, secret: "authtoken", url: "https://app.example/voice" },
        deps,
      ),
      deps,
    );
    const made = JSON.parse(deps.out.text) as { url: string; headers: Record<string, string>; body: string };
    // twilio-node lib/webhooks/webhooks.ts validateRequestWithBody: bodySHA256 = hex SHA-256 of the body
    expect(made.url).toBe(`https://app.example/voice?bodySHA256=${createHash("sha256").update(body).digest("hex")}`);
    expect(deps.warnings.join("\n")).toContain(`Twilio delivers to ${made.url}`);
    const request = { method: "POST", url: made.url, headers: made.headers, body: Buffer.from(made.body) };
    expect(schemeFor("twilio")!.verify({ request, secret: "authtoken", now: 0 })).toEqual({ verified: true });
  });
});

describe("webhook sign: a scheme that cannot sign", () => {
  it("Mailgun (its signature is inside the body) is exit 2 saying so, nothing printed", async () => {
    const deps = fakeDeps();
    const o = await signOptions({ ...BASE, provider: "mailgun", body: "{}", secret: "k" }, deps);
    expect(await usage(run(o, deps))).toMatch(/^--provider mailgun: Mailgun puts its signature inside the body/);
    expect(deps.out.text).toBe("");
  });
});

describe("webhook sign --send: a POST to a node:http server on 127.0.0.1:0", () => {
  let server: Server;
  let url: string;
  let status = 204;
  const heard: { method?: string; headers?: IncomingHttpHeaders; body?: Buffer }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        heard.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?x=1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends the body's bytes with the signed headers (the real secret header), prints the status: 2xx resolves", async () => {
    status = 204;
    const deps = fakeDeps();
    const body = Buffer.from('{"n":"\u00e9"}');
    await run(options({ url, body, send: true }), deps);
    expect(deps.out.text).toBe("204 No Content\n");
    const got = heard.at(-1)!;
    expect(got.method).toBe("POST");
    expect(got.body).toEqual(body);
    expect(got.headers!["content-type"]).toBe("application/json");
    // What the app heard verifies as Linear verifies.
    const verdict = schemeFor("linear")!.verify({
      request: { method: "POST", url, headers: got.headers as Record<string, string>, body: got.body! },
      secret: "s",
      now: 1_700_000_000,
    });
    expect(verdict).toEqual({ verified: true });
    await run(options({ scheme: tokenScheme, secret: "tok", url, send: true }), fakeDeps());
    expect(heard.at(-1)!.headers!["x-token"]).toBe("tok");
  });

  it("a non-2xx answer is exit 1 (ApiError with the status), the status still on stdout; -o json says it", async () => {
    status = 500;
    const deps = fakeDeps({ settings: { output: "json" } });
    const err = await run(options({ url, send: true }), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).statusCode).toBe(500);
    expect(JSON.parse(deps.out.text)).toMatchObject({
      status: 500,
      status_text: "Internal Server Error",
      request: { url },
    });
  });

  it("nothing listening is a network error (exit 3)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await run(options({ url: `http://127.0.0.1:${port}/`, send: true }), fakeDeps()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/could not POST to http:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED/);
  });
});

describe("edgectl webhook sign (in-process)", () => {
  const sandbox = appSandbox();
  afterAll(() => sandbox.cleanup());

  it("exits 0 with the headers on stdout, 2 naming a provider it cannot sign", async () => {
    const ok = await sandbox.run(["webhook", "sign", "--provider", "pagerduty", "--body", "{}", "--secret", "k"]);
    expect(ok).toEqual({
      exitCode: 0,
      stdout: `Content-Type: application/json\nX-PagerDuty-Signature: v1=${hex("k", "{}")}`,
      stderr: "",
    });
    const no = await sandbox.run(["webhook", "sign", "--provider", "aftership", "--body", "{}", "--secret", "k"]);
    expect(no.exitCode).toBe(2);
    expect(no.stdout).toBe("");
    expect(no.stderr).toMatch(/^error: --provider: edgectl cannot sign or verify aftership webhooks/);
  });
});

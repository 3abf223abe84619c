// What the traffic port hands the policy engine and does with its outcomes, through the real
// evaluator (src/policy/evaluate, loaded as src/emulator/traffic/engine.ts loads it) wrapped to
// record what it is handed and, where a test needs an outcome no policy here gives, to script
// one: the client address, the clock, per-endpoint state, the body when a policy reads it, the
// JWKS a policy names, the signed-in identity, the webhook schemes; and each outcome as ngrok
// answers it, scripted and from real policies.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../src/emulator/server.js";
import { StartError } from "../../../src/emulator/start-error.js";
import type { EvalContext, EvalRequest, Outcome, PolicyEngine } from "../../../src/emulator/traffic/engine.js";
import { createState, evaluateRequest, evaluateResponse } from "../../../src/policy/evaluate/index.js";
import { endpoint, forwardTo, send, trafficEmulator, upstream } from "./helpers.js";

const NOW = new Date("2026-12-01T10:00:00Z");
interface Call {
  req: EvalRequest;
  ctx: EvalContext;
}
const calls: Call[] = [];
/** The outcome the scripted engine gives, by the request's path; none: the evaluator's own. */
let script: (req: EvalRequest, ctx: EvalContext) => Outcome | undefined = () => undefined;
/** The real evaluator, recording what it is handed, with an outcome scripted where a test needs one. */
const engine: PolicyEngine = {
  createState,
  // A stand-in scheme (src/webhooks' own are tested there): signed when the header says so.
  schemes: (provider) =>
    provider === "github"
      ? {
          key: "secret",
          verify: ({ request, secret }) =>
            request.headers["x-hub-signature-256"] === `sha256=${secret}`
              ? { verified: true }
              : { verified: false, check: "signature", message: "the signature does not match" },
        }
      : undefined,
  evaluateRequest(policy, req, ctx) {
    calls.push({ req, ctx });
    const outcome = script(req, ctx);
    if (outcome) {
      const rule = "scripted";
      const trace = [
        {
          phase: "on_http_request" as const,
          rule,
          place: rule,
          ran: true,
          reached: true,
          expressions: [],
          actions: [],
        },
      ];
      return { outcome, request: req, trace, vars: {}, units: 0 };
    }
    return evaluateRequest(policy, req, ctx);
  },
  evaluateResponse(...args) {
    if (responseThrows) throw new Error("the response phase broke");
    return evaluateResponse(...args);
  },
};
/** The response phase's evaluation throws (a bug of the engine's, as the traffic port meets it). */
let responseThrows = false;

let dir: string;
let app: Awaited<ReturnType<typeof upstream>>;
let emu: Emulator & { lines: string[] };
let t: string;
/** --jwks: the jku URL a policy names (its issuer's, never fetched) and the local file serving it. */
const JKU = "https://issuer.example/.well-known/jwks.json";
let jwksFile: string;
// ES256 keys (RFC 7518 §3.4: P-256, SHA-256, the signature as R || S), made here.
const keyA = generateKeyPairSync("ec", { namedCurve: "P-256" });
const keyB = generateKeyPairSync("ec", { namedCurve: "P-256" });
const jwksOf = (k: { publicKey: KeyObject }) =>
  JSON.stringify({ keys: [{ ...k.publicKey.export({ format: "jwk" }), kid: "k1", alg: "ES256", use: "sig" }] });
function jwt(privateKey: KeyObject): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const claims = { iss: "https://issuer.example/", aud: "api", exp: NOW.getTime() / 1000 + 60 };
  const head = `${enc({ alg: "ES256", typ: "JWT", kid: "k1" })}.${enc(claims)}`;
  return `${head}.${sign("sha256", Buffer.from(head), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}
const by = (action: string) => ({ phase: "on_http_request", rule: "r", action });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "edgectl-traffic-"));
  app = await upstream();
  jwksFile = join(dir, "jwks.json");
  await writeFile(jwksFile, jwksOf(keyA));
  emu = await trafficEmulator({
    engine,
    clock: () => NOW,
    upstreams: { "https://app.internal": app.url },
    jwks: { [JKU]: jwksFile },
    logRequests: join(dir, "requests.jsonl"),
  });
  t = emu.trafficUrl!;
  await endpoint(emu, "https://a.example.com", forwardTo("https://app.internal"));
  await endpoint(emu, "https://b.example.com", forwardTo("https://app.internal"));
  await endpoint(
    emu,
    "https://answers.example.com",
    forwardTo("https://app.internal", {
      on_http_response: [{ actions: [{ type: "add-headers", config: { headers: { "x-seen": "1" } } }] }],
    }),
  );
  await endpoint(emu, "https://hooks.example.com", {
    on_http_request: [
      { actions: [{ type: "verify-webhook", config: { provider: "github", secret: "s3cret" } }] },
      { actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
    ],
  });
  await endpoint(emu, "https://jwt.example.com", {
    on_http_request: [
      {
        actions: [
          {
            type: "jwt-validation",
            config: {
              issuer: { allow_list: [{ value: "https://issuer.example.com" }] },
              audience: { allow_list: [{ value: "api" }] },
              http: { tokens: [{ type: "jwt", method: "header", name: "Authorization", prefix: "Bearer " }] },
              jws: {
                allowed_algorithms: ["RS256"],
                keys: {
                  sources: {
                    additional_jkus: [`${app.url}/jwks`, "https://far.example.com/jwks"],
                  },
                },
              },
            },
          },
        ],
      },
      { actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
    ],
  });
});
afterAll(async () => {
  await emu.close();
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe("what the engine is handed", () => {
  it("the client address (X-Forwarded-For on loopback), the clock, the full URL, one state per endpoint kept across requests", async () => {
    calls.length = 0;
    script = () => undefined;
    await send(t, { host: "a.example.com", path: "/p?q=1", headers: { "x-forwarded-for": "203.0.113.9" } });
    await send(t, { host: "a.example.com" });
    await send(t, { host: "b.example.com" });
    const [first, second, third] = calls;
    expect(first!.req.clientIp).toBe("203.0.113.9");
    expect(first!.req.headers["x-forwarded-for"]).toBeUndefined();
    expect(second!.req.clientIp).toBe("127.0.0.1");
    expect(first!.req.time).toEqual(NOW);
    expect(first!.req.url).toBe("https://a.example.com/p?q=1");
    expect([first!.ctx.protocol, first!.ctx.kind]).toEqual(["https", "public"]);
    expect(second!.ctx.state).toBe(first!.ctx.state);
    expect(third!.ctx.state).not.toBe(first!.ctx.state);
    // A body no action reads streams past the engine.
    expect(first!.req.body.length).toBe(0);
  });

  it("the body, when a policy reads it (verify-webhook), and the upstream still gets it", async () => {
    calls.length = 0;
    app.seen.length = 0;
    script = () => ({ kind: "forward", url: "https://app.internal", by: by("forward-internal") });
    await send(t, {
      host: "hooks.example.com",
      method: "POST",
      body: '{"zen":"x"}',
      headers: { "content-type": "application/json" },
    });
    expect(calls[0]!.req.body.toString()).toBe('{"zen":"x"}');
    expect(app.seen[0]!.body).toBe('{"zen":"x"}');
  });

  it("the JWKS a jwt-validation names: a loopback URL fetched (once), any other URL left out", async () => {
    calls.length = 0;
    app.seen.length = 0;
    script = () => ({ kind: "deny", status: 401, by: by("jwt-validation") });
    await send(t, { host: "jwt.example.com" });
    await send(t, { host: "jwt.example.com" });
    const keys = calls[0]!.ctx.jwtKeys as Record<string, unknown>;
    expect(keys).toEqual({
      // The stand-in app answers every GET with its echo: here, that JSON is the key set.
      [`${app.url}/jwks`]: { method: "GET", url: "/jwks", body: "" },
    });
    expect(calls[1]!.ctx.jwtKeys).toEqual(keys);
    // Cached, as ngrok caches them (~15 minutes, actions/jwt-validation.mdx:146).
    expect(app.seen.filter((r) => r.url === "/jwks")).toHaveLength(1);
  });
});

describe("each outcome, as ngrok answers it", () => {
  it.each<[string, Outcome, number, string | undefined]>([
    // restrict-ips: 403 (actions/restrict-ips.mdx:86) with ERR_NGROK_3205 (errors/err_ngrok_3205.mdx).
    ["restrict-ips", { kind: "deny", status: 403, by: by("restrict-ips") }, 403, "ERR_NGROK_3205"],
    // verify-webhook: 403 (snippets/…/verify-webhook/behavior.mdx:8), ERR_NGROK_3204.
    ["verify-webhook", { kind: "deny", status: 403, by: by("verify-webhook") }, 403, "ERR_NGROK_3204"],
    // deny "will not send back a response body" (actions/deny.mdx).
    ["deny", { kind: "deny", status: 429, by: by("deny") }, 429, undefined],
    [
      "basic-auth, with its headers",
      { kind: "deny", status: 401, headers: { "www-authenticate": ['Basic realm="ngrok"'] }, by: by("basic-auth") },
      401,
      undefined,
    ],
    [
      "redirect",
      { kind: "redirect", status: 301, url: "https://elsewhere.example.com/", headers: {}, by: by("redirect") },
      301,
      undefined,
    ],
    ["unknown", { kind: "unknown", reason: "http-request has no answer" }, 500, undefined],
  ])("%s", async (_name, outcome, status, code) => {
    script = () => outcome;
    const r = await send(t, { host: "a.example.com" });
    expect(r.status).toBe(status);
    expect(r.headers["ngrok-error-code"]).toBe(code);
    if (outcome.kind === "deny" && code === undefined) expect(r.text).toBe("");
    if (outcome.kind === "deny" && outcome.headers) expect(r.headers["www-authenticate"]).toBe('Basic realm="ngrok"');
    if (outcome.kind === "redirect") expect(r.headers.location).toBe(outcome.url);
    if (outcome.kind === "unknown") expect(r.text).toContain("http-request has no answer");
  });

  it("close: the connection ends without an answer", async () => {
    script = () => ({ kind: "close", by: by("close-connection") });
    await expect(send(t, { host: "a.example.com" })).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});

describe("each outcome, from a real policy through the evaluator", () => {
  const rule = (type: string, config: Record<string, unknown>) => ({
    on_http_request: [
      { name: "r", actions: [{ type, config }] },
      { name: "forward", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
    ],
  });
  beforeAll(async () => {
    await endpoint(emu, "https://ips.example.com", rule("restrict-ips", { allow: ["203.0.113.0/24"] }));
    await endpoint(emu, "https://auth.example.com", rule("basic-auth", { credentials: ["ada:lovelace1843"] }));
    await endpoint(emu, "https://signed.example.com", rule("verify-webhook", { provider: "github", secret: "s3" }));
    await endpoint(emu, "https://slack.example.com", rule("verify-webhook", { provider: "slack", secret: "s3" }));
  });

  it.each<[string, string, Record<string, string>, number, string | undefined]>([
    // restrict-ips by the connection's address (X-Forwarded-For on loopback): 403 ERR_NGROK_3205.
    [
      "an address outside the allow list",
      "ips.example.com",
      { "x-forwarded-for": "198.51.100.1" },
      403,
      "ERR_NGROK_3205",
    ],
    ["an address inside it", "ips.example.com", { "x-forwarded-for": "203.0.113.7" }, 200, undefined],
    // basic-auth/behavior.mdx: 401 without the credentials, through with them.
    ["no credentials", "auth.example.com", {}, 401, undefined],
    ["the credentials", "auth.example.com", { authorization: `Basic ${btoa("ada:lovelace1843")}` }, 200, undefined],
    // verify-webhook with the engine's schemes: 403 ERR_NGROK_3204 when the signature fails.
    ["a bad signature", "signed.example.com", { "x-hub-signature-256": "sha256=wrong" }, 403, "ERR_NGROK_3204"],
    ["a good one", "signed.example.com", { "x-hub-signature-256": "sha256=s3" }, 200, undefined],
    // A provider the engine has no scheme for: unknown (500), never a guess.
    ["a provider without a scheme", "slack.example.com", {}, 500, undefined],
  ])("%s", async (_name, host, headers, status, code) => {
    script = () => undefined;
    const r = await send(t, { host, method: "POST", body: "{}", headers });
    expect([r.status, r.headers["ngrok-error-code"]]).toEqual([status, code]);
    if (status === 401) expect(r.headers["www-authenticate"]).toMatch(/^Basic realm=/);
    if (status === 500) expect(r.text).toContain("cannot verify provider slack");
  });
});

describe("--jwks <url>=<file>: a jku URL served from a local file", () => {
  beforeAll(async () => {
    await endpoint(emu, "https://keys.example.com", {
      on_http_request: [
        {
          name: "jwt",
          actions: [
            {
              type: "jwt-validation",
              config: {
                issuer: { allow_list: [{ value: "https://issuer.example/" }] },
                audience: { allow_list: [{ value: "api" }] },
                http: { tokens: [{ type: "jwt", method: "header", name: "Authorization", prefix: "Bearer " }] },
                jws: { allowed_algorithms: ["ES256"], keys: { sources: { additional_jkus: [JKU] } } },
              },
            },
          ],
        },
        { name: "forward", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
      ],
    });
  });
  const withToken = (token: string) =>
    send(t, { host: "keys.example.com", headers: { authorization: `Bearer ${token}` } });
  /** Rewrites the key file, moving its mtime on: kernel timestamps are coarse (a clock tick), so two writes a few ms apart may share one. */
  async function rewrite(text: string): Promise<void> {
    const before = (await stat(jwksFile)).mtime;
    await writeFile(jwksFile, text);
    const after = new Date(before.getTime() + 10_000);
    await utimes(jwksFile, after, after);
  }

  it("a token signed by the file's key passes; another key's is refused with 403; an edited file counts on the next request", async () => {
    script = () => undefined;
    app.seen.length = 0;
    // behavior.mdx:5 "allowed only if it has been correctly signed by the issuer".
    expect((await withToken(jwt(keyA.privateKey))).status).toBe(200);
    // "Reject requests with an invalid token with a `403 Forbidden` error" (gateway/api-gateway/get-started.mdx:328);
    // no ERR_NGROK code is documented for it.
    const refused = await withToken(jwt(keyB.privateKey));
    expect([refused.status, refused.headers["ngrok-error-code"]]).toEqual([403, undefined]);
    expect(app.seen).toHaveLength(1);
    // Keys rotated in the file: B's now, A's no longer.
    await rewrite(jwksOf(keyB));
    expect((await withToken(jwt(keyB.privateKey))).status).toBe(200);
    expect((await withToken(jwt(keyA.privateKey))).status).toBe(403);
    // A file that turns bad serves no keys (the old ones are not kept): the token cannot be checked.
    await rewrite("{");
    const broken = await withToken(jwt(keyB.privateKey));
    expect(broken.status).toBe(500);
    expect(broken.text).toContain(`no keys given for ${JKU}`);
    await rewrite(jwksOf(keyA));
    expect((await withToken(jwt(keyA.privateKey))).status).toBe(200);
    expect(app.seen).toHaveLength(3);
  });

  it.each([
    ["missing", undefined, "cannot be read (ENOENT)"],
    ["not JSON", "{keys:", "is not JSON ("],
    ["a PEM key", keyA.publicKey.export({ type: "spki", format: "pem" }), "is a PEM file, not a JWKS"],
    [
      "one JWK",
      JSON.stringify(keyA.publicKey.export({ format: "jwk" })),
      'is one JWK, not a JWKS: put it in {"keys": [ … ]}',
    ],
    ["not a JWKS", '{"key": []}', 'is not a JWKS: {"keys": [...]} expected'],
    ["a key without kty", '{"keys": [{"kty": "EC"}, {"x": "1"}]}', 'is not a JWKS: keys[1] is not a JWK (no "kty")'],
  ])("refuses to start when the file is %s, naming it (a usage error: exit 2)", async (_name, text, problem) => {
    const file = join(dir, `bad-${_name.replace(/\W/g, "-")}.json`);
    if (text !== undefined) await writeFile(file, text);
    const err = await startEmulator({ port: 0, trafficPort: 0, engine, jwks: { [JKU]: file } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartError);
    expect((err as StartError).message).toContain(`--jwks ${JKU}: ${file} ${problem}`);
  });
});

describe("sign-in (oauth, openid-connect)", () => {
  it("sends the browser to the emulator's page, which signs in as the email asked for and returns with a session cookie", async () => {
    calls.length = 0;
    app.seen.length = 0;
    script = (_req, ctx) =>
      ctx.identity
        ? undefined
        : {
            kind: "redirect",
            status: 302,
            url: "https://accounts.google.com/o/oauth2/auth?x",
            headers: {},
            by: by("oauth"),
          };
    const first = await send(t, { host: "a.example.com", path: "/dash?tab=1" });
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe("/__edgectl/signin?return=%2Fdash%3Ftab%3D1&provider=oauth");
    const page = await send(t, { host: "a.example.com", path: first.headers.location });
    expect(page.text).toContain('<form method="get" action="/__edgectl/signin">');
    const signed = await send(t, { host: "a.example.com", path: `${first.headers.location}&email=ada%40example.com` });
    expect(signed.status).toBe(302);
    expect(signed.headers.location).toBe("/dash?tab=1");
    const cookie = signed.headers["set-cookie"]![0]!.split(";")[0]!;
    expect(cookie).toMatch(/^__edgectl_session=/);
    const back = await send(t, {
      host: "a.example.com",
      path: "/dash?tab=1",
      headers: { cookie: `${cookie}; theme=dark` },
    });
    expect(back.status).toBe(200);
    expect(calls.at(-1)!.ctx.identity).toEqual({ email: "ada@example.com", name: "ada", provider: "oauth" });
    // The session cookie is the emulator's own: the app gets the others only.
    expect(app.seen.at(-1)!.headers.cookie).toBe("theme=dark");
    // An open redirect is refused: return= names a path on this host only.
    const away = await send(t, {
      host: "a.example.com",
      path: "/__edgectl/signin?email=x%40y.z&return=//evil.example",
    });
    expect(away.headers.location).toBe("/");
  });
});

describe("the request log", () => {
  it("a request whose handling throws is answered 500 naming the error, and has its line too", async () => {
    script = () => {
      throw new Error("the engine broke");
    };
    emu.lines.length = 0;
    const r = await send(t, { host: "a.example.com", path: "/throws" });
    expect([r.status, r.text]).toEqual([500, "edgectl emulator: the engine broke\n"]);
    expect(emu.lines).toHaveLength(1);
    expect(emu.lines[0]).toMatch(/^traffic: GET https:\/\/a\.example\.com\/throws .*; error; 500; [\d.]+ ms\n$/);
    script = () => undefined;
  });

  it("so does one whose on_http_response throws, after its upstream answered", async () => {
    emu.lines.length = 0;
    expect((await send(t, { host: "answers.example.com", path: "/ok" })).headers["x-seen"]).toBe("1");
    responseThrows = true;
    try {
      const r = await send(t, { host: "answers.example.com", path: "/throws" });
      expect([r.status, r.text]).toEqual([500, "edgectl emulator: the response phase broke\n"]);
    } finally {
      responseThrows = false;
    }
    expect(emu.lines).toHaveLength(2);
    expect(emu.lines[1]).toMatch(/^traffic: GET https:\/\/answers\.example\.com\/throws .*; error; 500; [\d.]+ ms\n$/);
  });

  it("one line per request on stderr, and the same as JSON lines in --log-requests' file", async () => {
    script = () => undefined;
    emu.lines.length = 0;
    await send(t, { host: "a.example.com", path: "/logged" });
    expect(emu.lines).toHaveLength(1);
    expect(emu.lines[0]).toMatch(
      /^traffic: GET https:\/\/a\.example\.com\/logged from 127\.0\.0\.1 → https:\/\/a\.example\.com → https:\/\/app\.internal → http:\/\/127\.0\.0\.1:\d+; rules: forward; forward by forward \(forward-internal\); 200; [\d.]+ ms\n$/,
    );
    await emu.close();
    const records = (await readFile(join(dir, "requests.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.at(-1)).toMatchObject({
      time: NOW.toISOString(),
      method: "GET",
      url: "https://a.example.com/logged",
      client_ip: "127.0.0.1",
      endpoints: ["https://a.example.com", "https://app.internal"],
      rules: ["forward"],
      outcome: "forward",
      by: { phase: "on_http_request", rule: "forward", action: "forward-internal" },
      status: 200,
    });
    expect(records.find((r) => r.error_code === "ERR_NGROK_3205")).toMatchObject({ status: 403, outcome: "deny" });
  });
});

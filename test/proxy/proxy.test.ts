// HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case), end to end: the real CLI talks to an
// HTTPS server on 127.0.0.1 (a certificate made here with openssl, trusted through
// NODE_EXTRA_CA_CERTS) through a CONNECT proxy that records every tunnel and every byte it
// relays; and a plain-http loopback server, which is never reached through a proxy. What needs
// no certificate (a proxy URL refused before anything is sent, the plain-http API) runs the CLI
// in-process: the certificate is what needs a process, read at its start-up.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { sandbox, type CliSandbox, type RunOptions } from "../helpers/cli.js";
import { startConnectProxy, type ConnectProxy } from "../helpers/connect-proxy.js";
import { parseJsonError, runCli } from "../e2e/support.js";
import { FB, makeCert, startHttpApi, startHttpsApi, type ApiServer, type TestCert } from "./support.js";

const KEY = "key_proxy_NEVER_IN_CLEAR_31337";
const SECRET = "whsec_proxy_NEVER_IN_CLEAR_4242";
const GET = ["failover", "get", "bkdfo_x"];
const REPLACE = [
  "webhook-verification",
  "replace",
  "edghts_e1",
  "edghtsrt_r1",
  "--provider",
  "github",
  "--secret",
  SECRET,
];
const b64 = (s: string) => Buffer.from(s).toString("base64");

let cli: CliSandbox;
let app: AppSandbox;
let proxy: ConnectProxy;
beforeAll(async () => {
  cli = sandbox();
  app = appSandbox();
  proxy = await startConnectProxy();
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  await proxy?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  cli?.cleanup();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  app?.cleanup();
});

describe("an https API (self-signed certificate for localhost and 127.0.0.1)", () => {
  let cert: TestCert;
  let api: ApiServer;
  beforeAll(async () => {
    cert = await makeCert();
    api = await startHttpsApi(cert);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await api?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    cert?.cleanup();
  });
  beforeEach(() => {
    proxy.reset();
    api.requests.length = 0;
  });

  const run = (args: string[], env: Record<string, string> = {}, opts: RunOptions = {}) =>
    runCli(cli, args, {
      ...opts,
      env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: api.url, NODE_EXTRA_CA_CERTS: cert.certFile, ...env },
    });

  /** The whole exchange went through one tunnel to the API and the API answered. */
  function expectTunnelled(): void {
    expect(proxy.connects.map((c) => [c.target, c.status])).toEqual([[`localhost:${api.port}`, 200]]);
    expect(proxy.plainRequests).toEqual([]);
    expect(api.requests).toHaveLength(1);
    // The tunnel carried TLS records (a handshake starts with 0x16), never the request itself.
    expect(proxy.sent[0]![0]).toBe(0x16);
    expect(proxy.relayed().toString("latin1")).not.toContain("GET /backends");
  }

  it("the certificate set-up works without a proxy (control)", async () => {
    const r = await run([...GET, "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FB("bkdfo_x"));
    expect(proxy.connects).toEqual([]);
  });

  it.each(["HTTPS_PROXY", "https_proxy"])(
    "%s routes the request through the proxy with CONNECT localhost:<port>",
    async (name) => {
      const r = await run([...GET, "-o", "json"], { [name]: proxy.url });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(FB("bkdfo_x"));
      expectTunnelled();
      const req = api.requests[0]!;
      expect([req.method, req.path]).toEqual(["GET", "/backends/failover/bkdfo_x"]);
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      // The CONNECT itself carries no credentials of the API.
      const connect = proxy.connects[0]!.headers;
      expect(connect.host).toBe(`localhost:${api.port}`);
      expect(connect.authorization).toBeUndefined();
      expect(connect["proxy-authorization"]).toBeUndefined();
      expect(JSON.stringify(connect)).not.toContain(KEY);
    },
  );

  it("a proxy given without a scheme (host:port) is taken as http://", async () => {
    const r = await run(GET, { HTTPS_PROXY: `127.0.0.1:${proxy.port}` });
    expect(r.exitCode).toBe(0);
    expectTunnelled();
  });

  it("the relayed bytes never hold the API key or the webhook secret in clear (TLS end to end)", async () => {
    const r = await run([...REPLACE, "-o", "json"], { HTTPS_PROXY: proxy.url });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expectTunnelled();
    // The server did get both, so they did travel through the tunnel.
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ enabled: true, provider: "github", secret: SECRET });
    const relayed = proxy.relayed();
    expect(relayed.length).toBeGreaterThan(500);
    for (const needle of [KEY, SECRET, b64(KEY), b64(SECRET), "webhook_verification", "Bearer"]) {
      expect(relayed.includes(Buffer.from(needle)), needle).toBe(false);
      expect(relayed.includes(Buffer.from(needle, "utf16le")), needle).toBe(false);
    }
  });

  it("--debug through the proxy logs the exchange without the key or the secret", async () => {
    const r = await run([...REPLACE, "--debug"], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(0);
    expectTunnelled();
    expect(r.stderr).toContain(`PUT ${api.url}/edges/https/edghts_e1/routes/edghtsrt_r1/webhook_verification`);
    expect(r.stderr).toContain("Bearer ********");
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(SECRET);
    }
    expect(proxy.relayed().includes(Buffer.from(KEY))).toBe(false);
  });

  it.each([
    ["NO_PROXY=localhost", { HTTPS_PROXY: "{proxy}", NO_PROXY: "localhost" }],
    ["no_proxy=localhost,other", { https_proxy: "{proxy}", no_proxy: "localhost,other" }],
    ["NO_PROXY=*", { HTTPS_PROXY: "{proxy}", NO_PROXY: "*" }],
    ["NO_PROXY with spaces and a leading dot", { HTTPS_PROXY: "{proxy}", NO_PROXY: "example.com, .localhost" }],
    ["NO_PROXY=localhost:<the API's port>", { HTTPS_PROXY: "{proxy}", NO_PROXY: "localhost:{port}" }],
  ])("%s bypasses the proxy; the API still answers", async (_name, env) => {
    const filled = Object.fromEntries(
      Object.entries(env).map(([k, v]) => [k, v.replace("{proxy}", proxy.url).replace("{port}", String(api.port))]),
    );
    const r = await run([...GET, "-o", "json"], filled);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FB("bkdfo_x"));
    expect(proxy.connects).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it.each([
    ["another host", "example.com,api.localhost"],
    ["localhost on another port", "localhost:1"],
  ])("NO_PROXY naming %s does not bypass", async (_name, noProxy) => {
    const r = await run(GET, { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy });
    expect(r.exitCode).toBe(0);
    expectTunnelled();
  });

  it("HTTP_PROXY alone is not used for an https API", async () => {
    const r = await run(GET, { HTTP_PROXY: proxy.url, http_proxy: proxy.url });
    expect(r.exitCode).toBe(0);
    expect(proxy.connects).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it("a proxy that refuses (403): exit 3, an error naming the proxy, nothing reaches the API", async () => {
    proxy.refuseWith = 403;
    const r = await run([...GET, "--retries", "0"], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain(`proxy ${proxy.url}`);
    expect(r.stderr).toContain("403");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(proxy.connects).toHaveLength(1);
    expect(api.requests).toEqual([]);

    const j = await run([...GET, "--retries", "0", "-o", "json"], { HTTPS_PROXY: proxy.url });
    expect(j.exitCode).toBe(3);
    expect(parseJsonError(j.stderr).error).toMatchObject({
      kind: "network",
      message: expect.stringContaining(`proxy ${proxy.url}`),
    });
  });

  it("a proxy that wants credentials (407): exit 3 and the message says how to give them", async () => {
    proxy.refuseWith = 407;
    const r = await run([...GET, "--retries", "0"], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("407");
    expect(r.stderr).toContain("user:password@");
    expect(api.requests).toEqual([]);
  });

  it("a refused POST was never sent, so it says no 'may or may not' and may be repeated", async () => {
    proxy.refuseWith = 403;
    const r = await run(["failover", "create", "--backends", "bkdhr_a", "--retries", "1"], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).not.toContain("may or may not");
    expect(proxy.connects).toHaveLength(2);
    expect(api.requests).toEqual([]);
  });

  it("an unreachable proxy: exit 3 naming it, and the API is not contacted directly instead", async () => {
    const dead = await startConnectProxy();
    const deadUrl = dead.url;
    await dead.close();
    const r = await run([...GET, "--retries", "0"], { HTTPS_PROXY: deadUrl });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^error: .*proxy ${deadUrl.replace(/\./g, "\\.")}: connection refused`));
    expect(api.requests).toEqual([]);
  });

  it("a proxy that never answers the CONNECT is bounded by --timeout", async () => {
    proxy.hang = true;
    // Unbounded, the run would hang past the test's own timeout: exit 3 naming --timeout is the proof.
    const r = await run([...GET, "--timeout", "1", "--retries", "0"], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("--timeout");
    expect(api.requests).toEqual([]);
  });

  it("credentials in the proxy URL go to the proxy as Proxy-Authorization: Basic, never to the API", async () => {
    proxy.requireAuth = "proxy-user:p@ss w0rd";
    const proxyUrl = `http://proxy-user:${encodeURIComponent("p@ss w0rd")}@127.0.0.1:${proxy.port}`;
    const r = await run([...GET, "-o", "json"], { HTTPS_PROXY: proxyUrl });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expectTunnelled();
    expect(proxy.connects[0]!.headers["proxy-authorization"]).toBe(`Basic ${b64("proxy-user:p@ss w0rd")}`);
    const seen = api.requests[0]!;
    expect(seen.headers["proxy-authorization"]).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain(b64("proxy-user:p@ss w0rd"));
    expect(JSON.stringify(seen.headers)).not.toContain("proxy-user");
  });

  it("wrong proxy credentials: 407, and the password never shows in the output", async () => {
    proxy.requireAuth = "proxy-user:right";
    const r = await run([...GET, "--retries", "0", "--debug"], {
      HTTPS_PROXY: `http://proxy-user:wrong-pass-123@127.0.0.1:${proxy.port}`,
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("407");
    expect(r.stdout + r.stderr).not.toContain("wrong-pass-123");
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(proxy.connects[0]!.headers["proxy-authorization"]).toBe(`Basic ${b64("proxy-user:wrong-pass-123")}`);
  });

  it("DEBUG=* (the debug package's switch) prints nothing of the proxy URL: its password stays unseen", async () => {
    proxy.requireAuth = "proxy-user:debug-pw-777";
    const r = await run(GET, { DEBUG: "*", HTTPS_PROXY: `http://proxy-user:debug-pw-777@127.0.0.1:${proxy.port}` });
    expect(r.exitCode).toBe(0);
    expectTunnelled();
    expect(r.stderr).toBe("");
    expect(r.stdout + r.stderr).not.toContain("debug-pw-777");
  });

  it("the API's certificate is checked against the API's host, not the proxy's", async () => {
    // A certificate for localhost only, served on 127.0.0.1: wrong for https://127.0.0.1,
    // even when the proxy itself is reached as localhost.
    const nameOnly = await makeCert("DNS:localhost");
    const strict = await startHttpsApi(nameOnly);
    try {
      const env = { NODE_EXTRA_CA_CERTS: nameOnly.certFile, EDGECTL_BASE_URL: `https://127.0.0.1:${strict.port}` };
      const direct = await run([...GET, "--retries", "0"], env);
      expect(direct.exitCode).toBe(3);
      expect(direct.stderr).toMatch(/certificate|altnames/i);
      for (const proxyUrl of [`http://localhost:${proxy.port}`, proxy.url]) {
        proxy.reset();
        const r = await run([...GET, "--retries", "0"], { ...env, HTTPS_PROXY: proxyUrl });
        expect(r.exitCode, proxyUrl).toBe(3);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/certificate|altnames/i);
        expect(proxy.connects.map((c) => c.target)).toEqual([`127.0.0.1:${strict.port}`]);
      }
      expect(strict.requests).toEqual([]);

      // And by name, the same certificate is good through the proxy.
      proxy.reset();
      const ok = await run(GET, {
        ...env,
        EDGECTL_BASE_URL: `https://localhost:${strict.port}`,
        HTTPS_PROXY: proxy.url,
      });
      expect(ok.exitCode).toBe(0);
      expect(strict.requests).toHaveLength(1);
    } finally {
      await strict.close();
      nameOnly.cleanup();
    }
  });

  it("an https:// proxy is spoken to over TLS, with the API's TLS inside the tunnel", async () => {
    const tlsProxy = await startConnectProxy({ tls: { cert: cert.cert, key: cert.key } });
    try {
      tlsProxy.requireAuth = "u:pw-over-tls";
      const r = await run([...REPLACE, "-o", "json"], {
        HTTPS_PROXY: tlsProxy.url.replace("https://", "https://u:pw-over-tls@"),
      });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(tlsProxy.connects.map((c) => [c.target, c.status])).toEqual([[`localhost:${api.port}`, 200]]);
      expect(tlsProxy.relayed().includes(Buffer.from(SECRET))).toBe(false);
      expect(api.requests).toHaveLength(1);
    } finally {
      await tlsProxy.close();
    }
  });

  it.each([
    [
      "an unsupported scheme",
      { HTTPS_PROXY: "socks5://127.0.0.1:1080" },
      /HTTPS_PROXY: socks5 proxies are not supported/,
    ],
    [
      "a value that is not a URL",
      { https_proxy: "http://user:hunter2-pw@[nope" },
      /https_proxy is not a valid proxy URL/,
    ],
  ])(
    "%s is a usage error naming the variable (exit 2), never a silent direct connection",
    async (_name, env, message) => {
      // Refused before anything is sent: in-process.
      const r = await runCli(app, GET, { env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: api.url, ...env } });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain("hunter2-pw");
      expect(api.requests).toEqual([]);
      expect(proxy.connects).toEqual([]);
    },
  );
});

describe("a plain-http API on 127.0.0.1", () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startHttpApi();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await api?.close();
  });
  beforeEach(() => {
    proxy.reset();
    api.requests.length = 0;
  });
  // No certificate to trust: in-process.
  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(app, args, { env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: api.url, ...env } });

  // Plain http goes only to loopback; through a proxy the key would cross it in clear.
  it.each([
    ["HTTP_PROXY", { HTTP_PROXY: "{proxy}" }],
    ["http_proxy", { http_proxy: "{proxy}" }],
    ["HTTPS_PROXY and HTTP_PROXY", { HTTPS_PROXY: "{proxy}", HTTP_PROXY: "{proxy}" }],
    ["an unreachable HTTP_PROXY", { HTTP_PROXY: "http://127.0.0.1:1" }],
  ])(
    "%s: a loopback http API is reached directly; the proxy sees nothing, least of all the key",
    async (_name, env) => {
      const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace("{proxy}", proxy.url)]));
      const r = await run([...REPLACE, "-o", "json"], filled);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(proxy.connects).toEqual([]);
      expect(proxy.plainRequests).toEqual([]);
      expect(proxy.sent.map((b) => b.toString("latin1")).join("")).not.toContain(KEY);
      expect(api.requests).toHaveLength(1);
      expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    },
  );
});

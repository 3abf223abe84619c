// proxyFor: which proxy (if any) a target URL goes through, from the environment — the
// cases the end-to-end suite cannot reach on loopback (IPv6, other hosts, subnets).
import { describe, expect, it } from "vitest";
import { proxyFor } from "../../src/api/proxy.js";
import { UsageError } from "../../src/errors.js";

const P = "http://proxy.test:3128";
const via = (target: string, env: Record<string, string>) => proxyFor(new URL(target), env)?.href;

describe("which variable applies", () => {
  it.each([
    ["https target, HTTPS_PROXY", "https://api.ngrok.com", { HTTPS_PROXY: P }, `${P}/`],
    ["https target, https_proxy", "https://api.ngrok.com", { https_proxy: P }, `${P}/`],
    ["https target, HTTP_PROXY only", "https://api.ngrok.com", { HTTP_PROXY: P }, undefined],
    ["a plain-http target is never proxied: HTTP_PROXY", "http://127.0.0.1:8080", { HTTP_PROXY: P }, undefined],
    [
      "a plain-http target is never proxied: http_proxy and HTTPS_PROXY",
      "http://localhost:8080",
      { http_proxy: P, HTTPS_PROXY: P },
      undefined,
    ],
    [
      "https to loopback follows HTTPS_PROXY (the proxy sees only TLS)",
      "https://127.0.0.1:8443",
      { HTTPS_PROXY: P },
      `${P}/`,
    ],
    [
      "lower case wins over upper case",
      "https://api.ngrok.com",
      { https_proxy: P, HTTPS_PROXY: "http://other:1" },
      `${P}/`,
    ],
    [
      "an empty lower case does not hide the upper case",
      "https://api.ngrok.com",
      { https_proxy: "", HTTPS_PROXY: P },
      `${P}/`,
    ],
    ["no scheme means http://", "https://api.ngrok.com", { HTTPS_PROXY: "proxy.test:3128" }, `${P}/`],
    [
      "an https:// proxy",
      "https://api.ngrok.com",
      { HTTPS_PROXY: "https://proxy.test:8443" },
      "https://proxy.test:8443/",
    ],
    ["nothing set", "https://api.ngrok.com", {}, undefined],
  ])("%s", (_name, target, env, expected) => {
    expect(via(target, env)).toBe(expected);
  });

  it("keeps the credentials of the proxy URL", () => {
    const url = proxyFor(new URL("https://api.ngrok.com"), { HTTPS_PROXY: "http://u%40x:p%3Aw@proxy.test:3128" })!;
    expect([decodeURIComponent(url.username), decodeURIComponent(url.password)]).toEqual(["u@x", "p:w"]);
  });
});

describe("NO_PROXY", () => {
  const cases: [string, string, boolean][] = [
    // [target, NO_PROXY, bypassed]
    ["https://api.ngrok.com", "*", true],
    ["https://api.ngrok.com", "api.ngrok.com", true],
    ["https://api.ngrok.com", "ngrok.com", true],
    ["https://api.ngrok.com", ".ngrok.com", true],
    ["https://api.ngrok.com", "*.ngrok.com", true],
    ["https://api.ngrok.com", "API.NGROK.COM", true],
    ["https://api.ngrok.com", "grok.com", false],
    ["https://api.ngrok.com", "api.ngrok.co", false],
    ["https://api.ngrok.com", "example.com, api.ngrok.com", true],
    ["https://api.ngrok.com", "example.com\tapi.ngrok.com", true],
    ["https://api.ngrok.com", "api.ngrok.com:443", true],
    ["https://api.ngrok.com", "api.ngrok.com:8443", false],
    ["https://api.ngrok.com:8443", "api.ngrok.com:8443", true],
    ["https://127.0.0.1:8080", "127.0.0.1", true],
    ["https://127.0.0.1:8080", "127.0.0.1:8080", true],
    ["https://127.0.0.1:8080", "127.0.0.1:9090", false],
    ["https://127.0.0.1:8080", "127.0.0.0/8", true],
    ["https://127.0.0.1:8080", "127.0.0.0/24:8080", true],
    ["https://127.0.0.1:8080", "10.0.0.0/8", false],
    ["https://127.0.0.1:8080", "0.0.0.1", false],
    ["https://127.0.0.1:8080", "27.0.0.1", false],
    ["https://127.0.0.1:8080", "::1", false],
    ["https://[::1]:8080", "::1", true],
    ["https://[::1]:8080", "[::1]", true],
    ["https://[::1]:8080", "[::1]:8080", true],
    ["https://[::1]:8080", "[::1]:9090", false],
    ["https://[::1]:8080", "::/0", true],
    ["https://[::1]:8080", "127.0.0.1", false],
    ["https://localhost:8080", "localhost", true],
    ["https://localhost:8080", "127.0.0.1", false],
    ["https://localhost:8080", ".", false],
    ["https://localhost:8080", ",", false],
  ];
  it.each(cases)("%s with NO_PROXY=%j → bypassed %s", (target, noProxy, bypassed) => {
    expect(via(target, { HTTPS_PROXY: P, NO_PROXY: noProxy })).toBe(bypassed ? undefined : `${P}/`);
    expect(via(target, { https_proxy: P, no_proxy: noProxy })).toBe(bypassed ? undefined : `${P}/`);
  });

  it("a NO_PROXY match means a broken proxy setting does not matter", () => {
    expect(via("https://api.ngrok.com", { HTTPS_PROXY: "socks5://x:1", NO_PROXY: "*" })).toBeUndefined();
  });
});

describe("a proxy setting that cannot be used is a usage error, never a silent direct connection", () => {
  it.each([
    ["socks5://proxy.test:1080", /HTTPS_PROXY: socks5 proxies are not supported/],
    ["ftp://proxy.test", /HTTPS_PROXY: ftp proxies are not supported/],
    ["http://[bad", /HTTPS_PROXY is not a valid proxy URL/],
    ["http://user:s3cret-pw@exa mple:1", /HTTPS_PROXY is not a valid proxy URL/],
  ])("%s", (value, message) => {
    let err: unknown;
    try {
      proxyFor(new URL("https://api.ngrok.com"), { HTTPS_PROXY: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("s3cret-pw");
  });
});

// The traffic port end to end, in this process: endpoints made through the API, requests with
// their Host, policies run (the engine in src/emulator/traffic/engine.ts), forward-internal to a
// stored internal endpoint and on to an --upstream local server, and ngrok's errors.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../../src/emulator/server.js";
import { endpoint, forwardTo, send, trafficEmulator, upstream } from "./helpers.js";

let app: Awaited<ReturnType<typeof upstream>>;
let emu: Emulator & { lines: string[] };
let t: string;
/** A port nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  app = await upstream();
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  emu = await trafficEmulator({
    upstreams: {
      "https://app.internal": app.url,
      "https://agent.example.com": app.url,
      "https://down.internal": `http://127.0.0.1:${closedPort}`,
      // A stored Cloud Endpoint of the same URL comes first (contract): these are never used.
      "https://hooks.example.com": `http://127.0.0.1:${closedPort}`,
      "https://hooks.internal": `http://127.0.0.1:${closedPort}`,
    },
  });
  t = emu.trafficUrl!;
  // public → internal (its own policy runs) → agent endpoint (--upstream) → the local app
  await endpoint(
    emu,
    "https://hooks.example.com",
    forwardTo("https://hooks.internal", {
      on_http_response: [
        { name: "stamp", actions: [{ type: "add-headers", config: { headers: { "x-edge": "public" } } }] },
      ],
    }),
  );
  await endpoint(
    emu,
    "https://hooks.internal",
    {
      on_http_request: [
        { name: "mark", actions: [{ type: "add-headers", config: { headers: { "x-internal": "1" } } }] },
        { name: "on", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
      ],
    },
    true,
  );
  await endpoint(emu, "http://plain.example.com", forwardTo("https://app.internal"));
  await endpoint(emu, "https://*.wild.example.com", {
    on_http_request: [
      { name: "wild", actions: [{ type: "custom-response", config: { status_code: 200, body: "wildcard" } }] },
    ],
  });
  await endpoint(emu, "https://exact.wild.example.com", {
    on_http_request: [
      { name: "exact", actions: [{ type: "custom-response", config: { status_code: 200, body: "exact" } }] },
    ],
  });
  await endpoint(emu, "https://nowhere.example.com", forwardTo("https://missing.internal"));
  await endpoint(emu, "https://down.example.com", forwardTo("https://down.internal"));
});
afterAll(async () => {
  await emu.close();
  await app.close();
});

describe("the traffic port proxies to the local server", () => {
  it("through the public and the internal endpoint: method, path, query, headers, body; on_http_response over the answer", async () => {
    app.seen.length = 0;
    const r = await send(t, {
      host: "hooks.example.com",
      method: "POST",
      path: "/hooks/github?x=1&y=%20z",
      headers: { "content-type": "application/json", "x-custom": "kept" },
      body: '{"a":1}',
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ method: "POST", url: "/hooks/github?x=1&y=%20z", body: '{"a":1}' });
    expect(r.headers["x-app"]).toBe("yes");
    expect(r.headers["x-edge"]).toBe("public");
    // An upstream can never set ngrok-error-code (ngrok-docs endpoints/cloud-endpoints/http.mdx:461).
    expect(r.headers["ngrok-error-code"]).toBeUndefined();
    const seen = app.seen[0]!;
    expect(seen.headers["x-internal"]).toBe("1");
    expect(seen.headers["x-custom"]).toBe("kept");
    // forward-internal keeps the public Host (actions/forward-internal.mdx:61).
    expect(seen.headers.host).toBe("hooks.example.com");
  });

  it("sets X-Forwarded-For/-Proto/-Host as ngrok does, the client taken from X-Forwarded-For on loopback (http.mdx:396-408)", async () => {
    app.seen.length = 0;
    await send(t, { host: "hooks.example.com", headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" } });
    await send(t, { host: "hooks.example.com", headers: { "x-forwarded-host": "orig.example.net" } });
    const [a, b] = app.seen;
    expect(a!.headers["x-forwarded-for"]).toBe("198.51.100.1, 203.0.113.9");
    expect(a!.headers["x-forwarded-proto"]).toBe("https");
    expect(a!.headers["x-forwarded-host"]).toBe("hooks.example.com");
    expect(b!.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(b!.headers["x-forwarded-host"]).toBe("orig.example.net");
    expect(emu.lines.some((l) => l.includes("from 203.0.113.9"))).toBe(true);
  });

  it("takes the endpoint's host from /__edgectl/endpoint/<host>/… for a client that cannot set Host", async () => {
    app.seen.length = 0;
    const r = await send(t, { host: "127.0.0.1", path: "/__edgectl/endpoint/HOOKS.example.com/hooks/x?y=1" });
    expect(JSON.parse(r.text)).toMatchObject({ url: "/hooks/x?y=1" });
    expect(app.seen[0]!.headers.host).toBe("hooks.example.com");
    expect(app.seen[0]!.headers["x-forwarded-host"]).toBe("hooks.example.com");
  });

  it("drops hop-by-hop headers (RFC 9110 §7.6.1) and those Connection names", async () => {
    app.seen.length = 0;
    await send(t, {
      host: "hooks.example.com",
      headers: {
        connection: "keep-alive, x-hop",
        "x-hop": "gone",
        "keep-alive": "timeout=5",
        te: "trailers",
        "proxy-authorization": "Basic eDp5",
        "proxy-connection": "keep-alive",
        "x-end": "stays",
      },
    });
    const h = app.seen[0]!.headers;
    for (const name of ["x-hop", "keep-alive", "te", "proxy-authorization", "proxy-connection"])
      expect(h[name], name).toBeUndefined();
    expect(h["x-end"]).toBe("stays");
  });

  // RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no body, and
  // its upstream request is ended at once (server.ts hasBody); any other is streamed on.
  it.each([
    ["GET, no body", "GET", {}, undefined, "", undefined],
    ["POST, Content-Length: 0", "POST", { "content-length": "0" }, "", "", "0"],
    ["POST, Content-Length: 5", "POST", { "content-length": "5" }, "hello", "hello", "5"],
    ["POST, chunked", "POST", { "transfer-encoding": "chunked" }, "hello", "hello", undefined],
    ["DELETE, Content-Length: 2", "DELETE", { "content-length": "2" }, "{}", "{}", "2"],
  ] as const)(
    "the upstream gets the request's body as it came: %s",
    async (_name, method, headers, body, seen, length) => {
      app.seen.length = 0;
      const r = await send(t, { host: "agent.example.com", method, path: "/framing", headers, body });
      expect(r.status).toBe(200);
      expect(app.seen).toHaveLength(1);
      expect([app.seen[0]!.method, app.seen[0]!.body, app.seen[0]!.headers["content-length"]]).toEqual([
        method,
        seen,
        length,
      ]);
    },
  );

  it("streams the body both ways: the answer starts before the request has ended", async () => {
    const echo = await upstream();
    const streaming = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      req.on("data", (c: Buffer) => res.write(`got ${c.length};`));
      req.on("end", () => res.end("end"));
    });
    await new Promise<void>((resolve) => streaming.listen(0, "127.0.0.1", resolve));
    const local = `http://127.0.0.1:${(streaming.address() as AddressInfo).port}`;
    const e2 = await trafficEmulator({ upstreams: { "https://stream.example.com": local } });
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = http.request(`${e2.trafficUrl}/up`, {
          method: "POST",
          headers: { host: "stream.example.com", "transfer-encoding": "chunked" },
          agent: false,
        });
        req.on("error", reject);
        req.write("first");
        req.on("response", (res) => {
          let all = "";
          res.on("data", (c: Buffer) => {
            all += c.toString();
            // The second chunk goes only once the first one's echo came back through the proxy.
            if (all === "got 5;") req.end("second!");
          });
          res.on("end", () => resolve(all));
        });
      });
      expect(text).toBe("got 5;got 7;end");
      expect(e2.lines[0]).toMatch(
        /^traffic: POST https:\/\/stream\.example\.com\/up from 127\.0\.0\.1 → https:\/\/stream\.example\.com → http:\/\/127\.0\.0\.1:\d+; rules: none; forward; 200; [\d.]+ ms\n$/,
      );
    } finally {
      await e2.close();
      await new Promise((resolve) => streaming.close(resolve));
      await echo.close();
    }
  });
});

describe("which endpoint a request is for", () => {
  it.each([
    // X-Forwarded-Proto: http picks the http:// endpoint (contract, "The emulator's traffic port").
    ["plain.example.com", { "x-forwarded-proto": "http" }, 200, undefined],
    ["plain.example.com", {}, 404, "ERR_NGROK_3200"],
    // Wildcards take subdomains at any depth; the exact endpoint comes first (http.mdx:116-132).
    ["a.b.wild.example.com", {}, 200, "wildcard"],
    ["exact.wild.example.com", {}, 200, "exact"],
    ["wild.example.com", {}, 404, "ERR_NGROK_3200"],
    ["HOOKS.example.com:8443", {}, 200, undefined],
    // An --upstream mapping is an agent endpoint at its URL: no policy.
    ["agent.example.com", {}, 200, undefined],
    ["unknown.example.com", {}, 404, "ERR_NGROK_3200"],
    // An internal endpoint is never reached from outside.
    ["hooks.internal", {}, 404, "ERR_NGROK_3200"],
    ["app.internal", {}, 404, "ERR_NGROK_3200"],
  ])("Host %s %j → %i", async (host, headers, status, what) => {
    const r = await send(t, { host, headers });
    expect(r.status).toBe(status);
    if (what?.startsWith("ERR_")) expect(r.headers["ngrok-error-code"]).toBe(what);
    else if (what) expect(r.text).toBe(what);
  });
});

describe("ngrok's errors (ngrok-docs errors/)", () => {
  it("an unknown host: 404 ERR_NGROK_3200, a page for a browser and text for the rest", async () => {
    const html = await send(t, { host: "nope.example.com", headers: { accept: "text/html" } });
    expect(html.status).toBe(404);
    expect(html.headers["content-type"]).toMatch(/^text\/html/);
    expect(html.text).toContain("ERR_NGROK_3200");
    expect(html.text).toContain("The endpoint https://nope.example.com is offline.");
    const plain = await send(t, { host: "nope.example.com" });
    expect(plain.text.split("\n")[0]).toBe("ERR_NGROK_3200: The endpoint https://nope.example.com is offline.");
  });

  it("nothing behind the internal URL forward-internal names: ERR_NGROK_3200 naming it", async () => {
    const r = await send(t, { host: "nowhere.example.com" });
    expect([r.status, r.headers["ngrok-error-code"]]).toEqual([404, "ERR_NGROK_3200"]);
    expect(r.text).toContain("https://missing.internal");
  });

  it("an upstream that refuses: 502 ERR_NGROK_8012 naming its address", async () => {
    const r = await send(t, { host: "down.example.com" });
    expect([r.status, r.headers["ngrok-error-code"]]).toEqual([502, "ERR_NGROK_8012"]);
    expect(r.text).toContain(`upstream web service at 127.0.0.1:${closedPort}`);
    expect(r.text).toContain("connection refused");
  });

  it("an upstream that never answers: 504 ERR_NGROK_3005 after the bound; one that breaks off: 502 ERR_NGROK_3004", async () => {
    const silent = http.createServer((req) => {
      if (req.url === "/break") req.socket.destroy();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const local = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const e2 = await trafficEmulator({ upstreams: { "https://slow.example.com": local }, upstreamTimeoutMs: 50 });
    try {
      const r = await send(e2.trafficUrl!, { host: "slow.example.com" });
      expect([r.status, r.headers["ngrok-error-code"]]).toEqual([504, "ERR_NGROK_3005"]);
      const b = await send(e2.trafficUrl!, { host: "slow.example.com", path: "/break" });
      expect([b.status, b.headers["ngrok-error-code"]]).toEqual([502, "ERR_NGROK_3004"]);
      expect(e2.lines.map((l) => / (\d+ ERR_NGROK_\d+);/.exec(l)?.[1])).toEqual([
        "504 ERR_NGROK_3005",
        "502 ERR_NGROK_3004",
      ]);
    } finally {
      await e2.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

// ApiClient in-process against the real fault server on loopback, with an injected clock and
// sleep: what the server received, and what the client waited, with no time really waited.
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, type ClientOptions, type Method, type RequestOptions } from "../../src/api/client.js";
import { createEndpoint } from "../../src/api/endpoints.js";
import { ApiError, NetworkError } from "../../src/errors.js";
import { freePort, startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";
import { skippedTime } from "../helpers/skipped-time.js";

const KEY = "key_client_tests_Hq27Lm";
const FB = {
  id: "bkdfo_abc",
  uri: "/backends/failover/bkdfo_abc",
  created_at: "2026-01-01T00:00:00Z",
  description: "",
  metadata: "",
  backends: ["bkdhr_a"],
};

const servers: FaultServer[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
});

async function server(): Promise<FaultServer> {
  const s = await startFaultServer();
  servers.push(s);
  return s;
}

function client(baseUrl: string, options: Partial<ClientOptions> = {}) {
  const time = skippedTime();
  const debug: string[] = [];
  const c = new ApiClient({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 30_000,
    retries: 3,
    now: time.now,
    sleep: time.sleep,
    random: () => 0,
    debug: (l) => debug.push(l),
    ...options,
  });
  clients.push(c);
  return { c, waits: time.waits, debug };
}

const errorBody = (status: number, msg: string) => ({
  status_code: status,
  msg,
  details: { operation_id: `op_${status}` },
});
const status = (code: number, headers: Record<string, string> = {}): Reply => ({
  status: code,
  headers,
  body: errorBody(code, "trouble"),
});
const PATH = "/backends/failover/bkdfo_abc";

/** The error a request ended with (or the test fails). */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("the request succeeded");
}

describe("idempotent requests are retried up to --retries", () => {
  const faults: [string, () => Reply, typeof ApiError | typeof NetworkError][] = [
    ["429", () => status(429, { "Retry-After": "0" }), ApiError],
    ["502", () => status(502, { "Retry-After": "0" }), ApiError],
    ["503", () => status(503, { "Retry-After": "0" }), ApiError],
    ["504", () => status(504, { "Retry-After": "0" }), ApiError],
    ["connection reset", () => ({ reset: true }), NetworkError],
  ];
  const cases = (["GET", "PUT", "DELETE"] as Method[]).flatMap((method) =>
    faults.map(([name, reply, kind]) => [method, name, reply, kind] as const),
  );

  it.each(cases)("%s on %s: --retries 2 → 3 requests, then the error", async (method, _name, reply, kind) => {
    const s = await server();
    s.fallback = reply;
    const { c } = client(s.url, { retries: 2 });
    const err = await failure(c.request(method, PATH, { body: method === "PUT" ? { enabled: true } : undefined }));
    expect(err).toBeInstanceOf(kind);
    expect(s.requests.map((q) => q.method)).toEqual([method, method, method]);
  });

  it.each(["GET", "PUT", "DELETE"] as Method[])(
    "%s recovers: 503, reset, then success after 3 requests",
    async (method) => {
      const s = await server();
      s.script(status(503, { "Retry-After": "0" }), { reset: true }, { status: 200, body: FB });
      const { c } = client(s.url, { retries: 2 });
      const r = await c.request(method, PATH);
      expect(r.status).toBe(200);
      expect(s.requests).toHaveLength(3);
    },
  );

  it.each(["GET", "PUT", "DELETE"] as Method[])("--retries 0 disables retries: one %s", async (method) => {
    const s = await server();
    s.fallback = () => status(503, { "Retry-After": "0" });
    const { c, waits } = client(s.url, { retries: 0 });
    expect(await failure(c.request(method, PATH))).toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([500, 404, 400])("a %i is not repeated", async (code) => {
    const s = await server();
    s.fallback = () => status(code);
    const { c } = client(s.url);
    expect(((await failure(c.request("GET", PATH))) as ApiError).statusCode).toBe(code);
    expect(s.requests).toHaveLength(1);
  });
});

describe("waits between attempts", () => {
  it("Retry-After: 0 is honoured (no backoff wait)", async () => {
    const s = await server();
    s.fallback = () => status(503, { "Retry-After": "0" });
    const { c, debug } = client(s.url, { retries: 4 });
    await failure(c.request("GET", PATH));
    expect(s.requests).toHaveLength(5);
    expect(debug.filter((l) => /waiting 0\.00 s/.test(l))).toHaveLength(4);
  });

  it("Retry-After in seconds is honoured", async () => {
    const s = await server();
    s.script(status(429, { "Retry-After": "1" }), { status: 200, body: FB });
    const { c, waits } = client(s.url);
    expect((await c.request("GET", PATH)).status).toBe(200);
    expect(waits).toEqual([1000]);
    expect(s.requests).toHaveLength(2);
  });

  it("Retry-After as an HTTP date is honoured", async () => {
    const s = await server();
    // HTTP dates have whole seconds: two seconds ahead is more than one second away.
    s.script(status(503, { "Retry-After": new Date(Date.now() + 2000).toUTCString() }), { status: 200, body: FB });
    const { c, waits } = client(s.url);
    expect((await c.request("GET", PATH)).status).toBe(200);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1000);
    expect(waits[0]).toBeLessThanOrEqual(2000);
  });

  it("an HTTP date in the past means retry now", async () => {
    const s = await server();
    const past = status(503, { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" });
    s.script(past, past, past, { status: 200, body: FB });
    const { c, waits } = client(s.url);
    expect((await c.request("GET", PATH)).status).toBe(200);
    expect(waits).toEqual([0, 0, 0]);
  });

  it("without Retry-After the backoff doubles, with jitter on top of half of it", async () => {
    const s = await server();
    s.fallback = () => ({ status: 502, body: "<html>bad gateway</html>", headers: { "Content-Type": "text/html" } });
    const low = client(s.url, { retries: 3, random: () => 0 });
    await failure(low.c.request("GET", PATH));
    expect(low.waits).toEqual([250, 500, 1000]);
    const high = client(s.url, { retries: 2, random: () => 0.999 });
    await failure(high.c.request("GET", PATH));
    expect(high.waits).toEqual([500, 1000]);
  });

  it("a huge Retry-After is capped at 60 s", async () => {
    const s = await server();
    s.fallback = () => status(429, { "Retry-After": "3600" });
    const { c, waits, debug } = client(s.url, { retries: 2, timeoutMs: 180_000 });
    expect(((await failure(c.request("GET", PATH))) as ApiError).statusCode).toBe(429);
    expect(waits).toEqual([60_000, 60_000]);
    expect(debug.some((l) => /waiting 60\.00 s/.test(l))).toBe(true);
    expect(s.requests).toHaveLength(3);
  });

  it("a Retry-After longer than what is left of --timeout is not waited for: the 429 is reported", async () => {
    const s = await server();
    s.fallback = () => status(429, { "Retry-After": "5" });
    const { c, waits, debug } = client(s.url, { timeoutMs: 2000 });
    expect(((await failure(c.request("GET", PATH))) as ApiError).statusCode).toBe(429);
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
    expect(debug).toContain("  not retrying: waiting 5.00 s would pass --timeout");
  });

  it("a wait is taken out of --timeout: the retry that no longer fits is not made", async () => {
    const s = await server();
    // 250 + 500 ms of backoff fit in 1 s; the next 1000 ms does not.
    s.fallback = () => status(503);
    const { c, waits } = client(s.url, { timeoutMs: 1000, retries: 5 });
    await failure(c.request("GET", PATH));
    expect(waits).toEqual([250, 500]);
    expect(s.requests).toHaveLength(3);
  });

  it("a 429 pauses the whole client: a request started meanwhile waits too", async () => {
    const s = await server();
    s.script(status(429, { "Retry-After": "2" }));
    s.fallback = () => ({ status: 200, body: FB });
    const { c, waits } = client(s.url);
    await c.request("GET", PATH);
    // The pause was set by the 429; this request starts inside it (the clock did not move).
    c.pacer.pauseUntil(Date.now() + 60_000);
    await c.request("GET", PATH);
    expect(waits[0]).toBe(2000);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(50_000);
  });

  it("--debug shows each attempt and each wait", async () => {
    const s = await server();
    s.script(status(503, { "Retry-After": "0" }), { reset: true }, { status: 200, body: FB });
    const { c, debug } = client(s.url, { retries: 2 });
    await c.request("GET", PATH);
    expect(debug.filter((l) => l.startsWith("→ GET"))).toEqual([
      `→ GET ${s.url}${PATH}`,
      `→ GET ${s.url}${PATH} (attempt 2/3)`,
      `→ GET ${s.url}${PATH} (attempt 3/3)`,
    ]);
    expect(debug.filter((l) => /waiting \d+\.\d+ s/.test(l))).toEqual([
      "  retrying after status 503: waiting 0.00 s",
      "  retrying after connection reset by the server: waiting 0.50 s",
    ]);
  });
});

describe("POST is not repeated unless it never reached the server", () => {
  const create = (c: ApiClient, opts: RequestOptions = {}) =>
    c.request("POST", "/backends/failover", {
      body: { backends: ["bkdhr_a"] },
      checkWith: "`edgectl failover list`",
      ...opts,
    });

  it.each([500, 502, 503, 504])(
    "after %i: one request, and the message says it may or may not have been created",
    async (code) => {
      const s = await server();
      s.fallback = () => status(code, { "Retry-After": "0" });
      const { c } = client(s.url);
      const err = await failure(create(c));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.message).toMatch(/may or may not have been/);
      expect(err.message).toContain("failover list");
      expect(s.requests).toHaveLength(1);
    },
  );

  it("names the check the caller gives: an endpoint's is not a backend's", async () => {
    const s = await server();
    s.fallback = () => status(500);
    const { c } = client(s.url);
    const err = await failure(createEndpoint(c, { type: "cloud", url: "https://a.example.com", traffic_policy: "{}" }));
    expect(err.message).toMatch(/may or may not have been carried out/);
    expect(err.message).toContain("edgectl api GET /endpoints");
    expect(err.message).not.toContain("failover");
    expect(s.requests).toHaveLength(1);
  });

  it.each<[string, Reply]>([
    ["a connection reset", { reset: true }],
    ["a truncated answer", { truncate: '{"id":"bkdfo_abc",', status: 201 }],
  ])("after %s: one request, a NetworkError that says how to check", async (_name, reply) => {
    const s = await server();
    s.fallback = () => reply;
    const { c } = client(s.url);
    const err = await failure(create(c));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/may or may not have been/);
    expect(s.requests).toHaveLength(1);
  });

  it("PATCH is not repeated after 503 either", async () => {
    const s = await server();
    s.fallback = () => status(503, { "Retry-After": "0" });
    const { c } = client(s.url);
    await failure(c.request("PATCH", PATH, { body: { description: "x" } }));
    expect(s.requests).toHaveLength(1);
  });

  it("a 429 on POST is repeated: the API did not act on it", async () => {
    const s = await server();
    s.script(status(429, { "Retry-After": "0" }), { status: 201, body: FB });
    const { c } = client(s.url);
    expect((await create(c)).status).toBe(201);
    expect(s.requests.map((q) => q.method)).toEqual(["POST", "POST"]);
  });

  it("a refused connection is retried, even for POST: the server gets exactly one create", async () => {
    const port = await freePort();
    let late: FaultServer | undefined;
    const time = skippedTime();
    // The server comes up during the first wait.
    const sleep = async (ms: number) => {
      if (!late) {
        late = await startFaultServer({ port });
        servers.push(late);
        late.script({ status: 201, body: FB });
      }
      await time.sleep(ms);
    };
    const { c, debug } = client(`http://127.0.0.1:${port}`, { retries: 6, sleep, now: time.now });
    expect((await create(c)).status).toBe(201);
    expect(late!.requests.map((q) => q.method)).toEqual(["POST"]);
    expect(debug.some((l) => /connection refused/.test(l))).toBe(true);
  });

  it("a POST refused on every attempt: a NetworkError with no 'may or may not' doubt", async () => {
    const port = await freePort();
    const { c } = client(`http://127.0.0.1:${port}`, { retries: 1 });
    const err = await failure(create(c));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/connection refused/);
    expect(err.message).toMatch(/2 attempts/);
    expect(err.message).not.toMatch(/may or may not/);
  });
});

describe("--timeout bounds the whole request", () => {
  // The bound of an attempt is a real timer, so these use a short --timeout.
  it("a hang with retries left used up the bound: not repeated", async () => {
    const s = await server();
    s.fallback = () => ({ hang: true });
    const { c } = client(s.url, { timeoutMs: 300, retries: 3 });
    const err = await failure(c.request("GET", PATH));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/0\.3 s \(--timeout\)/);
    expect(err.message).not.toMatch(/attempts/);
    expect(s.requests).toHaveLength(1);
  });

  it("a 503 then a hang: the retry gets only what is left of the bound", async () => {
    const s = await server();
    s.script(status(503, { "Retry-After": "0.2" }));
    s.fallback = () => ({ hang: true });
    const { c, waits } = client(s.url, { timeoutMs: 300 });
    const err = await failure(c.request("GET", PATH));
    expect(err.message).toMatch(/^GET .*0\.3 s \(--timeout\) \(2 attempts\)$/);
    expect(waits).toEqual([200]);
    expect(s.requests).toHaveLength(2);
  });

  it("a POST that hangs: not repeated, and the message says how to check", async () => {
    const s = await server();
    s.fallback = () => ({ hang: true });
    const { c } = client(s.url, { timeoutMs: 300 });
    const err = await failure(c.request("POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain(new URL(s.url).host);
    expect(err.message).toMatch(/may or may not have been/);
    expect(s.requests).toHaveLength(1);
  });

  it("a body that starts and then stalls counts against the same bound", async () => {
    const s = await server();
    s.fallback = () => ({ stall: '{"id":"bkdfo_abc","uri":' });
    const { c } = client(s.url, { timeoutMs: 300, retries: 0 });
    const err = await failure(c.request("GET", PATH));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/--timeout/);
  });

  it("a slow but complete answer inside the bound succeeds", async () => {
    const s = await server();
    s.script({ status: 200, body: FB, delayMs: 100 });
    const { c } = client(s.url, { timeoutMs: 2000 });
    expect(JSON.parse((await c.request("GET", PATH)).text)).toEqual(FB);
  });
});

describe("what the server receives", () => {
  it("the key in the Authorization header, the API version, and a JSON body as sent", async () => {
    const s = await server();
    s.fallback = () => ({ status: 201, body: FB });
    const { c } = client(s.url);
    await c.request("POST", "/backends/failover", { body: { backends: ["bkdhr_a"], description: "é" } });
    const [q] = s.requests;
    expect(q!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(q!.headers["ngrok-version"]).toBe("2");
    expect(q!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(q!.body)).toEqual({ backends: ["bkdhr_a"], description: "é" });
    expect(Number(q!.headers["content-length"])).toBe(Buffer.byteLength(q!.body));
  });

  it("GET and DELETE carry no body", async () => {
    const s = await server();
    s.fallback = () => ({ status: 204 });
    const { c } = client(s.url);
    await c.request("DELETE", PATH, { body: { ignored: true } });
    expect(s.requests[0]!.body).toBe("");
    expect(s.requests[0]!.headers["content-type"]).toBeUndefined();
  });

  it("the base URL's path before the command's, and the Host of the base URL", async () => {
    const s = await server();
    s.fallback = () => ({ status: 200, body: FB });
    const { c } = client(`${s.url}/v2/`);
    await c.request("GET", `${PATH}?limit=5`);
    expect(s.requests[0]!.path).toBe(`/v2${PATH}?limit=5`);
    expect(s.requests[0]!.headers.host).toBe(new URL(s.url).host);
  });

  // What the URL parser makes of a path is what is sent, as the API would read the URL.
  it.each([
    ["/backends/failover/..", "/backends/"],
    ["/backends/failover/%2e%2E/x", "/backends/x"],
    ["/backends/failover/a b", "/backends/failover/a%20b"],
    ["/backends/failover/x?q=it's", "/backends/failover/x?q=it%27s"],
    ["backends/failover/x", "/backends/failover/x"],
  ])("a path the URL parser rewrites goes as rewritten: %s", async (path, sent) => {
    const s = await server();
    s.fallback = () => ({ status: 200, body: FB });
    const { c } = client(s.url);
    await c.request("GET", path);
    expect(s.requests[0]!.path).toBe(sent);
  });
});

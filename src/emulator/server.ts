// A local stand-in for ngrok's v2 management API: backends of the five kinds, HTTPS edges
// with their routes and route modules, and Cloud Endpoints (one module per resource in
// resources/). node:http only, so it starts fast.
//
// Error codes are the real API's where its error list (ngrok docs, "Errors reference")
// has one that fits:
//   ERR_NGROK_200 no Authorization header          ERR_NGROK_201 it is not "Bearer <key>"
//   ERR_NGROK_203 a well-formed but wrong key      ERR_NGROK_218 no Ngrok-Version header
//   ERR_NGROK_217 an unsupported Ngrok-Version     ERR_NGROK_213 a body that is not JSON
//   ERR_NGROK_214 an unknown body field            ERR_NGROK_215 an invalid field value
//   ERR_NGROK_100 metadata too long                ERR_NGROK_242 not a valid backend id
//   ERR_NGROK_227 a malformed id in the path       ERR_NGROK_226 rate limited (429)
//   ERR_NGROK_231 an unknown query parameter       ERR_NGROK_232 a repeated query parameter
//   ERR_NGROK_233/244 page size limit out of range / not a number
//   ERR_NGROK_7008 Edges retired (--edges retired)  ERR_NGROK_7196 Edges read-only (writes)
//   ERR_NGROK_7110 a route body naming another edge ERR_NGROK_7122 a hostport another edge has
//   ERR_NGROK_248 an endpoint type other than cloud ERR_NGROK_18009 a cloud endpoint URL in use
//   ERR_NGROK_18003 a tcp/tls endpoint URL without a port
//   ERR_NGROK_2264 a policy over the rule per policy limit (policy-text.ts)
//   ERR_NGROK_212 a body that cannot come whole (half-closed, or not in time): 400
// The docs give 7008 and 7196 no HTTP status; the emulator answers 403 (access refused),
// and 409 for 18009 (a conflict with an existing endpoint).
// The real API answers a missing resource with 404 and NO error_code
// ({"status_code":404,"msg":"Resource not found","details":{"operation_id":…}}, as in
// ngrok-api-go's test fixtures); the emulator does the same, and also leaves error_code out
// of its other routing errors (unknown path 404, wrong method 405), where we found no code.
// A body over 1 MiB gets 413 with ERR_NGROK_212 ("unable to read the complete request
// body"), our choice: the list has no size-specific code.
import http from "node:http";
import { isIP, type AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { createHash, timingSafeEqual } from "node:crypto";
import { StartError } from "./start-error.js";
import { HttpError, notFound, quoted, send, sendFailure, type Answer, type Context, type Request } from "./http.js";
import { backends, isOtherBackendKind } from "./resources/backends.js";
import { edges } from "./resources/edges.js";
import { endpoints } from "./resources/endpoints.js";
import { failover } from "./resources/failover.js";
import { isTcpTlsKind, tcpTlsEdges } from "./resources/tcp-tls-edges.js";
import { Store } from "./store.js";
import type { PolicyEngine, SchemeLookup } from "./traffic/engine.js";
import type { TrafficServer } from "./traffic/server.js";

export { MAX_BODY_BYTES } from "./http.js";

/** An account before the Edges sunset (all), or after it: `read-only` or `retired`. */
export type EdgesMode = "active" | "read-only" | "retired";

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Keep state in this file across restarts; in memory when absent. */
  stateFile?: string;
  /** Accept only this Bearer key; any key when absent. */
  apiKey?: string;
  /** At most `requests` in any `windowSeconds`-long span; more get 429. */
  rateLimit?: { requests: number; windowSeconds: number };
  /** How /edges and /backends answer; default `active`. */
  edges?: EdgesMode;
  /** How long a request (headers and body) may take to arrive, in ms; default 10 s. */
  requestTimeoutMs?: number;
  /** Serve the stored endpoints on this port too (0: any free one): src/emulator/traffic/. */
  trafficPort?: number;
  /** With trafficPort: agent endpoints, URL → local server (--upstream <url>=<local-url>). */
  upstreams?: Record<string, string>;
  /** With trafficPort: jku URL → local JWKS file (--jwks <url>=<file>). */
  jwks?: Record<string, string>;
  /** With trafficPort: each request's line (stderr) and --log-requests' JSON lines file. */
  trafficLog?: (line: string) => void;
  logRequests?: string;
  /** With trafficPort: the policy engine (default: traffic/engine.ts's loadEngine()) and its clock. */
  engine?: PolicyEngine;
  /** With trafficPort and no `engine`: verify-webhook's schemes (`edgectl emulator` gives src/webhooks'); none: unknown. */
  schemes?: SchemeLookup;
  clock?: () => Date;
  upstreamTimeoutMs?: number;
  /** With trafficPort: how long a request's line may wait for the others in flight (traffic/log.ts). */
  trafficLogWaitMs?: number;
}

export interface Emulator {
  /** Base URL, e.g. http://127.0.0.1:43121 (no trailing slash); a wildcard host becomes loopback. */
  url: string;
  /** How many requests it has received so far (answered or refused). */
  requests(): number;
  /** The address it really listens on, e.g. 0.0.0.0:43121 or [::]:43121. */
  address: string;
  /** False when it listens beyond this machine (a wildcard or another interface's address). */
  loopbackOnly: boolean;
  /** With trafficPort: the traffic port's URL, e.g. http://127.0.0.1:43122. */
  trafficUrl?: string;
  /** Stops listening, drops every connection and waits for pending state writes. */
  close(): Promise<void>;
}

const MAX_RATE_REQUESTS = 1_000_000;
const REQUEST_TIMEOUT_MS = 10_000;

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartError(`port ${port} must be a whole number from 0 to 65535`);
  const requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1)
    throw new StartError("request timeout: must be a whole, positive number of milliseconds");
  let limiter: RateLimiter | undefined;
  if (opts.rateLimit) {
    const { requests, windowSeconds } = opts.rateLimit;
    if (!Number.isInteger(requests) || requests < 1 || requests > MAX_RATE_REQUESTS) {
      throw new StartError(`rate limit: requests must be a whole number from 1 to ${MAX_RATE_REQUESTS}`);
    }
    if (!(windowSeconds > 0) || !Number.isFinite(windowSeconds))
      throw new StartError("rate limit: the window must be a positive number of seconds");
    limiter = new RateLimiter(requests, windowSeconds);
  }

  const store = await Store.open(opts.stateFile);
  const ctx: ServerContext = {
    store,
    base: "",
    apiKeyDigest: opts.apiKey === undefined ? undefined : digest(opts.apiKey),
    limiter,
    edges: opts.edges ?? "active",
    ownNames: ownNames(host),
  };
  // Sockets with a request being answered (and its answer), and those of them whose next bytes
  // did not parse: the answer under way goes out first, then the connection closes.
  const busy = new WeakMap<object, http.ServerResponse>();
  const doomed = new WeakSet<object>();
  // A request must arrive whole within the bound: node:http answers for headers, and for a body
  // raises a clientError, answered below.
  const server = http.createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(requestTimeoutMs / 4))),
    },
    (req, res) => {
      const socket = req.socket;
      busy.set(socket, res);
      res.once("close", () => {
        busy.delete(socket);
        if (doomed.has(socket)) socket.destroySoon();
      });
      handle(ctx, req, res).catch((err: unknown) => sendFailure(res, err));
    },
  );
  // A client that stops mid-request must not take the emulator down with it, nor hold it: a
  // body that cannot come (the client half-closed before Content-Length bytes) or that did
  // not arrive within the bound is answered 400 at once, and the connection closes.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    const res = busy.get(socket);
    if (res && !res.req.complete && !res.headersSent && socket.writable) {
      const why =
        err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? `it did not arrive within ${requestTimeoutMs} ms`
          : "the client ended the connection before the length its Content-Length gives";
      sendFailure(
        res,
        new HttpError(400, "ERR_NGROK_212", `The emulator was unable to read the complete request body: ${why}.`, {
          Connection: "close",
        }),
      );
      res.once("finish", () => socket.end());
    } else if (res) doomed.add(socket);
    else if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const why =
          err.code === "EADDRINUSE" ? "the address is already in use (try --port 0)" : (err.code ?? err.message);
        reject(new StartError(`cannot listen on ${formatHost(host)}:${port}: ${why}`));
      };
      server.once("error", onError);
      server.listen(port, host, () => {
        server.off("error", onError);
        resolve();
      });
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  ctx.base = `http://${urlHost(host)}:${address.port}`;
  let traffic: TrafficServer | undefined;
  if (opts.trafficPort !== undefined) {
    try {
      // Loaded only with --traffic-port: the API alone never pays for it.
      const { startTraffic } = await import("./traffic/server.js");
      const { loadEngine } = await import("./traffic/engine.js");
      traffic = await startTraffic({
        host,
        port: opts.trafficPort,
        store,
        engine: opts.engine ?? (await loadEngine(opts.schemes)),
        upstreams: opts.upstreams,
        jwks: opts.jwks,
        log: opts.trafficLog,
        logFile: opts.logRequests,
        clock: opts.clock,
        upstreamTimeoutMs: opts.upstreamTimeoutMs,
        logWaitMs: opts.trafficLogWaitMs,
      });
    } catch (err) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      throw err;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url: ctx.base,
    requests: () => store.requestCount,
    address: `${formatHost(address.address)}:${address.port}`,
    loopbackOnly: isLoopback(address.address),
    ...(traffic ? { trafficUrl: traffic.url } : {}),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([closed, traffic?.close()]);
        await store.close();
      })();
      return closing;
    },
  };
}

interface ServerContext {
  store: Store;
  base: string;
  apiKeyDigest: Buffer | undefined;
  limiter: RateLimiter | undefined;
  edges: EdgesMode;
  /** The names `Host` may give besides loopback ones: the listening host, or on a wildcard every local address. */
  ownNames: (name: string) => boolean;
}

async function handle(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  ctx.store.requestCount++;
  try {
    checkHost(ctx, req.headers.host);
    if (ctx.limiter) {
      const wait = ctx.limiter.take(Date.now());
      if (wait > 0) {
        throw new HttpError(
          429,
          "ERR_NGROK_226",
          `Your account is rate limited to ${ctx.limiter.describe()}. Retry after ${wait} seconds.`,
          {
            "Retry-After": String(wait),
          },
        );
      }
    }
    authenticate(ctx, req.headers.authorization);
    checkVersion(req.headers["ngrok-version"]);
    await route(ctx, req, res);
  } catch (err) {
    sendFailure(res, err);
  }
}

function authenticate(ctx: ServerContext, header: string | undefined): void {
  const www = { "WWW-Authenticate": 'Bearer realm="edgectl emulator"' };
  if (header === undefined || header.trim() === "") {
    throw new HttpError(
      401,
      "ERR_NGROK_200",
      "The API requires that you set the Authorization header: Authorization: Bearer <API key>.",
      www,
    );
  }
  // The header is never echoed back: it holds the key.
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new HttpError(
      401,
      "ERR_NGROK_201",
      "The API requires Bearer authentication via the Authorization header (Authorization: Bearer <API key>); it could not parse the header.",
      www,
    );
  }
  if (ctx.apiKeyDigest && !timingSafeEqual(digest(match[1]!), ctx.apiKeyDigest)) {
    throw new HttpError(401, "ERR_NGROK_203", "The API key you specified is properly formed, but it is invalid.", www);
  }
}

function checkVersion(header: string | string[] | undefined): void {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (value === undefined || value.trim() === "") {
    throw new HttpError(
      400,
      "ERR_NGROK_218",
      "Your request has not specified an API version. Include the version you wish to use in the Ngrok-Version header. Supported versions: 2.",
    );
  }
  if (value.trim() !== "2") {
    throw new HttpError(
      400,
      "ERR_NGROK_217",
      `The provided API version "${value.trim()}" is invalid or unsupported. Supported versions: 2.`,
    );
  }
}

async function route(shared: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  // Links (uri, next_page_uri) are built from the emulator's own address, never from `Host`.
  const ctx: Context = { store: shared.store, base: shared.base };
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  let path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? "" : raw.slice(q + 1);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const segs = path.split("/").slice(1);
  const method = req.method ?? "GET";
  const r: Request = { method, segs, path, raw, query, req };

  if (segs[0] === "edges" || segs[0] === "backends") checkEdgesAccess(shared.edges, method);
  let answer: Answer | undefined;
  if (segs[0] === "backends" && segs[1] === "failover") answer = await failover(ctx, r);
  else if (segs[0] === "backends" && isOtherBackendKind(segs[1])) answer = await backends(ctx, segs[1], r);
  else if (segs[0] === "edges" && segs[1] === "https" && segs.length >= 2) answer = await edges(ctx, r);
  else if (segs[0] === "edges" && isTcpTlsKind(segs[1])) answer = await tcpTlsEdges(ctx, segs[1], r);
  else if (segs[0] === "endpoints") answer = await endpoints(ctx, r);
  if (answer === undefined) throw notFound(`Resource not found: the API has no endpoint at ${JSON.stringify(path)}`);
  send(res, answer.status, answer.body);
}

const EDGES_GONE =
  "Edges are deprecated and no longer available. If you have used edges before, a migration guide is available: https://ngrok.com/docs/universal-gateway/edges/#migration-guide. If you have lost access to actively running edges, this is an error, please contact support@ngrok.com for help.";
const EDGES_READ_ONLY =
  "Your account has read-only access to Edges. Edges are deprecated, and write access (including creating, updating, or deleting) is no longer supported for your account. For guidance on alternatives, see our migration guide: https://ngrok.com/docs/universal-gateway/edges/#migration-guide. If you believe you should still have write access to Edges, please contact support@ngrok.com for help.";

/** An account after the Edges sunset: no access at all (7008), or reads only (7196). */
function checkEdgesAccess(mode: EdgesMode, method: string): void {
  if (mode === "retired") throw new HttpError(403, "ERR_NGROK_7008", EDGES_GONE);
  if (mode === "read-only" && method !== "GET" && method !== "HEAD")
    throw new HttpError(403, "ERR_NGROK_7196", EDGES_READ_ONLY);
}

/**
 * The API listener answers only to its own name: `Host` must be a loopback name
 * (`localhost`, `*.localhost`, 127.0.0.0/8, ::1) or the address it listens on (on a wildcard
 * address, any of this machine's). A page whose DNS name is rebound to 127.0.0.1 sends its
 * own name and gets 400, before the key or anything of the state is looked at. The port is
 * not compared: a forwarded port (a container's) reaches the same emulator. A request without
 * `Host` (HTTP/1.0; node:http refuses HTTP/1.1 without one) came from no browser page.
 */
function checkHost(ctx: ServerContext, header: string | undefined): void {
  if (header === undefined) return;
  const name = hostName(header);
  if (name !== undefined && (isLoopbackName(name) || ctx.ownNames(name))) return;
  throw new HttpError(
    400,
    undefined,
    `The Host header ${quoted(header)} is not this emulator's address: it answers only to a loopback name (localhost, 127.0.0.1, [::1]) or the address it listens on.`,
  );
}

/** The host of a `Host` header, lower case, without port, brackets or a final dot; an IP address in its canonical form. */
function hostName(header: string): string | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::\d*)?$/.exec(header.trim());
  if (!m) return undefined;
  if (m[1] !== undefined) return canonicalIp(m[1]);
  const name = m[2]!.toLowerCase().replace(/\.$/, "");
  return name;
}

/** An IPv6 address as `new URL` writes it (`0:0::1` → `::1`); undefined when it is none. */
function canonicalIp(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || isLoopback(name);
}

/** What else `Host` may name: the host it listens on, and on a wildcard address every address of this machine. */
function ownNames(host: string): (name: string) => boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const own = new Set([isIP(bare) === 6 ? (canonicalIp(bare) ?? bare) : bare]);
  const wildcard = bare === "" || bare === "0.0.0.0" || bare === "::";
  return (name) => {
    if (own.has(name)) return true;
    if (!wildcard) return false;
    // Read at each request: an interface may come up after the start.
    return Object.values(networkInterfaces()).some((list) =>
      (list ?? []).some((a) => (a.family === "IPv6" ? canonicalIp(a.address.replace(/%.*$/, "")) : a.address) === name),
    );
  };
}

function digest(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** 127.0.0.0/8, ::1, and 127.x.y.z as an IPv4-mapped IPv6 address (also as `new URL` writes it: ::ffff:7f00:1). */
function isLoopback(address: string): boolean {
  return (
    address === "::1" ||
    /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address) ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/i.test(address)
  );
}

/** A host a client can connect to: wildcard addresses become loopback. */
function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return formatHost(host.replace(/^\[(.*)\]$/, "$1"));
}

/**
 * A sliding window: a request is let in when fewer than `requests` were let in during the
 * last `windowSeconds`. Refused requests do not count, so a client that waits Retry-After
 * seconds gets in.
 */
class RateLimiter {
  private readonly stamps: Float64Array;
  private next = 0;
  private used = 0;
  private readonly windowMs: number;

  constructor(
    private readonly requests: number,
    private readonly windowSeconds: number,
  ) {
    this.stamps = new Float64Array(requests);
    this.windowMs = windowSeconds * 1000;
  }

  /** 0 when let in (and counted), else whole seconds (>= 1) until a place frees up. */
  take(now: number): number {
    if (this.used < this.requests) {
      this.used++;
    } else {
      const oldest = this.stamps[this.next]!;
      if (now - oldest < this.windowMs) return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    }
    this.stamps[this.next] = now;
    this.next = (this.next + 1) % this.requests;
    return 0;
  }

  describe(): string {
    return `${this.requests} API requests per ${this.windowSeconds} second${this.windowSeconds === 1 ? "" : "s"}`;
  }
}

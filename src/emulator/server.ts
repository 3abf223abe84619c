// A local stand-in for ngrok's v2 management API: Failover backends and the webhook
// verification module of HTTPS edge routes. node:http only, so it starts fast and adds
// no dependencies.
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
// The real API answers a missing resource with 404 and NO error_code
// ({"status_code":404,"msg":"Resource not found","details":{"operation_id":…}}, as in
// ngrok-api-go's test fixtures); the emulator does the same, and also leaves error_code out
// of its other routing errors (unknown path 404, wrong method 405), where we found no code.
// A body over 1 MiB gets 413 with ERR_NGROK_212 ("unable to read the complete request
// body"), our choice: the list has no size-specific code.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, timingSafeEqual } from "node:crypto";
import { DESCRIPTION_MAX_BYTES, ID_RULES, METADATA_MAX_BYTES, utf8Length, type IdKind } from "../api/ids.js";
import { isProvider, providerNeedsSecret, suggestProvider } from "../api/providers.js";
import { UsageError } from "../errors.js";
import { Store, randomBase62, type FailoverPatch, type FailoverRecord, type WebhookModule } from "./store.js";

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
}

export interface Emulator {
  /** Base URL, e.g. http://127.0.0.1:43121 (no trailing slash). */
  url: string;
  /** Stops listening, drops every connection and waits for pending state writes. */
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const PAGE_MAX = 100;
const MAX_RATE_REQUESTS = 1_000_000;

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`port ${port} must be a whole number from 0 to 65535`);
  let limiter: RateLimiter | undefined;
  if (opts.rateLimit) {
    const { requests, windowSeconds } = opts.rateLimit;
    if (!Number.isInteger(requests) || requests < 1 || requests > MAX_RATE_REQUESTS) {
      throw new UsageError(`rate limit: requests must be a whole number from 1 to ${MAX_RATE_REQUESTS}`);
    }
    if (!(windowSeconds > 0) || !Number.isFinite(windowSeconds)) throw new UsageError("rate limit: the window must be a positive number of seconds");
    limiter = new RateLimiter(requests, windowSeconds);
  }

  const store = await Store.open(opts.stateFile);
  const ctx: Context = { store, base: "", apiKeyDigest: opts.apiKey === undefined ? undefined : digest(opts.apiKey), limiter };
  const server = http.createServer((req, res) => {
    handle(ctx, req, res).catch((err: unknown) => sendFailure(res, err));
  });
  // A client that stops mid-request must not take the emulator down with it.
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const why = err.code === "EADDRINUSE" ? "the address is already in use (try --port 0)" : (err.code ?? err.message);
      reject(new UsageError(`cannot listen on ${formatHost(host)}:${port}: ${why}`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  ctx.base = `http://${urlHost(host)}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: ctx.base,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await store.flush();
      })();
      return closing;
    },
  };
}

interface Context {
  store: Store;
  base: string;
  apiKeyDigest: Buffer | undefined;
  limiter: RateLimiter | undefined;
}

/** An answer other than success, thrown from anywhere below and sent by `handle`. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const notFound = (what = "Resource not found") => new HttpError(404, undefined, what);
const invalid = (msg: string) => new HttpError(400, "ERR_NGROK_215", msg);

async function handle(ctx: Context, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    if (ctx.limiter) {
      const wait = ctx.limiter.take(Date.now());
      if (wait > 0) {
        throw new HttpError(429, "ERR_NGROK_226", `Your account is rate limited to ${ctx.limiter.describe()}. Retry after ${wait} seconds.`, {
          "Retry-After": String(wait),
        });
      }
    }
    authenticate(ctx, req.headers.authorization);
    checkVersion(req.headers["ngrok-version"]);
    await route(ctx, req, res);
  } catch (err) {
    sendFailure(res, err);
  }
}

function authenticate(ctx: Context, header: string | undefined): void {
  const www = { "WWW-Authenticate": 'Bearer realm="edgectl emulator"' };
  if (header === undefined || header.trim() === "") {
    throw new HttpError(401, "ERR_NGROK_200", "The API requires that you set the Authorization header: Authorization: Bearer <API key>.", www);
  }
  // The header is never echoed back: it holds the key.
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new HttpError(401, "ERR_NGROK_201", "The API requires Bearer authentication via the Authorization header (Authorization: Bearer <API key>); it could not parse the header.", www);
  }
  if (ctx.apiKeyDigest && !timingSafeEqual(digest(match[1]!), ctx.apiKeyDigest)) {
    throw new HttpError(401, "ERR_NGROK_203", "The API key you specified is properly formed, but it is invalid.", www);
  }
}

function checkVersion(header: string | string[] | undefined): void {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (value === undefined || value.trim() === "") {
    throw new HttpError(400, "ERR_NGROK_218", "Your request has not specified an API version. Include the version you wish to use in the Ngrok-Version header. Supported versions: 2.");
  }
  if (value.trim() !== "2") {
    throw new HttpError(400, "ERR_NGROK_217", `The provided API version "${value.trim()}" is invalid or unsupported. Supported versions: 2.`);
  }
}

async function route(shared: Context, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  // Links (uri, next_page_uri) name the host the client asked for, as a real server does:
  // reached as localhost, the emulator must not point to 127.0.0.1, another origin.
  const host = req.headers.host;
  const ctx = host && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host) ? { ...shared, base: `http://${host}` } : shared;
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  let path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? "" : raw.slice(q + 1);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const segs = path.split("/").slice(1);
  const method = req.method ?? "GET";

  if (segs[0] === "backends" && segs[1] === "failover") {
    if (segs.length === 2) {
      allow(method, ["GET", "POST"], path);
      if (method === "GET") return send(res, 200, listFailover(ctx, raw, query));
      const body = await readJsonObject(req);
      return send(res, 201, render(ctx, await ctx.store.createFailover(parseCreate(body))));
    }
    if (segs.length === 3) {
      allow(method, ["GET", "PATCH", "DELETE"], path);
      const id = pathId("failover", segs[2]!);
      if (method === "GET") return send(res, 200, render(ctx, ctx.store.getFailover(id) ?? throwIt(notFound())));
      if (method === "DELETE") {
        if (!(await ctx.store.deleteFailover(id))) throw notFound();
        return sendEmpty(res);
      }
      const patch = parseUpdate(await readJsonObject(req));
      return send(res, 200, render(ctx, (await ctx.store.updateFailover(id, patch)) ?? throwIt(notFound())));
    }
  }

  if (segs.length === 6 && segs[0] === "edges" && segs[1] === "https" && segs[3] === "routes" && segs[5] === "webhook_verification") {
    allow(method, ["GET", "PUT", "DELETE"], path);
    // Any well-formed edge and route id names an existing route.
    const edge = pathId("edge", segs[2]!);
    const routeId = pathId("route", segs[4]!);
    if (method === "GET") return send(res, 200, ctx.store.getWebhook(edge, routeId) ?? throwIt(notFound()));
    // Deleting a module that is not set is not an error: the route ends up without one either way.
    if (method === "DELETE") {
      await ctx.store.deleteWebhook(edge, routeId);
      return sendEmpty(res);
    }
    const module = parseWebhook(await readJsonObject(req));
    return send(res, 200, await ctx.store.replaceWebhook(edge, routeId, module));
  }

  throw notFound(`Resource not found: the API has no endpoint at ${JSON.stringify(path)}`);
}

function throwIt(err: Error): never {
  throw err;
}

function allow(method: string, allowed: string[], path: string): void {
  if (!allowed.includes(method)) {
    throw new HttpError(405, undefined, `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`, { Allow: allowed.join(", ") });
  }
}

const ID_PREFIX: Record<IdKind, string> = { failover: "bkdfo_", backend: "bkd??_", edge: "edghts_", route: "edghtsrt_" };

/** A path segment, percent-decoded and checked against the id format of its kind. */
function pathId(kind: IdKind, segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (!ID_RULES[kind].re.test(id)) {
    throw new HttpError(400, "ERR_NGROK_227", `The ID ${JSON.stringify(id)} is invalid. Expected an ID with a prefix of ${ID_PREFIX[kind]}: it ${ID_RULES[kind].rule}.`);
  }
  return id;
}

// --- Failover backends -------------------------------------------------------------------

function render(ctx: Context, r: FailoverRecord) {
  return {
    id: r.id,
    uri: `${ctx.base}/backends/failover/${r.id}`,
    created_at: r.created_at,
    description: r.description,
    metadata: r.metadata,
    backends: r.backends,
  };
}

function listFailover(ctx: Context, raw: string, query: string) {
  const params = new URLSearchParams(query);
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (key !== "limit" && key !== "before_id") {
      throw new HttpError(400, "ERR_NGROK_231", `The query part of the requested URI includes unknown parameters: ${key}. The supported parameters are: before_id, limit.`);
    }
    if (seen.has(key)) {
      throw new HttpError(400, "ERR_NGROK_232", `The request must specify only a single value for the ${key} parameter but got ${params.getAll(key).length}.`);
    }
    seen.add(key);
  }
  const limitText = params.get("limit") ?? "";
  let limit = PAGE_MAX;
  if (limitText !== "") {
    if (!/^\d+$/.test(limitText)) {
      throw new HttpError(400, "ERR_NGROK_244", `The page size limit must be a number between 1 and ${PAGE_MAX} but ${JSON.stringify(limitText)} was provided.`);
    }
    limit = Number(limitText);
    if (limit < 1 || limit > PAGE_MAX) {
      throw new HttpError(400, "ERR_NGROK_233", `The page size limit must be between 1 and ${PAGE_MAX} but ${limitText} was provided.`);
    }
  }
  const beforeText = params.get("before_id") ?? "";
  let beforeId: string | undefined;
  if (beforeText !== "") {
    if (!ID_RULES.failover.re.test(beforeText)) {
      throw new HttpError(400, "ERR_NGROK_227", `The ID ${JSON.stringify(beforeText)} given as before_id is invalid. Expected an ID with a prefix of bkdfo_.`);
    }
    beforeId = beforeText;
  }
  const page = ctx.store.listFailover(limit, beforeId);
  const last = page.items[page.items.length - 1];
  const next = page.more && last ? `${ctx.base}/backends/failover?before_id=${last.id}${limitText !== "" ? `&limit=${limit}` : ""}` : null;
  return { backends: page.items.map((r) => render(ctx, r)), uri: `${ctx.base}${raw}`, next_page_uri: next };
}

const CREATE_FIELDS = ["description", "metadata", "backends"];
// The API's update body also carries the id (the path's id is the one that counts).
const UPDATE_FIELDS = ["id", ...CREATE_FIELDS];

function parseCreate(body: Record<string, unknown>): { backends: string[]; description: string; metadata: string } {
  onlyFields(body, CREATE_FIELDS);
  const backends = backendList(body.backends);
  if (backends === undefined) throw invalid("backends is required: give the ids of the child backends, in failover order");
  return { backends, description: description(body.description) ?? "", metadata: metadata(body.metadata) ?? "" };
}

function parseUpdate(body: Record<string, unknown>): FailoverPatch {
  onlyFields(body, UPDATE_FIELDS);
  if (body.id !== undefined && body.id !== null && typeof body.id !== "string") throw invalid("id must be a string");
  const patch: FailoverPatch = {};
  const backends = backendList(body.backends);
  if (backends !== undefined) patch.backends = backends;
  const d = description(body.description);
  if (d !== undefined) patch.description = d;
  const m = metadata(body.metadata);
  if (m !== undefined) patch.metadata = m;
  return patch;
}

function backendList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid("backends must be an array of backend ids");
  if (value.length === 0) throw invalid("backends must list at least one backend");
  value.forEach((id, i) => {
    if (typeof id !== "string") throw invalid(`backends[${i}] must be a string (a backend id)`);
    if (!ID_RULES.backend.re.test(id)) {
      throw new HttpError(400, "ERR_NGROK_242", `The ID ${JSON.stringify(id)} in backends[${i}] is not a valid Backend ID: it ${ID_RULES.backend.rule}.`);
    }
  });
  return value as string[];
}

function description(value: unknown): string | undefined {
  const text = optionalString(value, "description");
  if (text !== undefined && utf8Length(text) > DESCRIPTION_MAX_BYTES) {
    throw invalid(`description is ${utf8Length(text)} bytes of UTF-8; the maximum is ${DESCRIPTION_MAX_BYTES}`);
  }
  return text;
}

function metadata(value: unknown): string | undefined {
  const text = optionalString(value, "metadata");
  if (text !== undefined && utf8Length(text) > METADATA_MAX_BYTES) {
    throw new HttpError(400, "ERR_NGROK_100", `Invalid metadata length: ${utf8Length(text)} bytes. Max: ${METADATA_MAX_BYTES}`);
  }
  return text;
}

// --- Webhook verification ----------------------------------------------------------------

const WEBHOOK_FIELDS = ["enabled", "provider", "secret"];

function parseWebhook(body: Record<string, unknown>): WebhookModule {
  onlyFields(body, WEBHOOK_FIELDS);
  // As in the API, `enabled` defaults to true when left out.
  let enabled = true;
  if (body.enabled !== undefined && body.enabled !== null) {
    if (typeof body.enabled !== "boolean") throw invalid("enabled must be true or false");
    enabled = body.enabled;
  }
  const provider = optionalString(body.provider, "provider");
  if (provider === undefined || provider === "") throw invalid("provider is required (e.g. github, stripe, sns)");
  if (!isProvider(provider)) {
    const guess = suggestProvider(provider);
    const hint = guess ? `; did you mean ${JSON.stringify(guess)}?` : " (names are lower case, e.g. github, stripe, sns)";
    throw invalid(`provider ${JSON.stringify(provider)} is not a supported webhook verification provider${hint}`);
  }
  const secret = optionalString(body.secret, "secret");
  if (providerNeedsSecret(provider)) {
    if (secret === undefined || secret === "") throw invalid(`secret is required for the ${provider} provider`);
  } else if (secret !== undefined && secret !== "") {
    // An empty secret is what clients that always send the field send for sns; it is not one.
    throw invalid(`secret must not be given for the ${provider} provider: it verifies by certificate`);
  }
  return { enabled, provider, secret: secret ?? "" };
}

// --- Bodies --------------------------------------------------------------------------------

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw new HttpError(400, "ERR_NGROK_214", `The request parameter ${JSON.stringify(key)} is unknown and not expected. The supported fields are: ${allowed.join(", ")}.`);
    }
  }
}

/** null counts as absent, as it does for the API's optional fields. */
function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  return value;
}

async function readJsonObject(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  // An empty body reads as an empty object: the field rules then say what is missing.
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, "ERR_NGROK_213", `The application/json request body could not be parsed: ${(err as Error).message}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new HttpError(400, "ERR_NGROK_213", "The application/json request body could not be parsed: expected a JSON object");
  }
  return data as Record<string, unknown>;
}

const tooLarge = () =>
  new HttpError(413, "ERR_NGROK_212", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`, { Connection: "close" });

/** The body as UTF-8, refusing (without reading on) one over the size limit. */
function readBody(req: http.IncomingMessage): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

// --- Responses -----------------------------------------------------------------------------

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function sendEmpty(res: http.ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204);
  res.end();
}

function sendFailure(res: http.ServerResponse, err: unknown): void {
  const e =
    err instanceof HttpError
      ? err
      : new HttpError(500, undefined, `The emulator failed: ${persistMessage(err)}`);
  const body = {
    ...(e.code ? { error_code: e.code } : {}),
    status_code: e.status,
    msg: e.message,
    details: { operation_id: newOperationId() },
  };
  send(res, e.status, body, e.headers);
  // A refused body is not read on; the connection closes once the answer is out.
  if (e.status === 413) res.once("finish", () => res.req.socket.destroySoon());
}

function persistMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `could not save its state file (${code})`;
  return err instanceof Error ? err.message : String(err);
}

function newOperationId(): string {
  return `op_${randomBase62(27)}`;
}

function digest(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
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

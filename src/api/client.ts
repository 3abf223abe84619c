// The one HTTP layer. It uses node:http/https rather than undici: measured here, a process
// making one GET with undici takes 3–4× `node -e 0` (its parser is WebAssembly), while
// node:http stays near 1.25× — see BENCHMARKS.md. Keep-alive agents carry batches.
import http from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import { ApiError, AuthError, NetworkError } from "../errors.js";
import { escapeControl, excerpt } from "../output/escape.js";
import { USER_AGENT } from "../version.js";
import { redactText } from "./redact.js";
import { proxyAgentFor } from "./proxy.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
  /** Receives --debug lines (already redacted); absent when debug is off. */
  debug?: (line: string) => void;
  /** Values to redact from debug lines and messages besides the key (webhook secrets). */
  secrets?: string[];
  env?: Record<string, string | undefined>;
  /** Sockets kept open to the API; a batch sets it to its concurrency. */
  maxSockets?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** First backoff step; doubled per attempt. */
  backoffBaseMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Called once per 429 answer, so a batch can slow down. */
  onRateLimited?: () => void;
  /**
   * How many 429 answers may be waited out without using up --retries. A batch sets it, so
   * a rate limit slows the batch down instead of failing ids; a single request leaves it 0.
   */
  rateLimitWaits?: number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_AFTER_CAP_MS = 60_000;
/** The API's answers are small (a full list page is well under 1 MiB); a body without end is cut off. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const POST_DOUBT =
  "; the request may or may not have been carried out (a backend may or may not have been created), so it was not repeated — check with `edgectl failover list` before trying again";

/** node:https brings tls and crypto (~12 ms at start-up), so it loads only for an https URL. */
const httpsModule = () => process.getBuiltinModule("node:https");

class AttemptError extends Error {
  constructor(
    message: string,
    /** The request provably never reached the server (safe to repeat even a POST). */
    readonly neverSent: boolean,
    /** Worth another attempt for an idempotent request. */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly agents = new Map<string, http.Agent>();
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** Set by a 429: no request of this client starts before then, so a batch pauses as one. */
  private pausedUntil = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl;
    this.origin = new URL(options.baseUrl).origin;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = options.random ?? Math.random;
  }

  /** A command's API path, appended to the base URL (whose path prefix is kept). */
  private pathUrl(path: string): URL {
    return new URL(this.baseUrl.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`));
  }

  /**
   * A URI the API handed back (next_page_uri), absolute or relative, resolved against the
   * base URL as a browser would. It must stay on the base URL's origin: the key goes nowhere else.
   */
  followUrl(uri: string): URL {
    const url = new URL(uri, this.baseUrl);
    if (url.origin !== this.origin) {
      throw new NetworkError(`the API pointed to ${url.origin}, which is not ${this.origin}; not following it with the key`);
    }
    return url;
  }

  redact(text: string): string {
    return redactText(text, [this.options.apiKey, ...(this.options.secrets ?? [])]);
  }

  /** Sends a request with retries; an error status becomes ApiError/AuthError, a failed exchange NetworkError. */
  async request(method: Method, target: string | URL, opts: RequestOptions = {}): Promise<RawResponse> {
    // A string is a path below the base URL; a URL comes from followUrl.
    const url = typeof target === "string" ? this.pathUrl(target) : target;
    const hasBody = opts.body !== undefined && method !== "GET" && method !== "DELETE";
    const payload = hasBody ? JSON.stringify(opts.body) : undefined;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      "Ngrok-Version": "2",
      Accept: "application/json",
      "User-Agent": USER_AGENT,
    };
    if (payload !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(Buffer.byteLength(payload));
    }
    const idempotent = method !== "POST" && method !== "PATCH";
    const maxAttempts = this.options.retries + 1;
    this.agentFor(url); // a bad HTTPS_PROXY is a UsageError here, before anything is sent
    let rateLimitWaits = opts.rateLimitWaits ?? 0;
    let waited = false;
    // --timeout bounds the whole request: every attempt and the waits between them. Time a
    // batch spends queued behind the API's rate limit does not count: the id is not in flight.
    let deadline: number | undefined;
    for (let attempt = 1; ; attempt++) {
      // Another request's 429 paused the client (this request's own waits happen below).
      const paused = this.pausedUntil - Date.now();
      if (paused > 0 && !waited) {
        this.log(`  rate limited: waiting ${(paused / 1000).toFixed(2)} s`);
        await this.sleep(paused);
        deadline = undefined;
      }
      waited = false;
      deadline ??= Date.now() + this.options.timeoutMs;
      this.log(`→ ${method} ${url.href}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ""}`);
      // Redacting costs real time per request (a batch makes thousands): only for --debug.
      if (this.options.debug) {
        this.log(`  headers: ${this.redact(JSON.stringify({ ...headers, Authorization: "Bearer ********" }))}`);
        if (payload !== undefined) this.log(`  body: ${this.redact(payload)}`);
      }
      const started = Date.now();
      let response: RawResponse;
      try {
        response = await this.attempt(method, url, headers, payload, deadline);
      } catch (err) {
        const failure = err as AttemptError;
        const canRetry = failure.neverSent || (idempotent && failure.transient);
        this.log(`← ${failure.message} after ${Date.now() - started} ms`);
        if (canRetry && attempt < maxAttempts) {
          const ms = this.delay(attempt, undefined);
          if (Date.now() + ms < deadline) {
            await this.wait(ms, failure.message);
            waited = true;
            continue;
          }
          this.log(`  not retrying: no time left within --timeout`);
        }
        throw this.networkError(method, url, failure, attempt);
      }
      this.log(`← ${response.status} ${http.STATUS_CODES[response.status] ?? ""} in ${Date.now() - started} ms`);
      if (response.text && this.options.debug) this.log(`  body: ${this.redact(response.text.length > 4000 ? `${response.text.slice(0, 4000)}…` : response.text)}`);
      if (response.status === 429) opts.onRateLimited?.();
      // A 429 means the API did not act on the request, so even a POST may be repeated.
      const retryable = RETRY_STATUSES.has(response.status) && (idempotent || response.status === 429);
      const freeWait = response.status === 429 && rateLimitWaits > 0;
      if (retryable && (freeWait || attempt < maxAttempts)) {
        const rateLimited = response.status === 429;
        const ms = this.delay(attempt, retryAfterMs(response.headers["retry-after"]));
        // A batch's rate-limit wait starts the id's time afresh; any other wait must fit.
        if (freeWait || Date.now() + ms < deadline) {
          // A rate limit holds for every request of this client, not just the one that met it.
          if (rateLimited) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
          await this.wait(ms, `status ${response.status}`);
          waited = true;
          if (freeWait) {
            rateLimitWaits--;
            attempt--; // not counted against --retries
            deadline = undefined;
          }
          continue;
        }
        this.log(`  not retrying: waiting ${(ms / 1000).toFixed(2)} s would pass --timeout`);
      }
      if (response.status >= 300) throw this.statusError(method, response);
      return response;
    }
  }

  /** Sends a request and parses the JSON body of a successful answer. */
  async requestJson<T>(method: Method, target: string | URL, parse: (data: unknown) => T, opts: RequestOptions = {}): Promise<T> {
    const response = await this.request(method, target, opts);
    return parseBody(response, parse, (text) => this.redact(text));
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
  }

  /** Lines are redacted by the caller; escaped here, since they may carry what the server sent. */
  private log(line: string): void {
    this.options.debug?.(escapeControl(line));
  }

  /** The wait before attempt `attempt + 1`: Retry-After when given, else exponential backoff with jitter. */
  private delay(attempt: number, retryAfter: number | undefined): number {
    if (retryAfter !== undefined) return retryAfter;
    const base = this.options.backoffBaseMs ?? 500;
    const backoff = Math.min(base * 2 ** (attempt - 1), 30_000);
    // Jitter spreads the retries of many clients.
    return Math.round(backoff / 2 + (this.random() * backoff) / 2);
  }

  private async wait(ms: number, reason: string): Promise<void> {
    this.log(`  retrying after ${reason}: waiting ${(ms / 1000).toFixed(2)} s`);
    await this.sleep(ms);
  }

  private agentFor(url: URL): http.Agent | undefined {
    const key = url.protocol;
    let agent = this.agents.get(key);
    if (!agent) {
      const maxSockets = this.options.maxSockets ?? 8;
      agent =
        proxyAgentFor(url, this.options.env ?? {}, maxSockets) ??
        (url.protocol === "https:"
          ? new (httpsModule().Agent)({ keepAlive: true, maxSockets })
          : new http.Agent({ keepAlive: true, maxSockets }));
      this.agents.set(key, agent);
    }
    return agent;
  }

  private attempt(method: Method, url: URL, headers: Record<string, string>, payload: string | undefined, deadline: number): Promise<RawResponse> {
    const timeoutMs = this.options.timeoutMs;
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      let reachedServer = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const mod = url.protocol === "https:" ? httpsModule() : http;
      const req = mod.request(url, { method, headers, agent: this.agentFor(url) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
          finish(() => reject(new AttemptError(`the response is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; stopped reading it`, false, false)));
          req.destroy();
        });
        res.on("end", () => {
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        });
        // What arrived is told (escaped, redacted by the caller), so a cut answer is recognisable.
        const lost = (why: string) => {
          const got = Buffer.concat(chunks).toString("utf8");
          const part = got.trim() ? `, after ${size} bytes: ${excerpt(got)}` : "";
          return new AttemptError(`connection lost while reading the response (HTTP ${res.statusCode}${why}${part})`, false, true);
        };
        res.on("error", (err) => finish(() => reject(lost(`, ${describe(err)}`))));
        res.on("aborted", () => finish(() => reject(lost(""))));
      });
      req.on("socket", (socket) => {
        if (!socket.connecting) reachedServer = true;
        else socket.once("connect", () => (reachedServer = true));
      });
      const timer = setTimeout(() => {
        finish(() => reject(new AttemptError(`no complete answer within ${timeoutMs / 1000} s (--timeout)`, false, true)));
        req.destroy();
      }, Math.max(1, deadline - Date.now()));
      req.on("error", (err: NodeJS.ErrnoException) => {
        // A ProxyError (proxy.ts) is a failure before the tunnel to the API opened.
        const refused = err.code === "ECONNREFUSED" || (!reachedServer && err.code === "ENOTFOUND") || (err as { neverSent?: boolean }).neverSent === true;
        const transient = err.code !== "ENOTFOUND" && err.code !== "ERR_TLS_CERT_ALTNAME_INVALID" && !String(err.code ?? "").includes("CERT");
        finish(() => reject(new AttemptError(describe(err), refused && !reachedServer, transient)));
      });
      req.end(payload);
    });
  }

  private networkError(method: Method, url: URL, failure: AttemptError, attempts: number): NetworkError {
    const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
    let message = `${method} ${url.host}: ${failure.message}${tries}`;
    if (method === "POST" && !failure.neverSent) message += POST_DOUBT;
    return new NetworkError(this.redact(message));
  }

  private statusError(method: Method, response: RawResponse): ApiError {
    const { status, text } = response;
    if (status >= 300 && status < 400) {
      const location = String(response.headers.location ?? "");
      return new ApiError(`the API answered ${status} with a redirect${location ? ` to ${excerpt(this.redact(location))}` : ""}; redirects are not followed, so the key is not sent elsewhere`, {
        statusCode: status,
        body: text,
      });
    }
    const body = parseErrorBody(text);
    const fields = {
      statusCode: status,
      errorCode: body?.error_code === undefined ? undefined : this.redact(body.error_code),
      operationId: body?.details?.operation_id === undefined ? undefined : this.redact(body.details.operation_id),
      details: body?.details === undefined ? undefined : this.redactDetails(body.details),
      body: text,
    };
    let message: string;
    if (body?.msg) message = this.redact(body.msg.trim());
    else if (text.trim()) message = `HTTP ${status} ${http.STATUS_CODES[status] ?? ""} with an unexpected body: ${excerpt(this.redact(text))}`;
    else message = `HTTP ${status} ${http.STATUS_CODES[status] ?? ""}`.trim();
    message = explainErrorCode(fields.errorCode, message);
    // A 5xx after a POST reached the server: it may have acted before failing.
    if (method === "POST" && status >= 500) message += POST_DOUBT;
    // The Edges sunset is an account state, not a bad key: exit 1 like any refused request.
    if ((status === 401 || status === 403) && !EDGES_SUNSET.has(fields.errorCode ?? "")) return new AuthError(message, fields);
    return new ApiError(message, fields);
  }

  /** The error body's details with secrets masked (they reach -o json output). */
  private redactDetails(details: Record<string, unknown>): Record<string, unknown> | undefined {
    try {
      return JSON.parse(this.redact(JSON.stringify(details))) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
}

interface ErrorBody {
  error_code?: string;
  status_code?: number;
  msg?: string;
  details?: { operation_id?: string } & Record<string, unknown>;
}

export function parseErrorBody(text: string): ErrorBody | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.msg !== "string") return undefined;
  const details = d.details && typeof d.details === "object" && !Array.isArray(d.details) ? (d.details as Record<string, unknown>) : undefined;
  return {
    msg: d.msg,
    error_code: typeof d.error_code === "string" ? d.error_code : undefined,
    status_code: typeof d.status_code === "number" ? d.status_code : undefined,
    details: details
      ? { ...details, operation_id: typeof details.operation_id === "string" ? details.operation_id : undefined }
      : undefined,
  };
}

const EDGES_SUNSET = new Set(["ERR_NGROK_7008", "ERR_NGROK_7196"]);

/** Plain words for account states that the bare message does not explain. */
function explainErrorCode(code: string | undefined, message: string): string {
  if (code === "ERR_NGROK_7008") {
    return `${message} — Edges are retired or read-only on this account (${code}): ngrok retired Edges on 2025-12-31 and this account no longer has access to them, so its edges, routes, modules and backends can be neither read nor changed; their replacement is a Cloud Endpoint with a Traffic Policy`;
  }
  if (code === "ERR_NGROK_7196") {
    return `${message} — Edges are retired or read-only on this account (${code}): ngrok retired Edges on 2025-12-31, so its edges, routes, modules and backends can still be read but not created, changed or deleted; back them up with \`edgectl export\` and move each edge with \`edgectl migrate edge <edge-id>\``;
  }
  return message;
}

/** Reads a successful answer's JSON body; an unusable body is a NetworkError (exit 3). `redact` masks secrets in the excerpt. */
export function parseBody<T>(response: RawResponse, parse: (data: unknown) => T, redact: (text: string) => string = (text) => text): T {
  const { status, text } = response;
  if (!text.trim()) throw new NetworkError(`the API answered ${status} with an empty body where a resource was expected`, { statusCode: status });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new NetworkError(`the API answered ${status} with a body that is not valid JSON: ${excerpt(redact(text))}`, { statusCode: status });
  }
  try {
    return parse(data);
  } catch (err) {
    throw new NetworkError(`the API answered ${status} with an unexpected body (${redact((err as Error).message)}): ${excerpt(redact(text))}`, { statusCode: status });
  }
}

export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  let ms: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) ms = Number(value) * 1000;
  else {
    // Date.parse accepts junk like "-1"; only the HTTP-date form counts.
    if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
    const date = Date.parse(value);
    if (Number.isNaN(date)) return undefined;
    ms = date - Date.now();
  }
  return Math.min(Math.max(0, Math.round(ms)), RETRY_AFTER_CAP_MS);
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset by the server";
    case "ENOTFOUND":
      return "host not found";
    case "EAI_AGAIN":
      return "host name lookup failed (temporary)";
    case "ETIMEDOUT":
      return "connection timed out";
    case "EPIPE":
      return "connection closed while sending";
    default:
      return err.message || String(err.code ?? "request failed");
  }
}

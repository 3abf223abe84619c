// The one HTTP layer: it composes the transport (which only sends), the retry rule (a pure
// decision in retry.ts) and the pacer (when the next request may go), on an injected clock.
import { ID_RULES } from "../api-data/ids.js";
import { ApiError, AuthError, NetworkError } from "../errors.js";
import { escapeControl, excerpt } from "../text/escape.js";
import { USER_AGENT } from "../version.js";
import { RatePacer } from "./pacing.js";
import { redactBody, redactLogText, type PolicyMasker } from "./redact.js";
import { decideRetry, retryAfterMs, type Method, type Outcome } from "./retry.js";
import { OutOfTime, SendError, Transport, type RawResponse } from "./transport.js";

export type { Method } from "./retry.js";

/** The reason phrase of a status (node:http's table, taken when first needed: not at start-up). */
const statusText = (status: number): string => process.getBuiltinModule("node:http").STATUS_CODES[status] ?? "";
export type { RawResponse } from "./transport.js";
export { retryAfterMs } from "./retry.js";

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
  /** Receives --debug lines (already redacted); absent when debug is off. */
  debug?: (line: string) => void;
  /** Receives notes for stderr that are not errors (a DELETE counted as done after a lost answer). */
  note?: (message: string) => void;
  /** Values to redact from debug lines and messages besides the key (webhook secrets). */
  secrets?: string[];
  /**
   * Masks a policy text in a --debug body by its parsed structure (the factory gives
   * src/output/mask.ts's maskPolicyText, loaded on first use: the api layer imports nothing
   * above it); without it, such a text is masked line by line.
   */
  maskPolicy?: PolicyMasker;
  env?: Record<string, string | undefined>;
  /** Where the key came from and what fixes a refused one, for a 401/403's message (keySource below). */
  keySource?: KeySource;
  /** Sockets kept open to the API; a batch sets it to its concurrency. */
  maxSockets?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** First backoff step; doubled per attempt. */
  backoffBaseMs?: number;
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
  /** For a POST: what the user can run to see whether it was carried out after all. */
  checkWith?: string;
  /**
   * A bound (on the client's clock) beyond --timeout's own: a listing's pages share one
   * --timeout (see listingDeadline), so no attempt or wait of a page may pass it.
   */
  deadlineAt?: number;
}

/** What a batch passes for each of its requests (`<noun> get|delete <id>…`). */
export type BatchRequestOptions = Pick<RequestOptions, "onRateLimited" | "rateLimitWaits">;

/** Where the API key came from (`--api-key`, a variable, a profile in a file) and the command that replaces it. */
export interface KeySource {
  from: string;
  fix: string;
}

/**
 * Names the source of the key as Settings.apiKeySource holds it ("--api-key", "EDGECTL_API_KEY",
 * "NGROK_API_KEY", 'profile "x"'), with what to do when the API refuses it: a variable or the
 * flag wins over a stored key, so `auth login` alone would not help there.
 */
export function keySource(source: string | undefined, profile: string, file: string): KeySource | undefined {
  const login = profile === "default" ? "`edgectl auth login`" : `\`edgectl auth login --profile ${profile}\``;
  if (source === undefined) return undefined;
  if (source === "--api-key") return { from: "--api-key", fix: `check it, or drop --api-key and run ${login}` };
  if (source.startsWith("profile ")) return { from: `${source} in ${file}`, fix: `check it, or run ${login}` };
  return { from: source, fix: `check it, or unset ${source} and run ${login}` };
}

/** What a 401/403 says: whose key was refused, the API's words, and what fixes it. */
function refusedKey(message: string, source: KeySource | undefined): string {
  const from = source ? ` from ${source.from}` : "";
  return `the API refused the API key${from} (${message}): ${source?.fix ?? "check it, or run `edgectl auth login`"}`;
}

/** Added to a POST's error when the server may have acted before failing. */
function postDoubt(opts: RequestOptions): string {
  const check = opts.checkWith ? `check with ${opts.checkWith}` : "check";
  return `; the request may or may not have been carried out, so it was not repeated — ${check} before trying again`;
}

/** Added to a POST's error when the server answered 2xx with a body that cannot be read. */
function postCreated(opts: RequestOptions): string {
  const check = opts.checkWith ? `check with ${opts.checkWith}` : "check";
  return `; the resource may have been created, so it was not repeated — ${check} before trying again`;
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly transport: Transport;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  /** Shared by every request of this client, so a batch slows down as one. */
  readonly pacer: RatePacer;
  /** The limit last told in --debug. */
  private toldLimit = "";
  /** The base URL without its trailing slashes, which a command's path is appended to. */
  private readonly prefix: string;
  /**
   * The base URL's path (no trailing slash) when the base URL reads as the URL parser writes
   * it back, so that a plain path appended to it needs no parsing; undefined otherwise.
   */
  private readonly plainPrefixPath: string | undefined;
  /** host[:port] of the base URL, for messages. */
  private readonly host: string;
  /** The headers of every request without a body: the same for all of a client's requests. */
  private readonly baseHeaders: Readonly<Record<string, string>>;
  /** The same as node:http takes them without a copy (name, value, ...), Host last as node:http adds it. */
  private readonly baseHeaderList: readonly string[];

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl;
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.host = base.host;
    this.transport = new Transport({ origin: base, maxSockets: options.maxSockets, env: options.env });
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.pacer = new RatePacer({ now: this.now, sleep: this.sleep });
    this.prefix = options.baseUrl.replace(/\/+$/, "");
    const basePath = base.pathname.replace(/\/+$/, "");
    this.plainPrefixPath =
      base.search === "" && base.hash === "" && this.prefix === base.origin + basePath ? basePath : undefined;
    this.baseHeaders = {
      Authorization: `Bearer ${options.apiKey}`,
      "Ngrok-Version": "2",
      Accept: "application/json",
      "User-Agent": USER_AGENT,
    };
    this.baseHeaderList = [...Object.entries(this.baseHeaders).flat(), "Host", this.host];
  }

  /**
   * The request line's path and query for a command's path (appended to the base URL, whose
   * path prefix is kept) or a URL (from nextPage, or checked by the caller): as node:http
   * would take it from the parsed URL. A path with nothing the URL parser would rewrite (no
   * dot segment, no character it escapes) is appended as it is: a batch makes thousands.
   */
  private requestPath(target: string | URL): string {
    if (typeof target === "string") {
      const path = target.startsWith("/") ? target : `/${target}`;
      if (this.plainPrefixPath !== undefined && PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path))
        return this.plainPrefixPath + path;
      target = new URL(this.prefix + path);
    }
    if (target.origin !== this.origin) {
      throw new NetworkError(
        `the request was for ${target.origin}, which is not ${this.origin}; not sending it with the key`,
      );
    }
    return target.pathname + target.search;
  }

  /** When a listing that starts now must be done by: --timeout bounds all its pages together. */
  listingDeadline(): number {
    return this.now() + this.options.timeoutMs;
  }

  /** Whether a deadline from listingDeadline has passed. */
  passed(deadlineAt: number): boolean {
    return this.now() >= deadlineAt;
  }

  /** --timeout in seconds, for messages. */
  get timeoutSeconds(): number {
    return this.options.timeoutMs / 1000;
  }

  /**
   * Where a list's next page is, from the API's next_page_uri: its query alone, below the base
   * URL and on the list's own path (`listPath`, without the base URL's prefix), so the key goes
   * nowhere else and a proxy in front of the API works (the API behind it names its own host).
   * A next_page_uri whose path is another one is refused (NetworkError: the answer is unusable).
   */
  nextPage(uri: string, listPath: string): string {
    let url: URL;
    try {
      url = new URL(uri, this.baseUrl);
    } catch {
      throw new NetworkError(
        `the API's next_page_uri is not a URL (${excerpt(this.redact(uri))}); stopped the listing`,
      );
    }
    const own = listPath.replace(/\/+$/, "");
    const prefix = new URL(this.baseUrl).pathname.replace(/\/+$/, "");
    const path = url.pathname.replace(/\/+$/, "");
    if (path !== prefix + own && path !== own) {
      throw new NetworkError(
        `the API's next_page_uri leads to ${excerpt(this.redact(url.pathname))}, which is not the list's own path ${prefix}${own}; stopped the listing rather than send the key there`,
      );
    }
    return `${own}${url.search}`;
  }

  /** Text for a log line or a message: the key, the webhook secrets given and every secret field masked. */
  redact(text: string): string {
    return redactLogText(text, this.secretValues());
  }

  /**
   * A body for a --debug line: masked first, then cut, so no part of a secret survives the cut.
   * A policy text in it is masked by its parsed structure, as printed data is: a GET answer
   * holds secrets the client was never told.
   */
  private async redactBody(text: string, path: string): Promise<string> {
    return redactBody(text, this.secretValues(), { maskPolicy: this.options.maskPolicy, path });
  }

  private secretValues(): (string | undefined)[] {
    return [this.options.apiKey, ...(this.options.secrets ?? [])];
  }

  /** Sends a request with retries; an error status becomes ApiError/AuthError, a failed exchange NetworkError. */
  async request(method: Method, target: string | URL, opts: RequestOptions = {}): Promise<RawResponse> {
    // A string is a path below the base URL; a URL comes from nextPage or the caller.
    const path = this.requestPath(target);
    const hasBody = opts.body !== undefined && method !== "GET" && method !== "DELETE";
    const payload = hasBody ? JSON.stringify(opts.body) : undefined;
    const bodyHeaders =
      payload === undefined
        ? undefined
        : { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) };
    const headers =
      bodyHeaders === undefined
        ? this.baseHeaderList
        : [...Object.entries({ ...this.baseHeaders, ...bodyHeaders }).flat(), "Host", this.host];
    // Debug lines cost real time per request when built (a batch makes thousands): only for --debug.
    const debug = this.options.debug !== undefined;
    const maxAttempts = this.options.retries + 1;
    this.transport.agentFor(); // a bad HTTPS_PROXY is a UsageError here, before anything is sent
    const inBatch = (opts.rateLimitWaits ?? 0) > 0;
    let rateLimitWaits = opts.rateLimitWaits ?? 0;
    // --timeout bounds the whole request: every attempt and the waits between them. Time a
    // batch spends queued behind the API's rate limit does not count: the id is not in flight.
    let deadline: number | undefined;
    // An attempt whose answer was lost may have been carried out (see the DELETE rule below).
    let lostBefore = false;
    for (let attempt = 1; ;) {
      // Mostly the pacer lets a request go at once: no promise to wait for then.
      const { ticket, waitedMs } = this.pacer.tryAcquire() ?? (await this.pacer.acquire());
      if (waitedMs > 0) {
        this.log(`  rate limited: waited ${(waitedMs / 1000).toFixed(2)} s`);
        deadline = undefined;
      }
      deadline ??= Math.min(this.now() + this.options.timeoutMs, opts.deadlineAt ?? Infinity);
      if (debug) {
        this.log(`→ ${method} ${this.origin}${path}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ""}`);
        this.log(
          `  headers: ${this.redact(JSON.stringify({ ...this.baseHeaders, ...bodyHeaders, Authorization: "Bearer ********" }))}`,
        );
        if (payload !== undefined) this.log(`  body: ${await this.redactBody(payload, path)}`);
      }
      const started = this.now();
      let outcome: Outcome;
      let response: RawResponse | undefined;
      let failure: SendError | undefined;
      try {
        response = await this.transport.send({
          method,
          path,
          headers,
          payload,
          timeLeftMs: deadline - started,
          timeoutMs: this.options.timeoutMs,
        });
        outcome = { status: response.status, headers: response.headers };
        if (debug) this.log(`← ${response.status} ${statusText(response.status)} in ${this.now() - started} ms`);
        if (response.text && debug) this.log(`  body: ${await this.redactBody(response.text, path)}`);
      } catch (err) {
        if (!(err instanceof SendError)) throw err;
        failure = err;
        if (err.kind === "lost") lostBefore = true;
        outcome = { failure: err.kind };
        this.log(`← ${err.message} after ${this.now() - started} ms`);
        if (err.received !== undefined && debug) this.log(`  body: ${await this.redactBody(err.received, path)}`);
      }
      const rateLimited = response?.status === 429;
      // A Retry-After that cannot be read is no hint: the limit is learned as without one.
      const hinted = response !== undefined && retryAfterMs(response.headers["retry-after"]) !== undefined;
      this.pacer.settle(ticket, { rateLimited, hinted, learn: inBatch });
      if (debug) this.tellLearnedLimit();
      if (rateLimited) opts.onRateLimited?.();
      const now = this.now();
      const decision = decideRetry({
        method,
        attempt,
        maxAttempts,
        outcome,
        timeLeftMs: failure instanceof OutOfTime ? 0 : deadline - now,
        rateLimitWaits,
        now,
        jitter: this.random(),
        backoffBaseMs: this.options.backoffBaseMs ?? 500,
        paced: inBatch && !hinted,
      });
      if (decision.retry) {
        // A rate limit holds for every request of this client, not just the one that met it.
        if (decision.pauseClient) this.pacer.pauseUntil(now + decision.waitMs);
        this.log(
          `  retrying after ${failure ? failure.message : `status ${response!.status}`}: waiting ${(decision.waitMs / 1000).toFixed(2)} s`,
        );
        await this.sleep(decision.waitMs);
        if (decision.free) {
          rateLimitWaits--;
          deadline = undefined;
        } else attempt++;
        continue;
      }
      if (decision.why === "no time left") {
        this.log(
          failure
            ? `  not retrying: no time left within --timeout`
            : `  not retrying: waiting ${((decision.waitMs ?? 0) / 1000).toFixed(2)} s would pass --timeout`,
        );
      }
      if (failure) throw this.networkError(method, failure, attempt, opts);
      // The first DELETE was carried out but its answer was lost, so the retry finds nothing:
      // what was asked for is done. A 404 at the first try stays an error.
      if (method === "DELETE" && lostBefore && response!.status === 404) {
        this.options.note?.(
          `DELETE ${path}: the answer to an earlier attempt was lost and the retry found nothing there (404), so it counts as deleted`,
        );
        this.log(`  counted as deleted: an earlier attempt's answer was lost, and the retry met 404`);
        return { status: 204, headers: response!.headers, text: "" };
      }
      if (response!.status >= 300) throw this.statusError(method, response!, opts, path);
      return response!;
    }
  }

  /** Sends a request and parses the JSON body of a successful answer. */
  async requestJson<T>(
    method: Method,
    target: string | URL,
    parse: (data: unknown) => T,
    opts: RequestOptions = {},
  ): Promise<T> {
    const response = await this.request(method, target, opts);
    try {
      return parseBody(response, parse, (text) => this.redact(text));
    } catch (err) {
      // The server said it acted (2xx) but its answer cannot be read: a script that retries
      // on exit 3 must not POST again without looking.
      if (method === "POST" && err instanceof NetworkError)
        throw new NetworkError(`${err.message}${postCreated(opts)}`, { statusCode: err.statusCode });
      throw err;
    }
  }

  close(): void {
    this.transport.close();
  }

  private tellLearnedLimit(): void {
    const learned = this.pacer.learned;
    if (!learned || !this.options.debug) return;
    const told = `${learned.limit} requests per ${(learned.windowMs / 1000).toFixed(2)} s`;
    if (told !== this.toldLimit) this.log(`  rate limit learned from 429s: ${(this.toldLimit = told)}`);
  }

  /** Lines are redacted by the caller; escaped here, since they may carry what the server sent. */
  private log(line: string): void {
    this.options.debug?.(escapeControl(line));
  }

  private networkError(method: Method, failure: SendError, attempts: number, opts: RequestOptions): NetworkError {
    const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
    const got = failure.received === undefined ? "" : `: ${excerpt(this.redact(failure.received))}`;
    let message = `${this.redact(`${method} ${this.host}: ${failure.message}`)}${got}${tries}`;
    if (method === "POST" && failure.kind !== "never-sent") message += postDoubt(opts);
    return new NetworkError(message);
  }

  private statusError(method: Method, response: RawResponse, opts: RequestOptions, path: string): ApiError {
    const { status, text } = response;
    if (status >= 300 && status < 400) {
      const location = String(response.headers.location ?? "");
      return new ApiError(
        `the API answered ${status} with a redirect${location ? ` to ${excerpt(this.redact(location))}` : ""}; redirects are not followed, so the key is not sent elsewhere`,
        {
          statusCode: status,
          body: text,
        },
      );
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
    else if (text.trim())
      message = `HTTP ${status} ${statusText(status)} with an unexpected body: ${excerpt(this.redact(text))}`;
    else message = `HTTP ${status} ${statusText(status)}`.trim();
    message = explainErrorCode(fields.errorCode, message);
    // A 404 for one resource names it: the API only says "Resource not found".
    const subject = status === 404 ? resourceIdOf(path) : undefined;
    if (subject !== undefined && !message.includes(subject)) {
      const plainMessage = message;
      message = NOT_FOUND.test(message) ? `${subject} not found` : `${subject} not found: ${message}`;
      return new ApiError(message, { ...fields, subject, plainMessage });
    }
    // A 5xx after a POST reached the server: it may have acted before failing.
    if (method === "POST" && status >= 500) message += postDoubt(opts);
    // The Edges sunset is an account state, not a bad key: exit 1 like any refused request.
    if ((status === 401 || status === 403) && !EDGES_SUNSET.has(fields.errorCode ?? ""))
      return new AuthError(refusedKey(message, this.options.keySource), fields);
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

/** Characters the URL parser leaves as they are in a path and query. */
const PLAIN_PATH = /^[\w\-.~!$&()*+,;=:@%/]*(?:\?[\w\-.~!$&()*+,;=:@%/?]*)?$/;
/** `.` and `..` segments, which the parser resolves (`%2e` counts as a dot). */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?]|$)/i;

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
  const details =
    d.details && typeof d.details === "object" && !Array.isArray(d.details)
      ? (d.details as Record<string, unknown>)
      : undefined;
  return {
    msg: d.msg,
    error_code: typeof d.error_code === "string" ? d.error_code : undefined,
    status_code: typeof d.status_code === "number" ? d.status_code : undefined,
    details: details
      ? { ...details, operation_id: typeof details.operation_id === "string" ? details.operation_id : undefined }
      : undefined,
  };
}

/** The API's own words for a missing resource, which say nothing more than "not found". */
const NOT_FOUND = /^(?:the )?(?:resource )?not found\.?$/i;

/** The id a request's path ends with (`/backends/failover/bkdfo_1`), for a 404's message. */
function resourceIdOf(path: string): string | undefined {
  const last =
    path
      .replace(/[?#].*$/s, "")
      .split("/")
      .pop() ?? "";
  let segment: string;
  try {
    segment = decodeURIComponent(last);
  } catch {
    return undefined;
  }
  return Object.values(ID_RULES).some((rule) => rule.re.test(segment)) ? segment : undefined;
}

const EDGES_SUNSET = new Set(["ERR_NGROK_7008", "ERR_NGROK_7196"]);

/**
 * The Edges sunset, said once and briefly (the code, status and operation_id follow it): the
 * API's own words run to 300 characters and point at a web page; these name the way off.
 */
function explainErrorCode(code: string | undefined, message: string): string {
  if (code === "ERR_NGROK_7008")
    return "ngrok retired Edges on 2025-12-31 for a Cloud Endpoint with a Traffic Policy: `edgectl migrate edge --all`";
  if (code === "ERR_NGROK_7196")
    return "Edges are read-only (ngrok retired them on 2025-12-31): move them with `edgectl migrate edge --all --apply`";
  return message;
}

/** Reads a successful answer's JSON body; an unusable body is a NetworkError (exit 3). `redact` masks secrets in the excerpt. */
export function parseBody<T>(
  response: RawResponse,
  parse: (data: unknown) => T,
  redact: (text: string) => string = (text) => text,
): T {
  const { status, text } = response;
  if (!text.trim())
    throw new NetworkError(`the API answered ${status} with an empty body where a resource was expected`, {
      statusCode: status,
    });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new NetworkError(`the API answered ${status} with a body that is not valid JSON: ${excerpt(redact(text))}`, {
      statusCode: status,
    });
  }
  try {
    return parse(data);
  } catch (err) {
    throw new NetworkError(
      `the API answered ${status} with an unexpected body (${redact((err as Error).message)}): ${excerpt(redact(text))}`,
      { statusCode: status },
    );
  }
}

// Sends one request and reads its whole answer; nothing else. It uses node:http/https rather
// than undici, for start-up cost (see BENCHMARKS.md); keep-alive agents carry batches.
// Retries, waits and error wording are the client's.
import type { Agent, IncomingHttpHeaders, request } from "node:http";
import { proxyAgentFor } from "./proxy.js";
import type { FailureKind, Method } from "./retry.js";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface TransportOptions {
  /** The API's origin: every request of a client goes there (the client refuses any other). */
  origin: URL;
  /** Sockets kept open to the API; a batch sets it to its concurrency. */
  maxSockets?: number;
  env?: Record<string, string | undefined>;
}

export interface SendRequest {
  method: Method;
  /** The path and query below the transport's origin, as it goes on the request line. */
  path: string;
  /** Name, value, name, value…, Host included: node:http then writes them as given, without a copy per request. */
  headers: readonly string[];
  payload?: string;
  /** The attempt's own bound: what is left of --timeout. */
  timeLeftMs: number;
  /** --timeout itself, for the message when the bound is hit. */
  timeoutMs: number;
}

/** An exchange that ended without a complete answer. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** Part of a body that arrived before the exchange failed: the client redacts, then shortens it. */
    readonly received?: string,
  ) {
    super(message);
  }
}

/**
 * The attempt's timer ran out. It was set to what was left of --timeout, so that is used up: no
 * retry fits, whatever a clock read a moment later says (a test's skipped clock stands still).
 */
export class OutOfTime extends SendError {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs / 1000} s (--timeout)`, "lost");
  }
}

/** The API's answers are small (a full list page is well under 1 MiB); a body without end is cut off. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** node:https brings tls and crypto (~12 ms at start-up), so it loads only for an https URL. */
const httpsModule = () => process.getBuiltinModule("node:https");
// node:http too, at the first request: a command that sends nothing (`policy check`) then
// never loads it, nor node:net (BENCHMARKS.md, "Start-up, seventh round").
const httpModule = () => process.getBuiltinModule("node:http");

export class Transport {
  private agent: Agent | undefined;
  /** node:http's or node:https's request, taken at the first request (node:https costs start-up). */
  private request: typeof request | undefined;
  /** What node:http takes for the origin; a request adds its method, path, headers and agent. */
  private readonly hostname: string;
  private readonly port: number | undefined;
  private readonly protocol: string;

  constructor(private readonly options: TransportOptions) {
    const { origin } = options;
    this.protocol = origin.protocol;
    // As node:http reads a URL (urlToHttpOptions): an IPv6 host without its brackets.
    this.hostname = origin.hostname.startsWith("[") ? origin.hostname.slice(1, -1) : origin.hostname;
    this.port = origin.port === "" ? undefined : Number(origin.port);
  }

  /** The agent for the origin; a bad HTTPS_PROXY is a UsageError here, before anything is sent. */
  agentFor(): Agent {
    if (this.agent) return this.agent;
    const { origin } = this.options;
    const maxSockets = this.options.maxSockets ?? 8;
    return (this.agent =
      proxyAgentFor(origin, this.options.env ?? {}, maxSockets) ??
      (origin.protocol === "https:"
        ? new (httpsModule().Agent)({ keepAlive: true, maxSockets })
        : new (httpModule().Agent)({ keepAlive: true, maxSockets })));
  }

  close(): void {
    this.agent?.destroy();
  }

  /** Resolves with the whole answer, whatever its status; rejects with a SendError. */
  send({ method, path, headers, payload, timeLeftMs, timeoutMs }: SendRequest): Promise<RawResponse> {
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      let reachedServer = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const options = {
        protocol: this.protocol,
        hostname: this.hostname,
        port: this.port,
        path,
        method,
        headers,
        agent: this.agentFor(),
      };
      this.request ??= this.protocol === "https:" ? httpsModule().request : httpModule().request;
      const req = this.request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
          finish(() =>
            reject(
              new SendError(
                `the response is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; stopped reading it`,
                "fatal",
              ),
            ),
          );
          req.destroy();
        });
        res.on("end", () => {
          // An API answer mostly comes in one chunk: no copy into a new buffer then.
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const text = encoding === undefined ? body.toString("utf8") : decode(body, encoding);
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        });
        // What arrived is told (redacted, then shortened and escaped by the client), so a cut
        // answer is recognisable.
        const cutOff = (why: string) => {
          const got = Buffer.concat(chunks).toString("utf8");
          return new SendError(
            `connection lost while reading the response (HTTP ${res.statusCode}${why}${got.trim() ? `, after ${size} bytes` : ""})`,
            "lost",
            got.trim() ? got : undefined,
          );
        };
        res.on("error", (err) => finish(() => reject(cutOff(`, ${describeNetworkError(err)}`))));
        res.on("aborted", () => finish(() => reject(cutOff(""))));
      });
      req.on("socket", (socket) => {
        if (!socket.connecting) reachedServer = true;
        else socket.once("connect", () => (reachedServer = true));
      });
      const timer = setTimeout(
        () => {
          finish(() => reject(new OutOfTime(timeoutMs)));
          req.destroy();
        },
        Math.max(1, timeLeftMs),
      );
      req.on("error", (err: NodeJS.ErrnoException) => {
        finish(() => reject(new SendError(describeNetworkError(err), failureKind(err, reachedServer))));
      });
      req.end(payload);
    });
  }
}

/**
 * A body sent with a Content-Encoding (edgectl asks for none, but a proxy or a server may send
 * one anyway): gzip, deflate and br are decoded (node:zlib, loaded only then, its output bounded
 * as a body is); any other, or one that does not decode, is named instead of shown as binary.
 */
function decode(body: Buffer, header: string): string {
  const codings = header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0) return body.toString("utf8");
  const zlib = process.getBuiltinModule("node:zlib");
  const limit = { maxOutputLength: MAX_BODY_BYTES };
  let out = body;
  // The codings were applied in the order listed: undone last first.
  for (const coding of codings.reverse()) {
    try {
      if (coding === "gzip" || coding === "x-gzip") out = zlib.gunzipSync(out, limit);
      else if (coding === "br") out = zlib.brotliDecompressSync(out, limit);
      else if (coding === "deflate") {
        // "deflate" is zlib-wrapped by the standard, raw by some servers.
        try {
          out = zlib.inflateSync(out, limit);
        } catch {
          out = zlib.inflateRawSync(out, limit);
        }
      } else
        return `(a body of ${body.length} bytes in the ${JSON.stringify(coding)} content encoding, which edgectl cannot read)`;
    } catch (err) {
      return `(a body of ${body.length} bytes in the ${JSON.stringify(coding)} content encoding that could not be decoded: ${(err as Error).message})`;
    }
  }
  return out.toString("utf8");
}

function failureKind(err: NodeJS.ErrnoException, reachedServer: boolean): FailureKind {
  // A ProxyError (proxy.ts) is a failure before the tunnel to the API opened.
  const refused =
    err.code === "ECONNREFUSED" ||
    (!reachedServer && err.code === "ENOTFOUND") ||
    (err as { neverSent?: boolean }).neverSent === true;
  if (refused && !reachedServer) return "never-sent";
  const fatal =
    err.code === "ENOTFOUND" || err.code === "ERR_TLS_CERT_ALTNAME_INVALID" || String(err.code ?? "").includes("CERT");
  return fatal ? "fatal" : "lost";
}

export function describeNetworkError(err: NodeJS.ErrnoException): string {
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

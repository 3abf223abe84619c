// A programmable HTTP server on 127.0.0.1 for end-to-end tests: each request is recorded
// exactly as received (method, path, headers, raw body) and answered by the next scripted
// reply — a status, headers and body, a delay, a hang, or a connection reset.
import http from "node:http";
import net from "node:net";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the request's body had fully arrived (Date.now()). */
  at: number;
  /** Answered 429 by the server's own rate limit (`rateLimit`), before any script. */
  rateLimited?: true;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string | Buffer | object; delayMs?: number }
  | { reset: true; afterMs?: number }
  | { hang: true }
  /** Sends headers and part of the body, then destroys the connection. */
  | { truncate: string; status?: number }
  /** Sends headers and part of the body, then keeps the connection open without finishing. */
  | { stall: string; status?: number }
  /** Sends headers, then body bytes without end, as fast as the client reads, until it hangs up. */
  | { flood: true; status?: number };

export interface FaultServerOptions {
  /** Listen on this port of 127.0.0.1 instead of a free one. */
  port?: number;
  /**
   * Answer 429 past `requests` let in during any `windowMs` (a rolling window; refused
   * requests do not count), as the real API does: with no Retry-After unless `retryAfter`.
   */
  rateLimit?: { requests: number; windowMs: number; retryAfter?: boolean };
  /** The rate limit's clock (an in-process test shares its skipped time); Date.now by default. */
  now?: () => number;
}

export interface FaultServer {
  url: string;
  requests: RecordedRequest[];
  /** Replies used in order; when they run out, `fallback` answers. */
  script(...replies: Reply[]): void;
  fallback: (req: RecordedRequest) => Reply;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const json = (status: number, body: object, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers,
});

export const apiError = (status: number, msg: string, errorCode?: string): Reply =>
  json(status, {
    ...(errorCode ? { error_code: errorCode } : {}),
    status_code: status,
    msg,
    details: { operation_id: "op_test123" },
  });

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  const state: FaultServer = {
    url: "",
    requests: [],
    script: (...replies) => queue.push(...replies),
    fallback: () => apiError(404, "nothing scripted for this request"),
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (state.requests.length >= count) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited ${timeoutMs} ms for ${count} request(s), got ${state.requests.length}`));
        }, timeoutMs);
        const check = () => {
          if (state.requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const admit = options.rateLimit ? rollingWindow(options.rateLimit.requests, options.rateLimit.windowMs) : () => 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      state.requests.push(recorded);
      const waitMs = admit(options.now?.() ?? recorded.at);
      if (waitMs > 0) recorded.rateLimited = true;
      const reply =
        waitMs > 0
          ? rateLimitReply(waitMs, options.rateLimit?.retryAfter)
          : (queue.shift() ?? state.fallback(recorded));
      try {
        answer(reply, req, res);
      } catch {
        // A reply Node refuses to send (say, a control character in a header): cut the line.
        req.socket.destroy();
      }
      for (const check of [...waiters]) check();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** 0 when a request at `now` is let in (and counted), else the milliseconds until a place frees up. */
function rollingWindow(requests: number, windowMs: number): (now: number) => number {
  const stamps: number[] = [];
  return (now) => {
    while (stamps.length > 0 && stamps[0]! <= now - windowMs) stamps.shift();
    if (stamps.length >= requests) return stamps[0]! + windowMs - now;
    stamps.push(now);
    return 0;
  };
}

function rateLimitReply(waitMs: number, retryAfter = false): Reply {
  const reply = apiError(429, "You have exceeded your API rate limit", "ERR_NGROK_226");
  return retryAfter ? { ...reply, headers: { "Retry-After": String(Math.ceil(waitMs / 1000)) } } : reply;
}

function answer(reply: Reply, req: http.IncomingMessage, res: http.ServerResponse): void {
  if ("hang" in reply) return;
  if ("reset" in reply) {
    setTimeout(() => req.socket.destroy(), reply.afterMs ?? 0);
    return;
  }
  if ("truncate" in reply) {
    res.writeHead(reply.status ?? 200, {
      "Content-Type": "application/json",
      "Content-Length": String(reply.truncate.length + 100),
    });
    res.write(reply.truncate);
    setTimeout(() => req.socket.destroy(), 20);
    return;
  }
  if ("flood" in reply) {
    res.writeHead(reply.status ?? 200, { "Content-Type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    res.write('{"id":"');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on("drain", pump);
    pump();
    return;
  }
  if ("stall" in reply) {
    res.writeHead(reply.status ?? 200, {
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(reply.stall) + 100),
    });
    res.write(reply.stall);
    return;
  }
  const send = () => {
    // A Buffer goes as it is (an encoded body); any other object as JSON.
    const body =
      reply.body === undefined
        ? ""
        : typeof reply.body === "string" || Buffer.isBuffer(reply.body)
          ? reply.body
          : JSON.stringify(reply.body);
    const headers: Record<string, string> = {
      ...(body && typeof reply.body === "object" && !Buffer.isBuffer(reply.body)
        ? { "Content-Type": "application/json" }
        : {}),
      ...reply.headers,
    };
    res.writeHead(reply.status, headers);
    res.end(body);
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs);
  else send();
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => resolve()));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

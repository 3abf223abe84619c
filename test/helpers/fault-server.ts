// A programmable HTTP server on 127.0.0.1 for end-to-end tests: each request is recorded
// exactly as received (method, path, headers, raw body) and answered by the next scripted
// reply — a status, headers and body, a delay, a hang, or a connection reset.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string | object; delayMs?: number }
  | { reset: true; afterMs?: number }
  | { hang: true }
  /** Sends headers and part of the body, then destroys the connection. */
  | { truncate: string; status?: number };

export interface FaultServer {
  url: string;
  requests: RecordedRequest[];
  /** Replies used in order; when they run out, `fallback` answers. */
  script(...replies: Reply[]): void;
  fallback: (req: RecordedRequest) => Reply;
  close(): Promise<void>;
}

export const json = (status: number, body: object, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

export const apiError = (status: number, msg: string, errorCode?: string): Reply =>
  json(status, { ...(errorCode ? { error_code: errorCode } : {}), status_code: status, msg, details: { operation_id: "op_test123" } });

export async function startFaultServer(): Promise<FaultServer> {
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  const state: FaultServer = {
    url: "",
    requests: [],
    script: (...replies) => queue.push(...replies),
    fallback: () => apiError(404, "nothing scripted for this request"),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.requests.push(recorded);
      const reply = queue.shift() ?? state.fallback(recorded);
      answer(reply, req, res);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function answer(reply: Reply, req: http.IncomingMessage, res: http.ServerResponse): void {
  if ("hang" in reply) return;
  if ("reset" in reply) {
    setTimeout(() => req.socket.destroy(), reply.afterMs ?? 0);
    return;
  }
  if ("truncate" in reply) {
    res.writeHead(reply.status ?? 200, { "Content-Type": "application/json", "Content-Length": String(reply.truncate.length + 100) });
    res.write(reply.truncate);
    setTimeout(() => req.socket.destroy(), 20);
    return;
  }
  const send = () => {
    const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    const headers: Record<string, string> = { ...(body && typeof reply.body === "object" ? { "Content-Type": "application/json" } : {}), ...reply.headers };
    res.writeHead(reply.status, headers);
    res.end(body);
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs);
  else send();
}

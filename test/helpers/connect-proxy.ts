// A small forward proxy on 127.0.0.1 for end-to-end tests. It speaks CONNECT only (as
// curl and gh use it for https): each CONNECT is recorded (target and headers) and every
// byte relayed through the tunnel is kept, per direction, so a test can check what a proxy
// could have read. It can be told to refuse (403, 407), to want credentials, or to hang.
// Requests other than CONNECT (absolute-form GETs) are recorded and refused with 405.
// With `tls`, clients speak TLS to the proxy itself (an https:// proxy URL).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { AddressInfo, Socket } from "node:net";

export interface ConnectRecord {
  /** The request target as sent: `host:port`. */
  target: string;
  headers: http.IncomingHttpHeaders;
  /** The status the proxy answered with. */
  status: number;
}

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>` (`https://localhost:<port>` with `tls`) */
  url: string;
  port: number;
  connects: ConnectRecord[];
  /** Non-CONNECT requests (a client sending the API request itself to the proxy). */
  plainRequests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  /** Bytes relayed client → server and server → client, in order. */
  sent: Buffer[];
  received: Buffer[];
  /** Every relayed byte, both directions. */
  relayed(): Buffer;
  /** Answer every CONNECT with this status instead of opening the tunnel. */
  refuseWith: 403 | 407 | 502 | undefined;
  /** When set, a CONNECT without `Proxy-Authorization: Basic base64(this)` gets 407. */
  requireAuth: string | undefined;
  /** Accept CONNECTs but never answer them. */
  hang: boolean;
  /** Forget everything recorded and go back to relaying. */
  reset(): void;
  close(): Promise<void>;
}

/** Only loopback targets are relayed: a test proxy must never reach out. */
function loopbackHost(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return "127.0.0.1";
  if (net.isIPv4(bare) && bare.startsWith("127.")) return bare;
  if (bare === "::1") return "::1";
  return undefined;
}

function splitTarget(target: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target);
  if (!m) return undefined;
  return { host: m[1]!, port: Number(m[2]) };
}

export interface ConnectProxyOptions {
  /** Serve the proxy over TLS with this certificate: its url is then `https://localhost:<port>`. */
  tls?: { cert: Buffer; key: Buffer };
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const state: ConnectProxy = {
    url: "",
    port: 0,
    connects: [],
    plainRequests: [],
    sent: [],
    received: [],
    relayed: () => Buffer.concat([...state.sent, ...state.received]),
    refuseWith: undefined,
    requireAuth: undefined,
    hang: false,
    reset() {
      state.connects.length = 0;
      state.plainRequests.length = 0;
      state.sent.length = 0;
      state.received.length = 0;
      state.refuseWith = undefined;
      state.requireAuth = undefined;
      state.hang = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    state.plainRequests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    res.writeHead(405, { "Content-Type": "text/plain", Connection: "close" });
    res.end("this test proxy only tunnels (CONNECT)\n");
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
    : http.createServer(onRequest);

  server.on("connect", (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    const record: ConnectRecord = { target, headers: req.headers, status: 0 };
    state.connects.push(record);
    client.on("error", () => {});
    const refuse = (status: number, extra = "") => {
      record.status = status;
      client.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    };
    if (state.hang) return;
    if (state.refuseWith)
      return refuse(state.refuseWith, state.refuseWith === 407 ? 'Proxy-Authenticate: Basic realm="test"\r\n' : "");
    if (
      state.requireAuth !== undefined &&
      req.headers["proxy-authorization"] !== `Basic ${Buffer.from(state.requireAuth).toString("base64")}`
    ) {
      return refuse(407, 'Proxy-Authenticate: Basic realm="test"\r\n');
    }
    const parsed = splitTarget(target);
    const host = parsed && loopbackHost(parsed.host);
    if (!parsed || !host) return refuse(403);
    const upstream = net.connect({ host, port: parsed.port });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => {
      if (!record.status) refuse(502);
      else client.destroy();
    });
    upstream.once("connect", () => {
      record.status = 200;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) {
        state.sent.push(Buffer.from(head));
        upstream.write(head);
      }
      client.on("data", (chunk: Buffer) => {
        state.sent.push(Buffer.from(chunk));
        upstream.write(chunk);
      });
      upstream.on("data", (chunk: Buffer) => {
        state.received.push(Buffer.from(chunk));
        client.write(chunk);
      });
      client.on("end", () => upstream.end());
      upstream.on("end", () => client.end());
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
  });

  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  state.port = (server.address() as AddressInfo).port;
  state.url = options.tls ? `https://localhost:${state.port}` : `http://127.0.0.1:${state.port}`;
  return state;
}

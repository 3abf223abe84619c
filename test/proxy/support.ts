// Shared pieces of the proxy suites (not a test file itself): a throw-away self-signed
// certificate for localhost and 127.0.0.1, made with openssl at test time, and an HTTPS
// server on 127.0.0.1 that answers like the API and records what it received.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export interface TestCert {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
  cleanup(): void;
}

/**
 * A self-signed certificate valid for one day, by default for `DNS:localhost` and `IP:127.0.0.1`.
 * Made without blocking the worker (its other files' tests run meanwhile), on a P-256 key: an
 * RSA key's generation took openssl up to a second.
 */
export async function makeCert(subjectAltName = "DNS:localhost,IP:127.0.0.1"): Promise<TestCert> {
  const dir = mkdtempSync(join(tmpdir(), "edgectl-tls-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  // prettier-ignore
  await promisify(execFile)("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile,
    "-out", certFile, "-subj", "/CN=localhost", "-addext", `subjectAltName=${subjectAltName}`, "-days", "1",
  ]);
  return {
    dir,
    certFile,
    keyFile,
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ApiServer {
  /** `https://localhost:<port>` (or `http://127.0.0.1:<port>` for a plain server). */
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export const FB = (id: string) => ({
  id,
  uri: `https://api.example/backends/failover/${id}`,
  created_at: "2026-01-01T00:00:00Z",
  description: "through the proxy",
  metadata: "",
  backends: ["bkdhr_a"],
});

/** Answers like the API: GET/DELETE of a failover backend, PUT/GET of a webhook module. */
function answer(req: SeenRequest, res: http.ServerResponse): void {
  const send = (status: number, body?: object) => {
    if (body === undefined) return void res.writeHead(status).end();
    const text = JSON.stringify(body);
    res
      .writeHead(status, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) })
      .end(text);
  };
  const fo = /^\/backends\/failover\/(bkdfo_\w+)$/.exec(req.path);
  if (fo && req.method === "GET") return send(200, FB(fo[1]!));
  if (fo && req.method === "DELETE") return send(204);
  if (req.path === "/backends/failover" && req.method === "POST")
    return send(201, { ...FB("bkdfo_new"), ...JSON.parse(req.body || "{}") });
  if (/\/webhook_verification$/.test(req.path) && req.method === "PUT") return send(200, JSON.parse(req.body || "{}"));
  send(404, {
    error_code: "ERR_NGROK_404",
    status_code: 404,
    msg: "not found",
    details: { operation_id: "op_proxytest" },
  });
}

function serve(server: http.Server, scheme: "https" | "http"): Promise<ApiServer> {
  const sockets = new Set<Socket>();
  const state: ApiServer = {
    url: "",
    port: 0,
    requests: [],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.requests.push(seen);
      answer(seen, res);
    });
  });
  // For https this is the raw TCP socket; destroying it ends the TLS session too.
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      state.port = (server.address() as AddressInfo).port;
      state.url = scheme === "https" ? `https://localhost:${state.port}` : `http://127.0.0.1:${state.port}`;
      resolve(state);
    });
  });
}

export function startHttpsApi(cert: TestCert): Promise<ApiServer> {
  return serve(https.createServer({ cert: cert.cert, key: cert.key }), "https");
}

export function startHttpApi(): Promise<ApiServer> {
  return serve(http.createServer(), "http");
}

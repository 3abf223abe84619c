// What the traffic port's tests share: an emulator in this process with its traffic port,
// local upstream servers on port 0, raw requests that set Host (fetch will not), and endpoints
// made through the emulator's own API.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../../src/emulator/server.js";
import { call } from "../../helpers/emulator.js";

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

/** A local app: records each request, answers 200 with a JSON echo unless `answer` says otherwise. */
export async function upstream(
  answer?: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body });
      if (answer) return answer(req, res, body);
      const out = JSON.stringify({ method: req.method, url: req.url, body });
      res.writeHead(200, { "content-type": "application/json", "x-app": "yes", "ngrok-error-code": "forged" });
      res.end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function trafficEmulator(opts: EmulatorOptions = {}): Promise<Emulator & { lines: string[] }> {
  const lines: string[] = [];
  const emu = await startEmulator({ port: 0, trafficPort: 0, trafficLog: (l) => lines.push(l), ...opts });
  return Object.assign(emu, { lines });
}

export async function endpoint(emu: Emulator, url: string, policy: unknown, internal = false): Promise<string> {
  const r = await call(emu.url, "POST", "/endpoints", {
    body: {
      type: "cloud",
      url,
      traffic_policy: typeof policy === "string" ? policy : JSON.stringify(policy),
      ...(internal ? { bindings: ["internal"] } : {}),
    },
  });
  if (r.status !== 201) throw new Error(`POST /endpoints ${url} answered ${r.status}: ${r.text}`);
  return r.json.id as string;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request to the traffic port, with its own connection. */
export function send(
  trafficUrl: string,
  opts: { host: string; method?: string; path?: string; headers?: Record<string, string | string[]>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${trafficUrl}${opts.path ?? "/"}`,
      { method: opts.method ?? "GET", headers: { host: opts.host, ...opts.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error("no answer in 5 s")));
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** A policy that forwards every request to `url`, with optional rules before. */
export const forwardTo = (url: string, extra: Record<string, unknown> = {}) => ({
  on_http_request: [{ name: "forward", actions: [{ type: "forward-internal", config: { url } }] }],
  ...extra,
});

// The hop to a local server (an --upstream mapping, playing an agent endpoint): the request's
// method, path, query, headers and body go on, the answer comes back, both streamed unless a
// policy must read them. As a standards-compliant reverse proxy ngrok "does not forward any
// hop-by-hop headers" (ngrok-docs endpoints/cloud-endpoints/http.mdx:350-355), i.e. RFC 9110
// §7.6.1: Connection and every field it names, Proxy-Connection, Keep-Alive, TE,
// Transfer-Encoding, Upgrade; and Proxy-Authenticate / Proxy-Authorization, which the RFC 2616
// §13.5.1 list that page links to names too.
import http from "node:http";
import type { Readable } from "node:stream";
import { upstreamInvalid, upstreamRefused, upstreamTimeout, type EdgeError } from "./errors.js";

const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "te",
  "transfer-encoding",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
  "trailer",
]);

/** Headers (lower-case names) without the hop-by-hop ones, nor any the Connection header names. */
export function endToEnd(headers: Record<string, string[]>): Record<string, string[]> {
  const named = new Set<string>();
  for (const v of headers.connection ?? [])
    for (const token of v.split(",")) if (token.trim() !== "") named.add(token.trim().toLowerCase());
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

/**
 * X-Forwarded-For / -Proto appended to, X-Forwarded-Host kept when the client sent one, else
 * the Host (ngrok-docs endpoints/cloud-endpoints/http.mdx:396-408, "Upstream headers").
 */
export function forwardedHeaders(
  headers: Record<string, string[]>,
  clientIp: string,
  proto: "http" | "https",
  host: string,
): Record<string, string[]> {
  const append = (name: string, value: string) => {
    const had = headers[name];
    return had && had.length > 0 ? [`${had.join(", ")}, ${value}`] : [value];
  };
  return {
    ...headers,
    "x-forwarded-for": append("x-forwarded-for", clientIp),
    "x-forwarded-proto": append("x-forwarded-proto", proto),
    "x-forwarded-host": headers["x-forwarded-host"] ?? [host],
  };
}

/** For node:http: one value as a string (Host must be one), several as a list. */
export function flat(headers: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}

export interface UpstreamAnswer {
  status: number;
  /** Lower-case names, end-to-end only. */
  headers: Record<string, string[]>;
  body: Readable;
}

/** Keep-alive connections to the upstreams, one pool per traffic port (destroyed on its close). */
export const upstreamAgent = () => new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * Sends the request to `target` (http://host:port, maybe with a base path) and resolves with its
 * answer, or with the edge error ngrok gives: refused → 8012, no answer in time → 3005, a broken
 * answer → 3004 (errors.ts).
 */
export function sendUpstream(
  target: string,
  req: { method: string; pathAndQuery: string; headers: Record<string, string[]>; body: Buffer | Readable },
  timeoutMs: number,
  agent: http.Agent,
): Promise<UpstreamAnswer | EdgeError> {
  const { base, prefix } = parsedTarget(target);
  const addr = base.host;
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: UpstreamAnswer | EdgeError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const out = http.request(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: base.port || 80,
        method: req.method,
        path: `${prefix}${req.pathAndQuery}`,
        headers: flat(req.headers),
        agent,
        // The header names and values came through node:http already.
        setHost: false,
      },
      (res) => {
        const headers: Record<string, string[]> = {};
        for (const [k, v] of Object.entries(res.headersDistinct)) if (v) headers[k] = v;
        // An upstream can never set ngrok-error-code (http.mdx:461).
        delete headers["ngrok-error-code"];
        done({ status: res.statusCode ?? 502, headers: endToEnd(headers), body: res });
      },
    );
    const timer = setTimeout(() => {
      done(upstreamTimeout(addr, timeoutMs));
      out.destroy();
    }, timeoutMs);
    out.on("error", (err: NodeJS.ErrnoException) => {
      const code = err.code ?? err.message;
      if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EHOSTUNREACH" || code === "EADDRNOTAVAIL")
        done(
          upstreamRefused(addr, `dial tcp ${addr}: connect: ${code === "ECONNREFUSED" ? "connection refused" : code}`),
        );
      else done(upstreamInvalid(`${addr}: ${code}`));
    });
    if (Buffer.isBuffer(req.body)) out.end(req.body);
    else req.body.pipe(out);
  });
}

const targets = new Map<string, { base: URL; prefix: string }>();
/** The --upstream URLs, parsed once each. */
function parsedTarget(target: string): { base: URL; prefix: string } {
  let t = targets.get(target);
  if (!t) {
    const base = new URL(target);
    targets.set(target, (t = { base, prefix: base.pathname.replace(/\/$/, "") }));
  }
  return t;
}

export const isEdgeError = (v: UpstreamAnswer | EdgeError): v is EdgeError => "code" in v;

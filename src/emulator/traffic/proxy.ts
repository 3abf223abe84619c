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

/** The fields a Connection header names (lower case), which are hop-by-hop too; undefined when none. */
function connectionNamed(values: readonly string[] | undefined): Set<string> | undefined {
  if (values === undefined) return undefined;
  let named: Set<string> | undefined;
  for (const v of values) {
    // The usual values name only what is dropped anyway.
    if (v === "keep-alive" || v === "close") continue;
    for (const token of v.split(",")) {
      const t = token.trim().toLowerCase();
      if (t !== "" && !HOP_BY_HOP.has(t) && t !== "close") (named ??= new Set()).add(t);
    }
  }
  return named;
}

/**
 * A message's headers (node's rawHeaders: name, value, name, value…) by lower-case name, each
 * with its values in order, as node's headersDistinct has them, in one pass. Like every header
 * object here, it has no prototype (as headersDistinct has none), so that a header named
 * `constructor` or `toString` is a header like any other; `__proto__` is left out, as
 * headersDistinct leaves it.
 */
export function headerLists(raw: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase();
    if (k === "__proto__") continue;
    const had = out[k];
    if (had === undefined) out[k] = [raw[i + 1]!];
    else had.push(raw[i + 1]!);
  }
  return out;
}

/**
 * What goes to the upstream, as the name, value, name, value… list node:http takes (a field of
 * several values as several lines), in one pass: without the hop-by-hop headers nor any the
 * Connection header names, X-Forwarded-For / -Proto appended to, X-Forwarded-Host kept when the
 * client sent one, else the Host (ngrok-docs endpoints/cloud-endpoints/http.mdx:396-408,
 * "Upstream headers"). A list, not an object: http.request then writes it as it is, where an
 * object is set field by field first (a pass on every proxied request's path, BENCHMARKS.md "The
 * traffic port, third pass").
 */
export function upstreamHeaders(
  headers: Record<string, string[]>,
  clientIp: string,
  proto: "http" | "https",
  host: string,
): string[] {
  const named = connectionNamed(headers.connection);
  const out: string[] = [];
  let forwardedFor = false;
  let forwardedProto = false;
  let forwardedHost = false;
  for (const k in headers) {
    if (HOP_BY_HOP.has(k) || named?.has(k)) continue;
    const v = headers[k]!;
    if (k === "x-forwarded-for" || k === "x-forwarded-proto") {
      const add = k === "x-forwarded-for" ? clientIp : proto;
      out.push(k, v.length > 0 ? `${v.join(", ")}, ${add}` : add);
      if (k === "x-forwarded-for") forwardedFor = true;
      else forwardedProto = true;
      continue;
    }
    if (k === "x-forwarded-host") forwardedHost = true;
    for (const value of v) out.push(k, value);
  }
  if (!forwardedFor) out.push("x-forwarded-for", clientIp);
  if (!forwardedProto) out.push("x-forwarded-proto", proto);
  if (!forwardedHost) out.push("x-forwarded-host", host);
  return out;
}

/**
 * An upstream's answer headers for node:http's writeHead, in one pass over rawHeaders: lower-case
 * names, several values as a list, without the hop-by-hop ones nor ngrok-error-code, which an
 * upstream can never set (http.mdx:461).
 */
export function answerHeaders(raw: readonly string[]): Record<string, string | string[]> {
  let connection: string[] | undefined;
  const out: Record<string, string | string[]> = Object.create(null);
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase();
    const v = raw[i + 1]!;
    if (k === "connection") (connection ??= []).push(v);
    if (HOP_BY_HOP.has(k) || k === "ngrok-error-code" || k === "__proto__") continue;
    const had = out[k];
    if (had === undefined) out[k] = v;
    else if (typeof had === "string") out[k] = [had, v];
    else had.push(v);
  }
  const named = connectionNamed(connection);
  if (named) for (const k of named) delete out[k];
  return out;
}

/** node:http's form (answerHeaders) back to lists, for on_http_response. */
export function lists(headers: Record<string, string | string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const k in headers) {
    const v = headers[k]!;
    out[k] = typeof v === "string" ? [v] : v;
  }
  return out;
}

/** For node:http: one value as a string (Host must be one), several as a list. */
export function flat(headers: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const k in headers) {
    const v = headers[k]!;
    out[k] = v.length === 1 ? v[0]! : v;
  }
  return out;
}

export interface UpstreamAnswer {
  status: number;
  /** Lower-case names, end-to-end only, in node:http's form (answerHeaders). */
  headers: Record<string, string | string[]>;
  body: Readable;
}

/** Keep-alive connections to the upstreams, one pool per traffic port (destroyed on its close). */
export const upstreamAgent = () => new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * Sends the request to `target` (http://host:port, maybe with a base path) and calls `done` once
 * with its answer, or with the edge error ngrok gives: refused → 8012, no answer in time → 3005,
 * a broken answer → 3004 (errors.ts). A callback, not a promise: this is on every proxied
 * request, and the traffic port's cost is counted per request (BENCHMARKS.md, "The traffic
 * port, third pass").
 */
export function sendUpstream(
  target: string,
  req: {
    method: string;
    pathAndQuery: string;
    /** name, value, name, value… (upstreamHeaders) */
    headers: string[];
    /** undefined: the request has no body. */
    body: Buffer | Readable | undefined;
  },
  timeoutMs: number,
  agent: http.Agent,
  done: (answer: UpstreamAnswer | EdgeError) => void,
): void {
  const t = parsedTarget(target);
  let settled = false;
  const settle = (v: UpstreamAnswer | EdgeError) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done(v);
  };
  const out = http.request(
    {
      protocol: t.protocol,
      hostname: t.hostname,
      port: t.port,
      method: req.method,
      path: `${t.prefix}${req.pathAndQuery}`,
      headers: req.headers,
      agent,
      // The header names and values came through node:http already.
      setHost: false,
    },
    (res) => settle({ status: res.statusCode ?? 502, headers: answerHeaders(res.rawHeaders), body: res }),
  );
  const timer = setTimeout(() => {
    settle(upstreamTimeout(t.addr, timeoutMs));
    out.destroy();
  }, timeoutMs);
  out.on("error", (err: NodeJS.ErrnoException) => {
    const code = err.code ?? err.message;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EHOSTUNREACH" || code === "EADDRNOTAVAIL")
      settle(
        upstreamRefused(
          t.addr,
          `dial tcp ${t.addr}: connect: ${code === "ECONNREFUSED" ? "connection refused" : code}`,
        ),
      );
    else settle(upstreamInvalid(`${t.addr}: ${code}`));
  });
  if (req.body === undefined) out.end();
  else if (Buffer.isBuffer(req.body)) out.end(req.body);
  else req.body.pipe(out);
}

interface Target {
  protocol: string;
  /** Without an IPv6 address's brackets, as http.request takes it. */
  hostname: string;
  port: string | number;
  /** host:port, as ngrok's errors name it. */
  addr: string;
  /** The target's base path, without its final slash. */
  prefix: string;
}

const targets = new Map<string, Target>();
/** The --upstream URLs, parsed once each. */
function parsedTarget(target: string): Target {
  let t = targets.get(target);
  if (!t) {
    const base = new URL(target);
    t = {
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: base.port || 80,
      addr: base.host,
      prefix: base.pathname.replace(/\/$/, ""),
    };
    targets.set(target, t);
  }
  return t;
}

export const isEdgeError = (v: UpstreamAnswer | EdgeError): v is EdgeError => "code" in v;

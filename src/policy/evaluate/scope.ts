// The variables an expression sees (ngrok-docs snippets/traffic-policy/variables/req.mdx,
// res.mdx, conn.mdx, endpoint.mdx, time.mdx), made from the request as it stands.
import type { EvalRequest, EvalResponse, Protocol } from "./types.js";

/** The query string's parameters, names to values (req.url.query_params). */
function queryParams(search: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of search) (out[k] ??= []).push(v);
  return out;
}

/** The media type and raw text of a Content-Type (req.content_type). */
function contentType(headers: Record<string, string[]>): string | undefined {
  const raw = headers["content-type"]?.[0];
  return raw === undefined ? undefined : raw.split(";")[0]!.trim().toLowerCase();
}

/** The cookies of a request, by name (req.cookies[k][i].{name,value}). */
function cookies(headers: Record<string, string[]>): Record<string, { name: string; value: string }[]> {
  const out: Record<string, { name: string; value: string }[]> = {};
  for (const line of headers.cookie ?? [])
    for (const part of line.split(";")) {
      const at = part.indexOf("=");
      if (at < 0) continue;
      const name = part.slice(0, at).trim();
      (out[name] ??= []).push({ name, value: part.slice(at + 1).trim() });
    }
  return out;
}

export interface UrlParts {
  url: URL;
  raw: string;
}

export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The request's URL, parsed once for the variables of a phase (req, conn and endpoint variables
 * read the same text one after the other); only read here, never changed.
 */
let lastText: string | undefined;
let lastUrl: URL | undefined;
function readUrl(text: string): URL | undefined {
  if (text !== lastText) {
    lastUrl = parseUrl(text);
    lastText = text;
  }
  return lastUrl;
}

/**
 * req.* for the request as it stands. Built by assignment, without spreads: a request's headers
 * object has no prototype (a dictionary in V8), which an object spread copies on its slow path,
 * and a spread in a literal (`...(port ? {port} : {})`) takes it too; this is made once per
 * request and phase (BENCHMARKS.md, "The traffic port, third pass").
 */
export function reqVariables(req: EvalRequest): Record<string, unknown> {
  const u = readUrl(req.url);
  const h = req.headers;
  const path = u ? u.pathname : "/";
  // URL's search is "" or "?…", its protocol "scheme:".
  const query = u ? u.search.slice(1) : "";
  const url: Record<string, unknown> = {
    scheme: u ? u.protocol.slice(0, -1) : "",
    host: u?.hostname ?? "",
    authority: u?.host ?? "",
    path,
    raw_path: path,
    query,
    // u.searchParams is made (the query parsed) on first read: not for a URL without one.
    query_params: u && u.search !== "" ? queryParams(u.searchParams) : {},
    uri: query === "" ? path : `${path}?${query}`,
    raw: req.url,
    user_password: u && u.username !== "" ? `${u.username}:${u.password}` : "",
  };
  if (u && u.port !== "") url.port = Number(u.port);
  const vars: Record<string, unknown> = {
    method: req.method,
    host: h.host?.[0] ?? u?.host ?? "",
    // A copy: the actions change the request's headers in place (add-headers), and an
    // activation shows the request as it stood when it was made.
    headers: copyLists(h),
    cookies: h.cookie === undefined ? {} : cookies(h),
    user_agent: h["user-agent"]?.[0] ?? "",
    content_length: req.body.length,
    url,
  };
  const type = contentType(h);
  if (type !== undefined) vars.content_type = type;
  const location = h.location?.[0];
  if (location !== undefined) vars.location = location;
  return vars;
}

/** A shallow copy of a header object, its lists shared (they are replaced, never changed, by the actions). */
function copyLists(h: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const k in h) out[k] = h[k]!;
  return out;
}

/** res.* for the upstream's answer as it stands. */
export function resVariables(res: EvalResponse): Record<string, unknown> {
  const vars: Record<string, unknown> = {
    status_code: res.status,
    headers: { ...res.headers },
    content_length: res.body.length,
  };
  const type = contentType(res.headers);
  if (type !== undefined) vars.content_type = type;
  if (res.headers.location?.[0] !== undefined) vars.location = res.headers.location[0];
  return vars;
}

/** time.now of the last second seen: toISOString() a request costs ~1 µs, and requests share their second. */
let nowSecond = NaN;
let nowText = "";
function timeNow(time: Date): string {
  const second = Math.floor(time.getTime() / 1000);
  if (second !== nowSecond) {
    // toISOString() always ends in .sssZ: whole seconds, as ngrok gives time.now.
    nowText = `${time.toISOString().slice(0, -5)}Z`;
    nowSecond = second;
  }
  return nowText;
}

/** conn.*, endpoint.* and time.* for a request. */
export function connVariables(req: EvalRequest, protocol: Protocol): Record<string, unknown> {
  const u = readUrl(req.url);
  const port = u ? (u.port !== "" ? Number(u.port) : protocol === "http" ? 80 : 443) : 0;
  const host = u?.hostname ?? "";
  return {
    conn: { client_ip: req.clientIp },
    endpoint: {
      protocol,
      host,
      port,
      url: u ? `${protocol}://${u.host}` : "",
      addr: `${host}:${port}`,
    },
    time: { now: timeNow(req.time) },
  };
}

// A raw HTTP/1.1 request, as a file or stdin holds it (`webhook verify --request-file`): the
// request line, the header lines, a blank line and the body's exact bytes (RFC 9112 §2–§6). Lines
// may end in CRLF or LF; a Content-Length body is cut to its length, a chunked one is decoded.
import type { Delivery } from "./scheme.js";

export class RequestParseError extends Error {}

export interface ParsedRequest extends Delivery {
  /** The request target as written (origin form `/path?q`, or absolute form). */
  target: string;
}

const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The request; its URL is `url` when given, else the target when absolute, else `https://` (or
 * X-Forwarded-Proto's scheme) + Host + the target.
 */
export function parseRawRequest(raw: Buffer, url?: string): ParsedRequest {
  const { head, bodyStart } = splitHead(raw);
  const lines = head.split(/\r?\n/);
  const requestLine = lines.shift()!;
  const parts = requestLine.split(" ");
  if (parts.length !== 3 || !METHOD.test(parts[0]!) || !/^HTTP\/1\.[01]$/.test(parts[2]!))
    throw new RequestParseError(
      `the first line is not a request line ("METHOD /path HTTP/1.1"): ${JSON.stringify(requestLine.slice(0, 80))}`,
    );
  const [method, target] = parts as [string, string, string];
  const headers: Record<string, string> = {};
  for (const [i, line] of lines.entries()) {
    const colon = line.indexOf(":");
    if (colon <= 0 || /\s/.test(line.slice(0, colon)))
      throw new RequestParseError(
        `line ${i + 2} is not a header ("Name: value"): ${JSON.stringify(line.slice(0, 80))}`,
      );
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    // Repeated fields combine with ", " (RFC 9110 §5.3).
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = raw.subarray(bodyStart);
  const body = bodyOf(rest, headers);
  return { method, target, url: url ?? urlOf(target, headers), headers, body };
}

function splitHead(raw: Buffer): { head: string; bodyStart: number } {
  const crlf = raw.indexOf("\r\n\r\n");
  const lf = raw.indexOf("\n\n");
  if (crlf < 0 && lf < 0) {
    // Headers only, no blank line: an empty body.
    const text = raw.toString("latin1").replace(/\r?\n$/, "");
    if (text === "") throw new RequestParseError("the request is empty");
    return { head: text, bodyStart: raw.length };
  }
  if (crlf >= 0 && (lf < 0 || crlf < lf))
    return { head: raw.subarray(0, crlf).toString("latin1"), bodyStart: crlf + 4 };
  return { head: raw.subarray(0, lf).toString("latin1").replace(/\r$/, ""), bodyStart: lf + 2 };
}

function bodyOf(rest: Buffer, headers: Record<string, string>): Buffer {
  if (/(^|,)\s*chunked\s*$/i.test(headers["transfer-encoding"] ?? "")) return dechunk(rest);
  const length = headers["content-length"];
  if (length === undefined) return rest;
  if (!/^\d{1,15}$/.test(length))
    throw new RequestParseError(`Content-Length is not a number: ${JSON.stringify(length)}`);
  const n = Number(length);
  if (rest.length < n)
    throw new RequestParseError(`the body has ${rest.length} bytes, fewer than its Content-Length of ${n}`);
  return rest.subarray(0, n);
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\n", at);
    if (eol < 0) throw new RequestParseError("a chunked body ends before its last chunk");
    const size = Number.parseInt(data.subarray(at, eol).toString("latin1").split(";")[0]!.trim(), 16);
    if (Number.isNaN(size)) throw new RequestParseError("a chunk size is not hexadecimal");
    at = eol + 1;
    if (size === 0) return Buffer.concat(parts);
    if (at + size > data.length) throw new RequestParseError("a chunk is shorter than its size");
    parts.push(data.subarray(at, at + size));
    at += size;
    if (data[at] === 0x0d) at++;
    if (data[at] === 0x0a) at++;
  }
}

function urlOf(target: string, headers: Record<string, string>): string {
  if (/^https?:\/\//i.test(target)) return target;
  const host = headers.host;
  if (host === undefined) throw new RequestParseError("the request has no Host header: give --url");
  const proto = (headers["x-forwarded-proto"] ?? "https").split(",")[0]!.trim().toLowerCase();
  return `${proto === "http" ? "http" : "https"}://${host}${target.startsWith("/") ? target : `/${target}`}`;
}

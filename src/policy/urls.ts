// Endpoint URLs and the internal URLs `forward-internal` takes (contract: "Internal URLs" in
// "Leaving Edges", "Endpoint URLs" in "Traffic Policy and Cloud Endpoints"). Read by hand, not
// with WHATWG URL, which lower-cases hosts, drops tabs and line breaks and fills in paths: a
// URL is judged as written.
import type { Protocol } from "./index.js";

/** The schemes an internal URL may have for an endpoint of that protocol (its family). */
export function internalSchemes(protocol: Protocol): readonly Protocol[] {
  return protocol === "https" || protocol === "http" ? ["https", "http"] : [protocol];
}

const SHAPE = /^([a-z]+):\/\/([^/:?#@]*)(?::(\d*))?(\/?)$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
// A public host: DNS labels (any letter case), a leading `*.` for a wildcard endpoint.
const PUBLIC_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

interface Parts {
  scheme: string;
  host: string;
  port?: number;
}

/** The URL's parts, or why it is not `scheme://host[:port]`. */
function parts(url: string): Parts | string {
  if (/[\x00-\x1f\x7f-\x9f]/.test(url)) return "must not contain control characters";
  const m = SHAPE.exec(url);
  if (!m) {
    if (/^[a-z]+:\/\/[^/?#]*@/i.test(url)) return "must not carry a user or password";
    if (/^[a-z]+:\/\/[^/?#]*[/?#]./i.test(url))
      return "must be only a scheme, host and port: no path, query or fragment";
    return "must be scheme://host[:port]";
  }
  const [, scheme, host, port] = m;
  if (port === undefined) return { scheme: scheme!, host: host! };
  const n = Number(port);
  if (!/^\d{1,5}$/.test(port) || n < 1 || n > 65535) return "the port must be a number from 1 to 65535";
  return { scheme: scheme!, host: host!, port: n };
}

/**
 * Why `url` is not an internal URL for an endpoint of `protocol` (undefined: it is one): a
 * scheme of the family, a host ending in `.internal` with 1–5 labels of a-z0-9- before it, an
 * optional port (required for tcp), nothing else.
 */
export function internalUrlProblem(url: string, protocol: Protocol): string | undefined {
  const schemes = internalSchemes(protocol);
  const p = parts(url);
  if (typeof p === "string") return `not an internal URL: ${p}`;
  if (!(schemes as readonly string[]).includes(p.scheme))
    return `an internal URL here must start with ${schemes.map((s) => `${s}://`).join(" or ")} (the ${protocol} endpoint's protocol)`;
  const labels = p.host.split(".");
  if (labels.pop() !== "internal" || labels.length === 0)
    return "an internal URL's host must end in .internal (e.g. https://api.internal)";
  if (labels.length > 5) return `an internal URL's host has at most 5 labels before .internal (got ${labels.length})`;
  if (!labels.every((l) => LABEL.test(l)))
    return "each label of an internal host is 1–63 characters of a-z, 0-9 and -, not starting or ending with -";
  if (p.scheme === "tcp" && p.port === undefined) return "a tcp internal URL needs a port (tcp://name.internal:5432)";
  return undefined;
}

/** Why `url` is not a URL a public Cloud Endpoint can have (undefined: it is one), and its protocol. */
export function publicUrlProblem(url: string): { protocol?: Protocol; problem?: string } {
  const p = parts(url);
  if (typeof p === "string") return { problem: p };
  if (!["https", "http", "tls", "tcp"].includes(p.scheme))
    return { problem: "the scheme must be https, http, tls or tcp" };
  const protocol = p.scheme as Protocol;
  if (/\.internal$/i.test(p.host) || p.host.toLowerCase() === "internal")
    return { protocol, problem: "a .internal host needs the internal binding" };
  const labels = p.host.split(".");
  if (labels[0] === "*") labels.shift();
  if (p.host === "" || labels.length === 0 || !labels.every((l) => PUBLIC_LABEL.test(l)))
    return { protocol, problem: "the host must be a domain name (labels of letters, digits and -)" };
  if ((protocol === "https" || protocol === "tls") && p.port !== undefined && p.port !== 443)
    return { protocol, problem: `a public ${protocol} endpoint listens on port 443 only (got ${p.port})` };
  if (protocol === "http" && p.port !== undefined && p.port !== 80)
    return { protocol, problem: `a public http endpoint listens on port 80 only (got ${p.port})` };
  if (protocol === "tcp" && p.port === undefined)
    return { protocol, problem: "a tcp endpoint needs a port (tcp://1.tcp.ngrok.io:12345)" };
  return { protocol };
}

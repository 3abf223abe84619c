// Which endpoint a request is for. A request on the traffic port names its endpoint by `Host`
// (and `X-Forwarded-Proto: http` for an http:// endpoint; https by default), as ngrok's edge
// routes by the name the client connected to (contract, "The emulator's traffic port"). A
// wildcard endpoint (`https://*.example.com`) takes every subdomain, at any depth, that no
// endpoint names exactly, the longest wildcard first (ngrok-docs endpoints/cloud-endpoints/http.mdx:116-132,
// "Wildcard endpoints": "routed to the most specific online endpoint"). forward-internal targets
// and --upstream mappings are found by address.
import type { EndpointRecord } from "../store.js";

const DEFAULT_PORT: Record<string, number> = { "https:": 443, "http:": 80, "tls:": 443 };

const addresses = new Map<string, string | undefined>();

/** scheme://host:port, the host in lower case and the scheme's default port filled in; undefined when not a URL. */
export function addressOf(url: string): string | undefined {
  // Remembered: a forward-internal URL is looked up on every request, and parsing one is ~2 µs.
  if (addresses.has(url)) return addresses.get(url);
  if (addresses.size >= 1000) addresses.clear();
  const address = parseAddress(url);
  addresses.set(url, address);
  return address;
}

function parseAddress(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const port = u.port === "" ? (DEFAULT_PORT[u.protocol] ?? 0) : Number(u.port);
  return `${u.protocol.toLowerCase()}//${u.hostname.toLowerCase()}:${port}`;
}

export const isInternal = (e: EndpointRecord) => e.bindings.includes("internal");

let lastHeader: string | undefined;
let lastHost: string | undefined;
/** The host of a Host header, lower case, without port or final dot. */
export function hostOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // The last one remembered: a client sends the same Host request after request.
  if (header !== lastHeader) {
    lastHost = parseHost(header);
    lastHeader = header;
  }
  return lastHost;
}

function parseHost(header: string): string | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::\d*)?$/.exec(header.trim());
  if (!m) return undefined;
  return (m[1] ?? m[2]!).toLowerCase().replace(/\.$/, "");
}

/**
 * The endpoints by address, made again whenever the store's endpoints change (the store is the
 * truth; this is its index for the hot path, checked by the collection's version: O(1) a request).
 */
export class EndpointIndex {
  private byAddress = new Map<string, EndpointRecord>();
  /** Public wildcard endpoints per scheme: [suffix (".example.com"), endpoint], longest suffix first. */
  private wildcards = new Map<string, Array<[string, EndpointRecord]>>();
  private seen = -1;

  constructor(private readonly records: { readonly version: number; all(): EndpointRecord[] }) {}

  private refresh(): void {
    if (this.records.version === this.seen) return;
    this.seen = this.records.version;
    this.byAddress = new Map();
    this.wildcards = new Map();
    for (const r of this.records.all()) {
      const address = addressOf(r.url);
      if (address === undefined) continue;
      this.byAddress.set(address, r);
      const m = /^(https?):\/\/\*(\.[^/:]+)/i.exec(r.url);
      if (m && !isInternal(r)) {
        const list = this.wildcards.get(m[1]!.toLowerCase()) ?? [];
        list.push([m[2]!.toLowerCase(), r]);
        list.sort((a, b) => b[0].length - a[0].length);
        this.wildcards.set(m[1]!.toLowerCase(), list);
      }
    }
  }

  /** The public endpoint for a host: the one of that name, else the most specific wildcard. */
  publicFor(scheme: "http" | "https", host: string): EndpointRecord | undefined {
    this.refresh();
    const exact = this.byAddress.get(`${scheme}://${host}:${scheme === "https" ? 443 : 80}`);
    if (exact && !isInternal(exact)) return exact;
    for (const [suffix, r] of this.wildcards.get(scheme) ?? [])
      if (host.endsWith(suffix) && host.length > suffix.length) return r;
    return undefined;
  }

  /** The stored endpoint at a URL's address (any binding). */
  at(url: string): EndpointRecord | undefined {
    this.refresh();
    const address = addressOf(url);
    return address === undefined ? undefined : this.byAddress.get(address);
  }
}

// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case), honoured as curl and gh honour them.
// Requests are tunnelled with CONNECT (https-proxy-agent), so for an https API the proxy only
// ever sees encrypted bytes, never the key; the API's certificate is checked against the API's host.
//
// Which proxy applies is decided here, not by proxy-from-env: it reads only process.env (edgectl
// passes the environment in), falls back to ALL_PROXY and to HTTP_PROXY for http targets, and
// its NO_PROXY takes neither CIDR subnets, bare IPv6 addresses, nor a domain without a leading
// dot as covering its subdomains, all of which README "Proxies" promises (curl's reading).
import http from "node:http";
import net from "node:net";
import { UsageError } from "../errors.js";
import type { TunnelFailures } from "./proxy-tunnel.js";

type Env = Record<string, string | undefined>;

/**
 * A failure at the proxy, before the tunnel to the API was open: the API received nothing,
 * so the client may repeat even a POST (see `neverSent` in ApiClient).
 */
export class ProxyError extends Error {
  readonly neverSent = true;
  readonly code = "EDGECTL_PROXY";
}

function reason(err: NodeJS.ErrnoException): string {
  if (err.code === "ECONNREFUSED") return "connection refused";
  if (err.code === "ENOTFOUND") return "host not found";
  if (err.code === "ECONNRESET") return "connection reset";
  return err.message || String(err.code ?? "failed");
}

function envEntry(env: Env, name: string): { name: string; value: string } | undefined {
  for (const n of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[n];
    if (value) return { name: n, value };
  }
  return undefined;
}

/**
 * The proxy URL for a target, or undefined when none applies (plain http, unset, or NO_PROXY matches).
 * A value that is not a usable http(s) proxy URL is a UsageError: going direct instead
 * would silently bypass a proxy the user asked for.
 */
export function proxyFor(target: URL, env: Env): URL | undefined {
  // Plain http is allowed only to loopback (see settings): through a proxy the key would
  // cross it in clear, and the proxy would reach its own loopback, not ours. gh (Go) never
  // proxies loopback either; so HTTP_PROXY never applies.
  if (target.protocol !== "https:") return undefined;
  const entry = envEntry(env, "https_proxy");
  if (!entry) return undefined;
  if (bypassed(target, envEntry(env, "no_proxy")?.value)) return undefined;
  const raw = entry.value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    // The value may hold a password, so it is not repeated.
    throw new UsageError(`${entry.name} is not a valid proxy URL (expected http://host:port)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${entry.name}: ${url.protocol.slice(0, -1)} proxies are not supported; use an http:// or https:// proxy`);
  }
  if (!url.hostname) throw new UsageError(`${entry.name} names no proxy host`);
  return url;
}

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, "$1");

/** Splits a NO_PROXY entry into host and optional port: `name`, `name:80`, `[::1]:80`, `::1`, `10.0.0.0/8`. */
function splitEntry(entry: string): { name: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, port: bracketed[2] };
  // More than one colon and no brackets: a bare IPv6 address (or subnet), never with a port.
  if ((entry.match(/:/g) ?? []).length > 1) return { name: entry };
  const m = /^(.*):(\d+)$/.exec(entry);
  return m ? { name: m[1]!, port: m[2] } : { name: entry };
}

function inSubnet(host: string, subnet: string): boolean {
  const [base, bits] = subnet.split("/") as [string, string];
  const family = net.isIPv4(base) ? "ipv4" : net.isIPv6(base) ? "ipv6" : undefined;
  const prefix = Number(bits);
  if (!family || !/^\d+$/.test(bits) || prefix > (family === "ipv4" ? 32 : 128)) return false;
  const hostFamily = net.isIPv4(host) ? "ipv4" : net.isIPv6(host) ? "ipv6" : undefined;
  if (hostFamily !== family) return false;
  const list = new net.BlockList();
  list.addSubnet(base, prefix, family);
  return list.check(host, family);
}

/** NO_PROXY as curl reads it: `*`, host names (subdomains included, a leading dot or `*.` allowed), IPs, CIDR subnets, optional ports. */
function bypassed(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = unbracket(target.hostname).toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((raw) => {
      const entry = raw.toLowerCase();
      if (entry === "*") return true;
      const { name, port: entryPort } = splitEntry(entry);
      if (entryPort && entryPort !== port) return false;
      if (name.includes("/")) return inSubnet(host, name);
      if (net.isIP(name)) return net.isIP(host) !== 0 && name === host;
      const bare = name.replace(/^\*?\./, "");
      return bare !== "" && (host === bare || host.endsWith(`.${bare}`));
    });
}

/**
 * The agent for requests to `target`, or undefined when no proxy applies. The tunnel
 * (proxy-tunnel.ts: https-proxy-agent, node:https, node:tls; a bundle file of its own) loads
 * only on the first request through it, so the common path, no proxy, never loads it.
 */
export function proxyAgentFor(target: URL, env: Env, maxSockets: number): http.Agent | undefined {
  const proxy = proxyFor(target, env);
  return proxy ? new LazyTunnelAgent(proxy, maxSockets) : undefined;
}

type AddRequest = (req: http.ClientRequest, options: http.RequestOptions) => void;

/**
 * Stands in for the tunnel agent until https-proxy-agent is loaded: ClientRequest hands its
 * request to `addRequest` and waits for a socket, and what it writes meanwhile is buffered.
 */
class LazyTunnelAgent extends http.Agent {
  private tunnel?: http.Agent;
  private loading?: Promise<http.Agent>;
  private destroyed = false;
  private readonly failures: TunnelFailures;

  constructor(
    private readonly proxy: URL,
    private readonly socketLimit: number,
  ) {
    super();
    // https.request checks the agent's protocol against the URL's.
    Object.assign(this, { protocol: "https:", defaultPort: 443 });
    const name = `${proxy.protocol}//${proxy.host}`; // never the credentials
    this.failures = {
      unreachable: (err) => new ProxyError(`proxy ${name}: ${reason(err)}`),
      refused: (status, authority) => {
        const hint = status === 407 ? " — the proxy wants credentials: put them in the proxy URL (http://user:password@host:port)" : "";
        return new ProxyError(`proxy ${name} refused the tunnel to ${authority} (status ${status})${hint}`);
      },
    };
  }

  addRequest(req: http.ClientRequest, options: http.RequestOptions): void {
    const add = (tunnel: http.Agent) => (tunnel as unknown as { addRequest: AddRequest }).addRequest(req, options);
    if (this.tunnel) return add(this.tunnel);
    this.loading ??= import("./proxy-tunnel.js").then(({ tunnelAgent }) => (this.tunnel = tunnelAgent(this.proxy, this.socketLimit, this.failures)));
    this.loading.then(
      (tunnel) => {
        if (this.destroyed) tunnel.destroy();
        if (this.destroyed || req.destroyed) req.destroy();
        else add(tunnel);
      },
      (err: Error) => req.destroy(err),
    );
  }

  override destroy(): void {
    this.destroyed = true;
    this.tunnel?.destroy();
    super.destroy();
  }
}

// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case), honoured as curl and gh honour them.
// Requests are tunnelled with CONNECT, so for an https API the proxy only ever sees
// encrypted bytes, never the key; the API's certificate is checked against the API's host.
//
// Written here rather than with proxy-from-env and https-proxy-agent; both were tried (README
// "Choices we made"). proxy-from-env reads only process.env, falls back to ALL_PROXY, and its
// NO_PROXY lacks CIDR subnets, bare IPv6 addresses and subdomains of a bare domain.
// https-proxy-agent needed four patches to keep what test/proxy holds (a refusal as an error,
// the certificate checked against an IP host, pending tunnels dropped, `debug` printing the
// proxy's password under DEBUG=*) and, loaded lazily, still slowed a proxied command.
import type { Agent, ClientRequest } from "node:http";
import type { Duplex } from "node:stream";
import { UsageError } from "../errors.js";

type Env = Record<string, string | undefined>;

// Taken when first used: a command that sends nothing never loads node:net.
const net = () => process.getBuiltinModule("node:net");

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
    throw new UsageError(
      `${entry.name}: ${url.protocol.slice(0, -1)} proxies are not supported; use an http:// or https:// proxy`,
    );
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
  const family = net().isIPv4(base) ? "ipv4" : net().isIPv6(base) ? "ipv6" : undefined;
  const prefix = Number(bits);
  if (!family || !/^\d+$/.test(bits) || prefix > (family === "ipv4" ? 32 : 128)) return false;
  const hostFamily = net().isIPv4(host) ? "ipv4" : net().isIPv6(host) ? "ipv6" : undefined;
  if (hostFamily !== family) return false;
  const list = new (net().BlockList)();
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
      if (net().isIP(name)) return net().isIP(host) !== 0 && name === host;
      const bare = name.replace(/^\*?\./, "");
      return bare !== "" && (host === bare || host.endsWith(`.${bare}`));
    });
}

export function proxyAgentFor(target: URL, env: Env, maxSockets: number): Agent | undefined {
  const proxy = proxyFor(target, env);
  if (!proxy) return undefined;
  // Only an https target gets here (proxyFor). node:https and node:tls load only now: they
  // cost ~12 ms at start-up.
  const agent = new (process.getBuiltinModule("node:https").Agent)({ keepAlive: true, maxSockets });
  const pending = new Set<ClientRequest>();
  const proxyName = `${proxy.protocol}//${proxy.host}`; // never the credentials
  // Node's Agent accepts a socket handed back later through the callback.
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: { host?: string; port?: number | string },
    done: (err: Error | null, socket?: Duplex) => void,
  ) => {
    const host = unbracket(options.host ?? target.hostname);
    const port = Number(options.port || target.port || 443);
    const authority = `${net().isIPv6(host) ? `[${host}]` : host}:${port}`;
    const headers: Record<string, string> = { Host: authority };
    if (proxy.username || proxy.password) {
      const auth = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
      headers["Proxy-Authorization"] = `Basic ${Buffer.from(auth).toString("base64")}`;
    }
    const request =
      proxy.protocol === "https:"
        ? process.getBuiltinModule("node:https").request
        : process.getBuiltinModule("node:http").request;
    const req = request({
      host: unbracket(proxy.hostname),
      port: proxy.port || (proxy.protocol === "https:" ? 443 : 80),
      method: "CONNECT",
      path: authority,
      headers,
      agent: false,
      ...(proxy.protocol === "https:" && !net().isIP(unbracket(proxy.hostname))
        ? { servername: unbracket(proxy.hostname) }
        : {}),
    });
    pending.add(req);
    let called = false;
    const finish = (err: Error | null, socket?: Duplex) => {
      pending.delete(req);
      if (called) return;
      called = true;
      done(err, socket);
    };
    req.once("connect", (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        const hint =
          res.statusCode === 407
            ? " — the proxy wants credentials: put them in the proxy URL (http://user:password@host:port)"
            : "";
        finish(
          new ProxyError(`proxy ${proxyName} refused the tunnel to ${authority} (status ${res.statusCode})${hint}`),
        );
        return;
      }
      if (head.length) socket.unshift(head);
      // The certificate is checked against the API's host (never the proxy's): `host` is
      // what tls matches the certificate to; SNI is sent only for a name, not an IP.
      const tls = process
        .getBuiltinModule("node:tls")
        .connect({ socket, host, ...(net().isIP(host) ? {} : { servername: host }) });
      finish(null, tls);
    });
    // Node reports every answer to a CONNECT, whatever its status, as "connect".
    req.once("error", (err: NodeJS.ErrnoException) => finish(new ProxyError(`proxy ${proxyName}: ${reason(err)}`)));
    req.end();
    return undefined;
  };
  // Closing the client also drops tunnels still being set up (a proxy that never answers).
  const destroy = agent.destroy.bind(agent);
  agent.destroy = () => {
    for (const req of pending) req.destroy();
    pending.clear();
    destroy();
  };
  return agent;
}

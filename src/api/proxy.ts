// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, honoured as curl does. Requests are tunnelled with
// CONNECT, so for an https API the proxy only ever sees encrypted bytes, never the key.
import http from "node:http";
import type { Duplex } from "node:stream";

type Env = Record<string, string | undefined>;

function envValue(env: Env, name: string): string | undefined {
  return env[name.toLowerCase()] || env[name.toUpperCase()] || undefined;
}

/** The proxy URL for a target, or undefined when none applies (unset, or NO_PROXY matches). */
export function proxyFor(target: URL, env: Env): URL | undefined {
  const raw = target.protocol === "https:" ? envValue(env, "https_proxy") : envValue(env, "http_proxy");
  if (!raw) return undefined;
  if (bypassed(target, envValue(env, "no_proxy"))) return undefined;
  try {
    return new URL(raw.includes("://") ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

function bypassed(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === "*") return true;
      const [name, entryPort] = entry.toLowerCase().replace(/^\[|\]$/g, "").split(/:(?=\d+$)/) as [string, string?];
      if (entryPort && entryPort !== port) return false;
      const bare = name.replace(/^\*?\./, "");
      return host === bare || host.endsWith(`.${bare}`);
    });
}

export function proxyAgentFor(target: URL, env: Env, maxSockets: number): http.Agent | undefined {
  const proxy = proxyFor(target, env);
  if (!proxy) return undefined;
  // node:https and node:tls load only for an https target (they cost ~12 ms at start-up).
  const Base = target.protocol === "https:" ? process.getBuiltinModule("node:https").Agent : http.Agent;
  const agent = new Base({ keepAlive: true, maxSockets });
  // Node's Agent accepts a socket handed back later through the callback.
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: { host?: string; port?: number | string; servername?: string },
    done: (err: Error | null, socket?: Duplex) => void,
  ) => {
    const host = options.host ?? target.hostname;
    const port = Number(options.port ?? target.port ?? (target.protocol === "https:" ? 443 : 80));
    const headers: Record<string, string> = { Host: `${host}:${port}` };
    if (proxy.username) {
      const auth = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
      headers["Proxy-Authorization"] = `Basic ${Buffer.from(auth).toString("base64")}`;
    }
    const req = http.request({
      host: proxy.hostname.replace(/^\[|\]$/g, ""),
      port: proxy.port || 80,
      method: "CONNECT",
      path: `${host.includes(":") ? `[${host}]` : host}:${port}`,
      headers,
    });
    req.once("connect", (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        done(new Error(`proxy ${proxy.host} refused the tunnel (status ${res.statusCode})`));
        return;
      }
      if (target.protocol === "https:") {
        done(null, process.getBuiltinModule("node:tls").connect({ socket, servername: options.servername ?? host }));
      } else {
        done(null, socket);
      }
    });
    req.once("error", (err) => done(new Error(`proxy ${proxy.host}: ${err.message}`)));
    req.end();
    return undefined;
  };
  return agent;
}

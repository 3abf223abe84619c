// The CONNECT tunnel to an https API through an http(s) proxy, from https-proxy-agent. Loaded by
// proxy.ts only when a proxy applies; built as dist/proxy-tunnel.cjs so that no other run
// parses it.
import type http from "node:http";
import net from "node:net";
import tls from "node:tls";
import { HttpsProxyAgent } from "https-proxy-agent";

/** How a failure before the tunnel opened is told (ProxyError, in proxy.ts). */
export interface TunnelFailures {
  unreachable(err: NodeJS.ErrnoException): Error;
  refused(status: number, authority: string): Error;
}

type ConnectOpts = Parameters<HttpsProxyAgent<string>["connect"]>[1];

/**
 * What https-proxy-agent lacks, added here: a refusal is an error (the library would hand the
 * proxy's answer to the request as if the API had sent it); the API's certificate is checked
 * against the API's host even when that is an IP (the library leaves the check to fall back on
 * the proxy's host name); and destroying the agent drops tunnels still being set up (a proxy
 * that never answers the CONNECT would otherwise hold the process open).
 */
class Tunnel extends HttpsProxyAgent<string> {
  constructor(
    proxy: URL,
    maxSockets: number,
    private readonly fail: TunnelFailures,
    private readonly aborts = new AbortController(),
  ) {
    super(proxy, { keepAlive: true, maxSockets, signal: aborts.signal });
  }

  override async connect(req: http.ClientRequest, opts: ConnectOpts): Promise<net.Socket> {
    const host = (opts.host ?? "").replace(/^\[(.*)\]$/, "$1");
    let status = 0;
    req.once("proxyConnect", (res: { statusCode: number }) => (status = res.statusCode));
    const checkServerIdentity = (_name: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(host, cert);
    let socket: net.Socket;
    try {
      socket = await super.connect(req, { ...opts, checkServerIdentity } as ConnectOpts);
    } catch (err) {
      throw this.fail.unreachable(err as NodeJS.ErrnoException);
    }
    if (status !== 200) {
      socket.destroy();
      throw this.fail.refused(status, `${net.isIPv6(host) ? `[${host}]` : host}:${opts.port}`);
    }
    return socket;
  }

  override destroy(): void {
    this.aborts.abort();
    super.destroy();
  }
}

export function tunnelAgent(proxy: URL, maxSockets: number, fail: TunnelFailures): http.Agent {
  return new Tunnel(proxy, maxSockets, fail);
}

// The proxy agent in-process, for what the CLI's exit hides: closing the client must not leave
// a tunnel that the proxy never answered open (it would hold a long-lived process, or a test
// worker, until the proxy gave up).
import https from "node:https";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { proxyAgentFor } from "../../src/api/proxy.js";

let server: net.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A "proxy" that reads the CONNECT and never answers. */
async function silentProxy(): Promise<{ port: number; connection: Promise<{ socket: net.Socket; request: string }> }> {
  const srv = net.createServer();
  server = srv;
  const connection = new Promise<{ socket: net.Socket; request: string }>((resolve) =>
    srv.once("connection", (socket) => {
      let request = "";
      socket.on("data", (chunk: Buffer) => {
        request += chunk.toString("latin1");
        if (request.includes("\r\n\r\n")) resolve({ socket, request });
      });
    }),
  );
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return { port: (srv.address() as net.AddressInfo).port, connection };
}

describe("the proxy agent", () => {
  it("is not made when no proxy applies", () => {
    expect(proxyAgentFor(new URL("https://api.ngrok.com"), {}, 1)).toBeUndefined();
    expect(
      proxyAgentFor(new URL("https://api.ngrok.com"), { HTTPS_PROXY: "http://127.0.0.1:1", NO_PROXY: "ngrok.com" }, 1),
    ).toBeUndefined();
  });

  it("destroyed, drops a tunnel the proxy never answered", async () => {
    const proxy = await silentProxy();
    const agent = proxyAgentFor(
      new URL("https://api.ngrok.com"),
      { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` },
      1,
    )!;
    const req = https.request("https://api.ngrok.com/backends/failover", { agent });
    req.on("error", () => {});
    req.end();
    const { socket, request } = await proxy.connection;
    expect(request).toMatch(/^CONNECT api\.ngrok\.com:443 HTTP\/1\.1\r\n/);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    req.destroy();
    agent.destroy();
    await closed; // without it, the proxy's socket stays open and this times out
  });
});

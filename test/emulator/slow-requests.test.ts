// A request that cannot arrive is refused, not held (issue 25): a body cut short by a
// half-close gets 400 at once, and a request may take only so long to arrive (the bound is
// injected here, so no test waits on a real long timer).
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Sends `head` (and maybe half-closes), then resolves with all the emulator answers before it closes (or `waitMs`). */
function exchange(base: string, text: string, opts: { halfClose: boolean; waitMs: number }): Promise<string> {
  const { port, hostname } = new URL(base);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(text);
      if (opts.halfClose) socket.end();
    });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(done, opts.waitMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", done);
    socket.on("error", done);
  });
}

const head = (contentLength: number) =>
  `POST /backends/failover HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k\r\nNgrok-Version: 2\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe("a request that cannot arrive", () => {
  it("answers 400 ERR_NGROK_212 to a body shorter than its Content-Length when the client half-closes", async () => {
    emu = await startEmulator({ port: 0 });
    const answer = await exchange(emu.url, `${head(100)}{}`, { halfClose: true, waitMs: 5_000 });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("ERR_NGROK_212");
    // Nothing was created, and the emulator serves on.
    expect((await call(emu.url, "GET", "/backends/failover")).json.backends).toEqual([]);
  });

  it("answers 400 ERR_NGROK_212 to a body that does not arrive within the request bound, then closes", async () => {
    emu = await startEmulator({ port: 0, requestTimeoutMs: 300 });
    const answer = await exchange(emu.url, `${head(100)}{"backends"`, { halfClose: false, waitMs: 5_000 });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("ERR_NGROK_212");
    expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
  });

  it("refuses headers that do not arrive within the bound", async () => {
    emu = await startEmulator({ port: 0, requestTimeoutMs: 300 });
    const answer = await exchange(emu.url, "GET /backends/failover HTTP/1.1\r\nHost: 127.0.0.1\r\n", {
      halfClose: false,
      waitMs: 5_000,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 40[08] /);
  });

  it("serves other clients while one request's body is held back", async () => {
    emu = await startEmulator({ port: 0 });
    const held = exchange(emu.url, `${head(100)}{}`, { halfClose: false, waitMs: 1_000 });
    expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
    await held;
  });

  it("refuses a request bound that is not a positive number of milliseconds", async () => {
    for (const requestTimeoutMs of [0, -1, 1.5, Number.NaN])
      await expect(startEmulator({ port: 0, requestTimeoutMs })).rejects.toThrow(/request timeout/);
  });
});

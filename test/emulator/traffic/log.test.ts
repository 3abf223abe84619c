// The request log's batching (src/emulator/traffic/log.ts): one line per request, those of the
// requests finished in one turn of the event loop written together at the end of the turn (with
// no other request in flight), lines finished while others are in flight waiting for them at
// most MAX_WAIT_MS, and whatever is pending written on close.
import type http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_WAIT_MS, RequestLog, type RequestRecord } from "../../../src/emulator/traffic/log.js";
import { endpoint, forwardTo, send, trafficEmulator, upstream } from "./helpers.js";

const record = (path: string): RequestRecord => ({
  time: new Date("2026-01-02T03:04:05.678Z"),
  method: "GET",
  url: `https://a.example.com${path}`,
  client_ip: "127.0.0.1",
  endpoints: ["https://a.example.com"],
  rules: [],
  outcome: "forward",
  status: 200,
  ms: 1,
});

describe("RequestLog", () => {
  it("writes the lines of one turn in one call, once the turn ends, one line per request", async () => {
    const calls: string[] = [];
    const log = new RequestLog((text) => calls.push(text), undefined);
    log.write(record("/1"));
    log.write(record("/2"));
    log.write(record("/3"));
    expect(calls).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.split("\n")).toEqual([
      expect.stringMatching(/^traffic: GET https:\/\/a\.example\.com\/1 /),
      expect.stringMatching(/^traffic: GET https:\/\/a\.example\.com\/2 /),
      expect.stringMatching(/^traffic: GET https:\/\/a\.example\.com\/3 /),
      "",
    ]);
    log.write(record("/4"));
    await log.close();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatch(/^traffic: GET https:\/\/a\.example\.com\/4 .*\n$/);
  });

  describe("while other requests are in flight", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const turn = () => vi.advanceTimersToNextTimerAsync();
    /** A log on fake timers whose requests in flight are `busy()`; `calls`: what it wrote, a call each. */
    const onFakeTimers = (busy: () => boolean) => {
      vi.useFakeTimers({ toFake: ["setImmediate", "setTimeout", "clearTimeout", "performance"] });
      const calls: string[] = [];
      return { calls, log: new RequestLog((text) => calls.push(text), undefined, busy) };
    };

    it("a line waits for the requests in flight, and goes with theirs when the last one ends", async () => {
      let busy = true;
      const { calls, log } = onFakeTimers(() => busy);
      log.write(record("/1"));
      await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1);
      expect(calls).toEqual([]);
      busy = false;
      log.write(record("/2"));
      await turn();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.match(/^traffic: /gm)).toHaveLength(2);
      await log.close();
    });

    it("waits MAX_WAIT_MS at most, then writes what is pending", async () => {
      const { calls, log } = onFakeTimers(() => true);
      log.write(record("/1"));
      await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(1);
      log.write(record("/2"));
      await log.close();
      expect(calls).toHaveLength(2);
    });

    it("writes at the end of the turn once 64 kB are pending", async () => {
      const { calls, log } = onFakeTimers(() => true);
      const long = `/${"x".repeat(1024)}`;
      // Each line is a little over 1 kB: 40 of them under 64 kB, 60 over.
      for (let i = 0; i < 40; i++) log.write(record(long));
      await turn();
      expect(calls).toEqual([]);
      for (let i = 0; i < 20; i++) log.write(record(long));
      await turn();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.match(/^traffic: /gm)).toHaveLength(60);
      await log.close();
    });
  });

  // The traffic port's side (server.ts): a request is in flight from its start until its answer
  // begins or it is logged. The wait is made long here (trafficLogWaitMs), so what is written
  // when is decided by the requests alone, not by how fast this machine is.
  describe("on the traffic port", () => {
    it("a request's line waits for one still waiting for its upstream, and both go in one write when it answers", async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const app = await upstream((req, res) => {
        const answer = () => res.end(req.url);
        if (req.url === "/slow") void held.then(answer);
        else answer();
      });
      const emu = await trafficEmulator({ upstreams: { "https://app.internal": app.url }, trafficLogWaitMs: 60_000 });
      try {
        await endpoint(emu, "https://a.example.com", forwardTo("https://app.internal"));
        const slow = send(emu.trafficUrl!, { host: "a.example.com", path: "/slow" });
        // The slow one has reached the upstream before the fast one is sent.
        while (app.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        expect((await send(emu.trafficUrl!, { host: "a.example.com", path: "/fast" })).text).toBe("/fast");
        await new Promise((resolve) => setImmediate(resolve));
        expect(emu.lines).toEqual([]);
        release();
        expect((await slow).text).toBe("/slow");
        expect(emu.lines).toHaveLength(1);
        expect(emu.lines[0]!.match(/^traffic: GET https:\/\/a\.example\.com\/(fast|slow) /gm)).toEqual([
          "traffic: GET https://a.example.com/fast ",
          "traffic: GET https://a.example.com/slow ",
        ]);
      } finally {
        release();
        await emu.close();
        await app.close();
      }
    });

    it("an answer still streaming does not hold back the lines of the others", async () => {
      let streaming: http.ServerResponse | undefined;
      const app = await upstream((req, res) => {
        if (req.url === "/stream") {
          res.writeHead(200, { "content-type": "text/plain" });
          res.write("part one\n");
          streaming = res;
        } else res.end(req.url);
      });
      const emu = await trafficEmulator({ upstreams: { "https://app.internal": app.url }, trafficLogWaitMs: 60_000 });
      try {
        await endpoint(emu, "https://a.example.com", forwardTo("https://app.internal"));
        const stream = send(emu.trafficUrl!, { host: "a.example.com", path: "/stream" });
        while (streaming === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
        expect((await send(emu.trafficUrl!, { host: "a.example.com", path: "/fast" })).text).toBe("/fast");
        expect(emu.lines).toHaveLength(1);
        expect(emu.lines[0]).toMatch(/^traffic: GET https:\/\/a\.example\.com\/fast /);
        streaming.end("part two\n");
        expect((await stream).text).toBe("part one\npart two\n");
      } finally {
        streaming?.end();
        await emu.close();
        await app.close();
      }
    });
  });
});

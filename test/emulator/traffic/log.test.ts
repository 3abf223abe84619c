// The request log's batching (src/emulator/traffic/log.ts): one line per request, those of the
// requests finished in one turn of the event loop written together at the end of the turn (with
// no other request in flight), lines finished while others are in flight waiting for them at
// most MAX_WAIT_MS, and whatever is pending written on close.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_WAIT_MS, RequestLog, type RequestRecord } from "../../../src/emulator/traffic/log.js";

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

    it("a line waits for the requests in flight, and goes with theirs when the last one ends", async () => {
      vi.useFakeTimers({ toFake: ["setImmediate", "setTimeout", "clearTimeout", "performance"] });
      const calls: string[] = [];
      let busy = true;
      const log = new RequestLog((text) => calls.push(text), undefined, () => busy);
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
      vi.useFakeTimers({ toFake: ["setImmediate", "setTimeout", "clearTimeout", "performance"] });
      const calls: string[] = [];
      const log = new RequestLog((text) => calls.push(text), undefined, () => true);
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
      vi.useFakeTimers({ toFake: ["setImmediate", "setTimeout", "clearTimeout", "performance"] });
      const calls: string[] = [];
      const log = new RequestLog((text) => calls.push(text), undefined, () => true);
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
});

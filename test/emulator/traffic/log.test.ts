// The request log's batching (src/emulator/traffic/log.ts): one line per request, those of the
// requests finished in one turn of the event loop written together at the end of the turn, and
// whatever is pending written on close.
import { describe, expect, it } from "vitest";
import { RequestLog, type RequestRecord } from "../../../src/emulator/traffic/log.js";

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
});

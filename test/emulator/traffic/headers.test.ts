// The traffic port's header passes (src/emulator/traffic/proxy.ts), each one pass over its
// input: hop-by-hop fields and those Connection names dropped both ways (ngrok-docs
// endpoints/cloud-endpoints/http.mdx:350-355), X-Forwarded-* as ngrok sets them (http.mdx:396-408),
// ngrok-error-code never from an upstream (http.mdx:461).
import { describe, expect, it } from "vitest";
import { answerHeaders, headerLists, upstreamHeaders } from "../../../src/emulator/traffic/proxy.js";

/** upstreamHeaders' name, value… list as pairs. */
const pairs = (list: string[]) => Array.from({ length: list.length / 2 }, (_, i) => [list[2 * i], list[2 * i + 1]]);

describe("header passes", () => {
  it("headerLists: lower-case names, every value in order, as headersDistinct", () => {
    const h = headerLists(["Host", "a.example.com", "X-A", "1", "x-a", "2", "__proto__", "z"]);
    expect(h).toEqual({ host: ["a.example.com"], "x-a": ["1", "2"] });
    expect(Object.getPrototypeOf(h)).toBeNull();
  });

  // Names an object's prototype holds are headers like any other, both ways (review: a
  // `Constructor` header made a plain {} throw, and an upstream's took the emulator down).
  it.each(["Constructor", "toString", "hasOwnProperty", "valueOf"])("%s is a header like any other", (name) => {
    const lower = name.toLowerCase();
    expect(headerLists([name, "1", name, "2"])).toEqual({ [lower]: ["1", "2"] });
    expect(answerHeaders([name, "1", name, "2"])).toEqual({ [lower]: ["1", "2"] });
    expect(answerHeaders([name, "1"])).toEqual({ [lower]: "1" });
    expect(pairs(upstreamHeaders({ [lower]: ["x"] }, "::1", "http", "h"))[0]).toEqual([lower, "x"]);
  });

  it("upstreamHeaders: end-to-end fields in place, X-Forwarded-For/-Proto appended, -Host kept or the Host", () => {
    const sent = upstreamHeaders(
      {
        host: ["a.example.com"],
        "x-forwarded-for": ["198.51.100.1"],
        connection: ["keep-alive, X-Hop"],
        "x-hop": ["1"],
        te: ["trailers"],
        "set-cookie": ["a=1", "b=2"],
      },
      "127.0.0.1",
      "https",
      "a.example.com",
    );
    expect(pairs(sent)).toEqual([
      ["host", "a.example.com"],
      ["x-forwarded-for", "198.51.100.1, 127.0.0.1"],
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
      ["x-forwarded-proto", "https"],
      ["x-forwarded-host", "a.example.com"],
    ]);
    expect(pairs(upstreamHeaders({ "x-forwarded-host": ["orig.example.net"] }, "::1", "http", "h"))).toEqual([
      ["x-forwarded-host", "orig.example.net"],
      ["x-forwarded-for", "::1"],
      ["x-forwarded-proto", "http"],
    ]);
  });

  it("answerHeaders: hop-by-hop, Connection-named and ngrok-error-code dropped, repeated fields kept as a list", () => {
    const raw = ["Content-Type", "text/plain", "Set-Cookie", "x=1", "Connection", "keep-alive, X-Hop", "X-Hop", "1"];
    raw.push(
      "Set-Cookie",
      "y=2",
      "Keep-Alive",
      "timeout=5",
      "Ngrok-Error-Code",
      "forged",
      "Transfer-Encoding",
      "chunked",
    );
    expect(answerHeaders(raw)).toEqual({ "content-type": "text/plain", "set-cookie": ["x=1", "y=2"] });
  });
});

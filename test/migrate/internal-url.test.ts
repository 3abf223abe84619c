import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { internalUrlProblem, parseMaps, tunnelGroupHost } from "../../src/migrate/internal-url.js";

describe("--map values", () => {
  it("reads repeated id=url pairs and keeps each URL exactly as typed", () => {
    expect([
      ...parseMaps([
        "bkdwd_1=https://api.internal",
        "bkdsc_2=https://db.eu.internal:8443",
        "bkdtg_3=http://a.b.c.d.e.internal",
        "bkdtg_4=tcp://ssh.internal:22",
        "bkdtg_5=tls://db.internal",
      ]),
    ]).toEqual([
      ["bkdwd_1", "https://api.internal"],
      ["bkdsc_2", "https://db.eu.internal:8443"],
      ["bkdtg_3", "http://a.b.c.d.e.internal"],
      ["bkdtg_4", "tcp://ssh.internal:22"],
      ["bkdtg_5", "tls://db.internal"],
    ]);
  });

  it.each([
    ["no =", "bkdwd_1"],
    ["no url", "bkdwd_1="],
    ["not a backend id", "edghts_1=https://a.internal"],
    ["another scheme", "bkdwd_1=ftp://a.internal"],
    ["not .internal", "bkdwd_1=https://a.example.com"],
    ["internal only as a prefix", "bkdwd_1=https://a.internal.example.com"],
    ["credentials", "bkdwd_1=https://u:p@a.internal"],
    ["not a URL", "bkdwd_1=://"],
    ["a tab in the host (the URL parser would drop it)", "bkdtg_X=https://api.inter\tnal"],
    ["a tab, a space and a query (issue 17 item 13)", "bkdtg_X=https://api.inter\tnal/x y?q=1"],
    ["a newline", "bkdtg_X=https://api.internal\n"],
    ["a DEL", "bkdtg_X=https://api\x7f.internal"],
    ["a path", "bkdtg_X=https://api.internal/x"],
    ["a trailing slash", "bkdtg_X=https://api.internal/"],
    ["a query", "bkdtg_X=https://api.internal?x=1"],
    ["a fragment", "bkdtg_X=https://api.internal#x"],
    ["six labels", "bkdtg_X=https://a.b.c.d.e.f.internal"],
    ["a label of 64", `bkdtg_X=https://${"a".repeat(64)}.internal`],
    ["a label starting with -", "bkdtg_X=https://-a.internal"],
    ["a label ending with -", "bkdtg_X=https://a-.internal"],
    ["an empty label", "bkdtg_X=https://a..internal"],
    ["upper case", "bkdtg_X=https://API.internal"],
    ["an underscore", "bkdtg_X=https://a_b.internal"],
    ["tcp without a port", "bkdtg_X=tcp://ssh.internal"],
    ["port 0", "bkdtg_X=https://a.internal:0"],
    ["port 65536", "bkdtg_X=https://a.internal:65536"],
    ["an empty port", "bkdtg_X=https://a.internal:"],
  ])("refuses %s as a usage error", (_name, value) => {
    expect(() => parseMaps([value])).toThrow(UsageError);
  });

  it("names the flag and shows control characters escaped", () => {
    expect(() => parseMaps(["bkdtg_X=https://api.inter\tnal/x y?q=1"])).toThrow(/^--map: "https:\/\/api\.inter\\tnal/);
  });

  it("takes only the schemes of the edges asked for, when their kinds are known", () => {
    expect(() => parseMaps(["bkdtg_1=tcp://a.internal:22"], ["https", "http"])).toThrow(
      /must start with https:\/\/ or http:\/\//,
    );
    expect([...parseMaps(["bkdtg_1=tcp://a.internal:22"], ["tcp"])]).toHaveLength(1);
  });

  it("refuses one id mapped to two URLs", () => {
    expect(() => parseMaps(["bkdwd_1=https://a.internal", "bkdwd_1=https://b.internal"])).toThrow(/mapped twice/);
  });
});

describe("tunnel group hosts", () => {
  /** The first 8 hex digits of the SHA-256 of the labels' canonical JSON (keys sorted, no spaces, UTF-8). */
  const hash8 = (canonical: string) => createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 8);

  it("are labels key-value in key order, lower case, other characters made -, and a hash of the labels", () => {
    expect(tunnelGroupHost({ b: "2", A: "x y" })).toBe(`a-x-y-b-2-${hash8('{"A":"x y","b":"2"}')}.internal`);
    expect(internalUrlProblem(`https://${tunnelGroupHost({ "a b": "C" })!}`, ["https"])).toBeUndefined();
  });

  it("one label whose key and value are already [a-z0-9]+ is just key-value (nothing was lost)", () => {
    expect(tunnelGroupHost({ service: "app" })).toBe("service-app.internal");
    expect(tunnelGroupHost({ app: "v2" })).toBe("app-v2.internal");
  });

  // Issue 25 item 17 (a): {app: x_y} and {app: x-y}, migrated in separate runs, both forwarded to
  // https://app-x-y.internal. A lossy name carries a hash of the labels, so different label sets
  // never share a host, in one run or across runs (the host depends on the labels alone).
  it.each([
    [{ app: "x_y" }, { app: "x-y" }],
    [{ a: "b-c" }, { "a-b": "c" }],
    [{ App: "x" }, { app: "x" }],
    [{ a: "b", c: "d" }, { a: "b-c-d" }],
  ])("%j and %j give different hosts", (one, other) => {
    const a = tunnelGroupHost(one)!;
    const b = tunnelGroupHost(other)!;
    expect(a).toMatch(/^[a-z0-9-]+-[0-9a-f]{8}\.internal$/);
    expect(b).not.toBe(a);
  });

  it("the hash is of the labels' canonical JSON: the same labels in another order give the same host", () => {
    expect(tunnelGroupHost({ app: "x_y" })).toBe(`app-x-y-${hash8('{"app":"x_y"}')}.internal`);
    expect(tunnelGroupHost({ z: "1", a: "2" })).toBe(tunnelGroupHost({ a: "2", z: "1" }));
    expect(tunnelGroupHost({ z: "1", a: "2" })).toBe(`a-2-z-1-${hash8('{"a":"2","z":"1"}')}.internal`);
  });

  it.each([
    ["no labels", {}],
    ["over 63 characters", { k: "v".repeat(70) }],
    ["over 63 characters once the hash is added", { k: `${"v".repeat(56)}_x` }],
    ["starting with -", { "-k": "v" }],
  ])("give no host with %s", (_n, labels) => {
    expect(tunnelGroupHost(labels)).toBeUndefined();
  });
});

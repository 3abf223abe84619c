// The edge model of `migrate edge --verify`: which route a request reached and what each module
// did with it, as the contract states the edge ("Routes (HTTPS)", "Proving a migration").
import { describe, expect, it } from "vitest";
import { chooseRoute, edgeDecides, inRange, type EdgeRequest } from "../../../src/migrate/verify/edge-model.js";
import { nearMisses } from "../../../src/migrate/verify/index.js";
import { edge, route } from "../fixtures.js";

const base: EdgeRequest = {
  host: "shop.example.com",
  path: "/",
  clientIp: "192.0.2.7",
  userAgent: "curl/8",
  signed: false,
};
const none = new Map<string, string[]>();

describe("chooseRoute: most specific first (contract, Routes (HTTPS))", () => {
  const routes = [
    route("rt_root", "path_prefix", "/", "bk_1"),
    route("rt_api", "path_prefix", "/api", "bk_1"),
    route("rt_apiv2", "path_prefix", "/api/v2", "bk_1"),
    route("rt_exact", "exact_path", "/api/health", "bk_1"),
    route("rt_host", "path_prefix", "shop.example.com/api", "bk_1"),
  ];
  it.each([
    ["/api/health", "rt_exact"], // exact_path before any prefix
    ["/api/health/x", "rt_host"], // exact is exact; at equal paths the host route beats the bare rt_api
    ["/api/v2/users", "rt_apiv2"], // the longer prefix
    ["/apix", "rt_host"], // a prefix is a string prefix (startsWith)
    ["/other", "rt_root"],
  ])("%s → %s", (path, id) => expect(chooseRoute(routes, "shop.example.com", path)?.id).toBe(id));
  it("a route naming another host is not reached", () => {
    expect(chooseRoute([route("rt_b", "path_prefix", "b.example.com/", "bk_1")], "a.example.com", "/")).toBeUndefined();
  });
});

describe("edgeDecides: each module in the edge's order", () => {
  it("ip_restriction refuses a client in none of the route's policies (403)", () => {
    const e = edge([
      route("rt_1", "path_prefix", "/", "bk_1", { ip_restriction: { enabled: true, ip_policies: [{ id: "ipp_1" }] } }),
    ]);
    const policies = new Map([["ipp_1", ["10.1.0.0/16"]]]);
    expect(edgeDecides(e, base, policies)).toEqual({
      kind: "refused",
      status: 403,
      route: "rt_1",
      module: "ip_restriction",
    });
    expect(edgeDecides(e, { ...base, clientIp: "10.1.2.3" }, policies)).toEqual({ kind: "route", route: "rt_1" });
  });
  it("user_agent_filter: allow wins; else deny or an empty agent is refused", () => {
    const e = edge([
      route("rt_1", "path_prefix", "/", "bk_1", {
        user_agent_filter: { enabled: true, allow: ["(?i)goodbot"], deny: ["bot"] },
      }),
    ]);
    expect(edgeDecides(e, { ...base, userAgent: "GoodBot" }, none).kind).toBe("route");
    expect(edgeDecides(e, { ...base, userAgent: "badbot" }, none).kind).toBe("refused");
    expect(edgeDecides(e, { ...base, userAgent: "" }, none).kind).toBe("refused");
    expect(edgeDecides(e, { ...base, userAgent: "curl/8" }, none).kind).toBe("route");
  });
  it("oauth: sign in first, then its email lists", () => {
    const e = edge([
      route("rt_1", "path_prefix", "/", "bk_1", {
        oauth: { enabled: true, provider: { google: { email_domains: ["example.com"], email_addresses: ["a@b.io"] } } },
      }),
    ]);
    expect(edgeDecides(e, base, none)).toEqual({ kind: "sign-in", route: "rt_1", module: "oauth" });
    expect(edgeDecides(e, { ...base, email: "x@example.com" }, none).kind).toBe("route");
    expect(edgeDecides(e, { ...base, email: "a@b.io" }, none).kind).toBe("route");
    expect(edgeDecides(e, { ...base, email: "x@evil.com" }, none).kind).toBe("refused");
  });
  it("webhook_verification refuses an unsigned delivery; no route is a 404", () => {
    const e = edge([
      route("rt_1", "exact_path", "/hook", "bk_1", {
        webhook_verification: { enabled: true, provider: "github", secret: "s" },
      }),
    ]);
    expect(edgeDecides(e, { ...base, path: "/hook" }, none).kind).toBe("refused");
    expect(edgeDecides(e, { ...base, path: "/hook", signed: true }, none).kind).toBe("route");
    expect(edgeDecides(e, { ...base, path: "/other" }, none)).toEqual({ kind: "no-route" });
  });
  it("a module that is off (enabled: false) does nothing", () => {
    const e = edge([
      route("rt_1", "path_prefix", "/", "bk_1", { ip_restriction: { enabled: false, ip_policies: [{ id: "ipp_1" }] } }),
    ]);
    expect(edgeDecides(e, base, none).kind).toBe("route");
  });
});

describe("near misses and ranges", () => {
  it("a prefix's near misses: boundary, trailing slash, case, an encoded character", () => {
    expect(nearMisses("/api", false)).toEqual(["/api", "/api/", "/apix", "/api/deeper", "/ap", "/API", "/%61pi"]);
  });
  it.each([
    ["10.1.0.7", "10.1.0.0/16", true],
    ["10.2.0.7", "10.1.0.0/16", false],
    ["192.0.2.7", "0.0.0.0/0", true],
    ["not-an-ip", "10.0.0.0/8", false],
  ])("%s in %s: %s", (ip, cidr, inside) => expect(inRange(ip, cidr)).toBe(inside));
});

// Masking touches only a secret's own value (issue 17 item 2): a secret that is also a word of
// the output (`internal`, `github`) must not mask that word elsewhere. The real bin, spawned.
import { describe, expect, it } from "vitest";
import { apiError, json, type Reply } from "../helpers/fault-server.js";
import { edge, failover, route, tunnelGroup } from "../migrate/fixtures.js";
import { useFaultServer } from "./support.js";

const suite = useFaultServer("key_masking_1234567890");

describe("migrate edge --apply -o json with the webhook secret `internal`", () => {
  it("masks the secret alone: forward-internal and https://service-app.internal stay", async () => {
    const EDGE = edge([
      route("edghtsrt_hook", "path_prefix", "/", "bkdtg_app", {
        webhook_verification: { enabled: true, provider: "github", secret: "internal" },
      }),
    ]);
    suite.server.fallback = (req): Reply => {
      if (req.method === "GET" && req.path === "/edges/https/edghts_1") return json(200, EDGE);
      if (req.method === "GET" && req.path === "/backends/tunnel_group/bkdtg_app")
        return json(200, tunnelGroup("bkdtg_app", { service: "app" }));
      if (req.method === "GET" && req.path.startsWith("/backends/failover/")) return json(200, failover("bkdfo_x", []));
      // --apply first reads the account's endpoints: none yet.
      if (req.method === "GET" && req.path.startsWith("/endpoints"))
        return json(200, { endpoints: [], uri: `${suite.server.url}/endpoints`, next_page_uri: null });
      if (req.method === "POST" && req.path === "/endpoints") {
        const body = JSON.parse(req.body) as Record<string, unknown>;
        return json(201, { id: "ep_1", type: "cloud", url: body.url, traffic_policy: body.traffic_policy });
      }
      return apiError(404, "Resource not found");
    };
    const r = await suite.run(["migrate", "edge", "edghts_1", "--apply", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const [created] = JSON.parse(r.stdout) as { traffic_policy: string }[];
    const policy = JSON.parse(created!.traffic_policy) as {
      on_http_request: { actions: { type: string; config: Record<string, unknown> }[] }[];
    };
    expect(policy.on_http_request[0]!.actions).toEqual([
      { type: "verify-webhook", config: { provider: "github", secret: "********" } },
      { type: "forward-internal", config: { url: "https://service-app.internal" } },
    ]);
    // The policy sent held the real secret, and the printed one differs from it only there.
    const sent = JSON.parse(suite.server.requests.at(-1)!.body) as { traffic_policy: string };
    expect(created!.traffic_policy).toBe(sent.traffic_policy.replace('"secret": "internal"', '"secret": "********"'));
  });
});

describe("webhook-verification replace --secret github --dry-run", () => {
  it('prints "provider": "github" and the secret alone masked', async () => {
    const r = await suite.run([
      "webhook-verification",
      "replace",
      "edghts_1",
      "edghtsrt_1",
      "--provider",
      "github",
      "--secret",
      "github",
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(suite.server.requests).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      request: {
        method: "PUT",
        url: `${suite.server.url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification`,
        body: { enabled: true, provider: "github", secret: "********" },
      },
    });
  });
});

describe("export", () => {
  it("masks OAuth/OIDC client secrets and the secrets inside a route's traffic_policy value, nothing else", async () => {
    const policy =
      "# route policy\non_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: cs-1}\n";
    const EDGE = edge([
      route("edghtsrt_1", "path_prefix", "/", null, {
        description: "cs-1 and cs-2 are our client ids",
        oauth: { enabled: true, provider: { google: { client_id: "cs-1", client_secret: "cs-2" } } },
        oidc: { enabled: true, issuer: "https://idp.example.com", client_id: "cs-2", client_secret: "cs-1" },
        traffic_policy: { enabled: true, value: policy },
      }),
    ]);
    suite.server.fallback = (req): Reply => {
      if (req.method === "GET" && req.path.startsWith("/edges/https"))
        return json(200, { https_edges: [EDGE], uri: "x", next_page_uri: null });
      if (req.method === "GET" && (req.path.startsWith("/edges/tls") || req.path.startsWith("/edges/tcp")))
        return json(200, { [`${req.path.split("/")[2]!.split("?")[0]}_edges`]: [], uri: "x", next_page_uri: null });
      if (req.method === "GET" && req.path.startsWith("/backends/"))
        return json(200, { backends: [], uri: "x", next_page_uri: null });
      return apiError(404, "Resource not found");
    };
    const r = await suite.run(["export"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const routeOut = (JSON.parse(r.stdout) as { https_edges: { routes: Record<string, unknown>[] }[] }).https_edges[0]!
      .routes[0]!;
    expect(routeOut.description).toBe("cs-1 and cs-2 are our client ids");
    expect(routeOut.oauth).toEqual({
      enabled: true,
      provider: { google: { client_id: "cs-1", client_secret: "********" } },
    });
    expect(routeOut.oidc).toMatchObject({ client_id: "cs-2", client_secret: "********" });
    expect(routeOut.traffic_policy).toEqual({
      enabled: true,
      value: policy.replace("secret: cs-1", 'secret: "********"'),
    });
  });
});

// What the Leaving Edges tests share: an edge built through the emulator's API, the policy its
// endpoints should get, and an emulator with a CLI pointed at it (in-process in
// app/leaving-edges.test.ts and test/commands/migrate/edge.test.ts).
import { afterAll, beforeAll, expect } from "vitest";
import { sandbox } from "../helpers/cli.js";
import { call, spawnEmulator, startInProcessEmulator } from "../helpers/emulator.js";
import { runCli, type Sandbox, type TextResult } from "./support.js";

export const GITHUB_SECRET = 'whsec-"gh"\\1234';
export const MASK = "********";

export interface Built {
  edgeId: string;
  routes: { hook: string; sns: string; api: string; lb: string; admin: string };
  backends: { app: string; eu: string; us: string; down: string; failover: string; weighted: string };
}

export async function post(base: string, path: string, body: unknown): Promise<{ id: string }> {
  const r = await call(base, "POST", path, { body });
  if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${r.text}`);
  return r.json as { id: string };
}

export async function put(base: string, path: string, body: unknown): Promise<void> {
  const r = await call(base, "PUT", path, { body });
  if (r.status !== 200) throw new Error(`PUT ${path} answered ${r.status}: ${r.text}`);
}

/**
 * An edge on two hostports with: a GitHub-verified exact route and an SNS-verified one (both to
 * the tunnel group service=app), an /api prefix to a failover (eu, us, then a 503), an /lb
 * prefix to a weighted backend, and an /admin prefix guarded by oauth (google, one email domain).
 */
export async function buildEdge(base: string): Promise<Built> {
  const app = await post(base, "/backends/tunnel_group", { description: "app", labels: { service: "app" } });
  const eu = await post(base, "/backends/tunnel_group", { description: "eu", labels: { service: "api", dc: "eu" } });
  const us = await post(base, "/backends/tunnel_group", { description: "us", labels: { service: "api", dc: "us" } });
  const down = await post(base, "/backends/http_response", {
    status_code: 503,
    body: "down for maintenance",
    headers: { "Retry-After": "60" },
  });
  const failover = await post(base, "/backends/failover", {
    description: "api failover",
    backends: [eu.id, us.id, down.id],
  });
  const weighted = await post(base, "/backends/weighted", { backends: { [eu.id]: 1, [us.id]: 3 } });
  const edge = await post(base, "/edges/https", {
    description: "shop",
    metadata: '{"team":"web"}',
    hostports: ["shop.example.com:443", "www.example.com:443"],
  });
  const route = (match_type: string, match: string, backendId: string, extra: object = {}) =>
    post(base, `/edges/https/${edge.id}/routes`, {
      match_type,
      match,
      backend: { enabled: true, backend_id: backendId },
      ...extra,
    });
  const hook = await route("exact_path", "/hooks/github", app.id);
  const sns = await route("exact_path", "/hooks/sns", app.id);
  const api = await route("path_prefix", "/api", failover.id);
  const lb = await route("path_prefix", "/lb", weighted.id);
  const admin = await route("path_prefix", "/admin", app.id, {
    oauth: { enabled: true, provider: { google: { email_domains: ["example.com"] } } },
  });
  await put(base, `/edges/https/${edge.id}/routes/${hook.id}/webhook_verification`, {
    enabled: true,
    provider: "github",
    secret: GITHUB_SECRET,
  });
  await put(base, `/edges/https/${edge.id}/routes/${sns.id}/webhook_verification`, { enabled: true, provider: "sns" });
  return {
    edgeId: edge.id,
    routes: { hook: hook.id, sns: sns.id, api: api.id, lb: lb.id, admin: admin.id },
    backends: { app: app.id, eu: eu.id, us: us.id, down: down.id, failover: failover.id, weighted: weighted.id },
  };
}

/**
 * The policy every endpoint of the edge gets: the SNS route and (until it is mapped) the
 * weighted one fail closed; the oauth route keeps its guard and its email domain.
 */
export function expectedPolicy(b: Built, secret: string, lbUrl?: string) {
  const app = { type: "forward-internal", config: { url: "https://service-app.internal" } };
  const admin = ['req.url.path.startsWith("/admin")'];
  const lb = ['req.url.path.startsWith("/lb")'];
  return {
    on_http_request: [
      {
        name: b.routes.hook,
        expressions: ['req.url.path == "/hooks/github"'],
        actions: [{ type: "verify-webhook", config: { provider: "github", secret } }, app],
      },
      { name: b.routes.sns, expressions: ['req.url.path == "/hooks/sns"'], actions: [DENY_503] },
      { name: b.routes.admin, expressions: admin, actions: [{ type: "oauth", config: { provider: "google" } }] },
      {
        name: `${b.routes.admin} oauth-email`,
        expressions: [...admin, '!(actions.ngrok.oauth.identity.email.endsWith("@example.com"))'],
        actions: [{ type: "deny", config: { status_code: 403 } }],
      },
      { name: `${b.routes.admin} forward-internal`, expressions: admin, actions: [app] },
      {
        name: b.routes.api,
        expressions: ['req.url.path.startsWith("/api")'],
        actions: [
          {
            type: "forward-internal",
            config: { url: "https://dc-eu-service-api-42d11f28.internal", on_error: "continue" },
          },
          {
            type: "forward-internal",
            config: { url: "https://dc-us-service-api-a6e57162.internal", on_error: "continue" },
          },
          {
            type: "custom-response",
            // The API keeps header names lower-cased, whatever case they were sent in.
            config: { status_code: 503, body: "down for maintenance", headers: { "retry-after": "60" } },
          },
        ],
      },
      lbUrl
        ? { name: b.routes.lb, expressions: lb, actions: [{ type: "forward-internal", config: { url: lbUrl } }] }
        : { name: b.routes.lb, expressions: lb, actions: [DENY_503] },
      { name: "no route matched", actions: [{ type: "custom-response", config: { status_code: 404 } }] },
    ],
  };
}

const DENY_503 = { type: "deny", config: { status_code: 503 } };

export const URLS = ["https://shop.example.com", "https://www.example.com"];

/**
 * One emulator (started with `args`) and one CLI sandbox pointed at it, for a describe block:
 * with the spawned CLI (the default), the emulator is a process too; with the CLI in-process
 * (`appSandbox`), so is the emulator.
 */
export function useEmulator(args: () => string[] = () => [], makeSandbox: () => Sandbox = sandbox) {
  const ctx = {} as { emulator: { url: string; stop(): Promise<unknown> }; cli: Sandbox };
  const start = makeSandbox === sandbox ? spawnEmulator : startInProcessEmulator;
  beforeAll(async () => {
    ctx.emulator = await start(args());
    ctx.cli = makeSandbox();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await ctx.emulator?.stop();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    ctx.cli?.cleanup();
  });
  return {
    get url() {
      return ctx.emulator.url;
    },
    run: (argv: string[], input?: string): Promise<TextResult> =>
      runCli(ctx.cli, argv, {
        input,
        env: { EDGECTL_BASE_URL: ctx.emulator.url, EDGECTL_API_KEY: "key_leaving_edges_1" },
      }),
    endpoints: async (): Promise<
      { id: string; url: string; description: string; metadata: string; traffic_policy: string }[]
    > => {
      const r = await call(ctx.emulator.url, "GET", "/endpoints");
      expect(r.status).toBe(200);
      return r.json.endpoints;
    },
  };
}

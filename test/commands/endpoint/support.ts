// What the endpoint verbs' tests share: a fault server that keeps endpoints like the API
// (\`ep_1\`, \`ep_2\`… newest first), the CLI in-process (test/helpers/app.ts) pointed at it, and
// two valid policies, one YAML and one JSON, each with verify-webhook secrets.
import { beforeEach } from "vitest";
import { apiError, json, type RecordedRequest, type Reply } from "../../helpers/fault-server.js";
import { appSandbox } from "../../helpers/app.js";
import { useFaultServer, useScratch } from "../../e2e/support.js";

// Valid under the contract's rules for a public https endpoint: the hooks rule verifies and
// forwards, the last rule (no expressions) ends every other request.
export const YAML_POLICY = `# hooks first
on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github   # set by CI
          secret: internal
      - type: forward-internal
        config:
          url: https://service-app.internal
  - name: rest
    actions:
      - type: custom-response
        config: {status_code: 404, body: "github internal"}
`;
export const JSON_POLICY = `{
  "on_http_request": [
    {"name": "a", "actions": [{"type": "verify-webhook", "config": {"provider": "slack", "secret": "s-a"}}, {"type": "custom-response", "config": {"status_code": 200}}]},
    {"name": "b", "actions": [{"type": "verify-webhook", "config": {"provider": "stripe", "secret": "s-b"}}, {"type": "custom-response", "config": {"status_code": 200}}]}
  ]
}`;

/** One fault server keeping endpoints, and the CLI in-process, for a test file. */
export function useEndpointApi() {
  const suite = useFaultServer("key_endpoint_1234567890", appSandbox);
  const { file } = useScratch("edgectl-endpoint-");
  /** Endpoints kept like the API keeps them; `ep_1`, `ep_2`… newest first. */
  let store: Map<string, Record<string, unknown>>;
  let next: number;
  function endpoint(id: string, url: string, traffic_policy: string, extra: Record<string, unknown> = {}) {
    return {
      id,
      type: "cloud",
      url,
      description: "",
      metadata: "",
      traffic_policy,
      bindings: ["public"],
      pooling_enabled: false,
      created_at: "2026-01-02T00:00:00Z",
      updated_at: "2026-01-02T00:00:00Z",
      uri: `${suite.server.url}/endpoints/${id}`,
      ...extra,
    };
  }
  function api(req: RecordedRequest): Reply {
    const [path, query] = req.path.split("?");
    const id = /^\/endpoints\/([^/]+)$/.exec(path!)?.[1];
    if (path === "/endpoints" && req.method === "GET") {
      const all = [...store.values()].reverse();
      const limit = Number(new URLSearchParams(query).get("limit") ?? 100);
      const before = new URLSearchParams(query).get("before_id");
      const from = before ? all.findIndex((e) => e.id === before) + 1 : 0;
      const page = all.slice(from, from + limit);
      const more = from + limit < all.length;
      return json(200, {
        endpoints: page,
        uri: `${suite.server.url}/endpoints`,
        next_page_uri: more ? `${suite.server.url}/endpoints?limit=${limit}&before_id=${page.at(-1)!.id}` : null,
      });
    }
    if (path === "/endpoints" && req.method === "POST") {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      const e = endpoint(`ep_${++next}`, body.url as string, body.traffic_policy as string, {
        description: body.description ?? "",
        metadata: body.metadata ?? "",
        bindings: body.bindings ?? ["public"],
        pooling_enabled: body.pooling_enabled ?? false,
      });
      store.set(e.id, e);
      return json(201, e);
    }
    if (id && store.has(id)) {
      if (req.method === "GET") return json(200, store.get(id)!);
      if (req.method === "DELETE") {
        store.delete(id);
        return { status: 204, body: "" };
      }
      if (req.method === "PATCH") {
        const e = { ...store.get(id)!, ...(JSON.parse(req.body) as object) };
        store.set(id, e);
        return json(200, e);
      }
    }
    return apiError(404, "Resource not found");
  }
  beforeEach(() => {
    store = new Map();
    next = 0;
    suite.server.fallback = api;
  });

  const lines = () => suite.server.requests.map((r) => `${r.method} ${r.path}`);
  const seed = (text = YAML_POLICY, url = "https://shop.example.com") => {
    const e = endpoint(`ep_${++next}`, url, text);
    store.set(e.id, e);
    return e.id;
  };
  return { suite, file, lines, seed };
}

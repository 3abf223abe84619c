// `edgectl export` (the real bin) against the real emulator (spawned): HTTPS, TLS and TCP
// edges, every secret masked where it stands — webhook secrets, OAuth and OIDC client
// secrets, secrets inside traffic_policy modules — and shown with --show-secret. The
// emulator's request count (printed on stderr when it stops) shows export reads by listing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { call, spawnEmulator, type SpawnedEmulator } from "../helpers/emulator.js";

let emu: SpawnedEmulator;
let cli: CliSandbox;
let made = 0;
const ids: Record<string, string> = {};

async function post(path: string, body: unknown): Promise<string> {
  const r = await call(emu.url, "POST", path, { body });
  made++;
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  return r.json.id as string;
}

const run = async (args: string[]) => {
  const r = await cli.run(args, { env: { EDGECTL_API_KEY: "key_export_emu_1", EDGECTL_BASE_URL: emu.url } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
};

beforeAll(async () => {
  emu = await spawnEmulator();
  cli = sandbox();
  ids.tg = await post("/backends/tunnel_group", { labels: { app: "web" } });
  ids.https = await post("/edges/https", { hostports: ["shop.example.com:443"] });
  await post(`/edges/https/${ids.https}/routes`, {
    match_type: "path_prefix",
    match: "/",
    backend: { backend_id: ids.tg },
    webhook_verification: { provider: "github", secret: "whsec_route" },
    oauth: { provider: { google: { client_id: "gid", client_secret: "gsecret_route", scopes: [] } } },
    traffic_policy: {
      value:
        "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: whsec_policy} # kept\n",
    },
  });
  await post(`/edges/https/${ids.https}/routes`, {
    match_type: "exact_path",
    match: "/sso",
    oidc: { issuer: "https://idp.example.com", client_id: "oid", client_secret: "oidcsecret_route" },
  });
  ids.tls = await post("/edges/tls", {
    hostports: ["db.example.com:443"],
    backend: { backend_id: ids.tg },
    traffic_policy: {
      value:
        '{"on_tcp_connect":[{"actions":[{"type":"oauth","config":{"provider":"google","client_secret":"csecret_tls"}}]}]}',
    },
  });
  ids.tcp = await post("/edges/tcp", { hostports: ["1.tcp.ngrok.io:20000"], backend: { backend_id: ids.tg } });
});
afterAll(async () => {
  await emu.stop();
  cli.cleanup();
});

const SECRETS = ["whsec_route", "gsecret_route", "whsec_policy", "oidcsecret_route", "csecret_tls"];

describe("edgectl export against the emulator", () => {
  it("exports TLS and TCP edges too, masking every secret where it stands", async () => {
    const r = await run(["export"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    for (const s of SECRETS) expect(r.stdout).not.toContain(s);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["https_edges", "tls_edges", "tcp_edges", "backends"]);
    expect(doc.tls_edges.map((e: { id: string }) => e.id)).toEqual([ids.tls]);
    expect(doc.tcp_edges.map((e: { id: string }) => e.id)).toEqual([ids.tcp]);
    const [root, sso] = [...doc.https_edges[0].routes].sort((a, b) => (a.match < b.match ? -1 : 1));
    expect(root.webhook_verification.secret).toBe("********");
    expect(root.oauth.provider.google).toMatchObject({ client_id: "gid", client_secret: "********" });
    expect(root.traffic_policy.value).toBe(
      'on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: "********"} # kept\n',
    );
    expect(sso.oidc).toMatchObject({ client_id: "oid", client_secret: "********" });
    expect(JSON.parse(doc.tls_edges[0].traffic_policy.value).on_tcp_connect[0].actions[0].config).toEqual({
      provider: "google",
      client_secret: "********",
    });
    expect(doc.backends.tunnel_group.map((b: { id: string }) => b.id)).toEqual([ids.tg]);
  });

  it("shows them with --show-secret; the emulator counts one request per list", async () => {
    const r = await run(["export", "--show-secret"]);
    expect(r.exitCode).toBe(0);
    for (const s of SECRETS) expect(r.stdout).toContain(s);
    await emu.stop();
    // Two exports of 3 edge lists and 5 backend lists, one page each.
    expect(String((await emu.process).stderr)).toContain(`emulator: stopped after ${made + 16} requests`);
  });
});

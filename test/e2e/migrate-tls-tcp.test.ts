// `edgectl migrate edge` for TLS and TCP edges against the REAL emulator: edges built through
// its API, planned, and created with --apply. Needs the emulator to serve /edges/tls and
// /edges/tcp (branch `account`); the planner's rules for them are held in test/migrate too.
import { beforeAll, describe, expect, it } from "vitest";
import { post, useEmulator } from "./leaving-edges.support.js";

describe("TLS and TCP edges on a live account", () => {
  const emu = useEmulator();
  let tlsId: string;
  let tcpId: string;
  beforeAll(async () => {
    const db = await post(emu.url, "/backends/tunnel_group", { labels: { service: "db" } });
    tlsId = (
      await post(emu.url, "/edges/tls", {
        hostports: ["db.example.com:443"],
        backend: { enabled: true, backend_id: db.id },
        tls_termination: { enabled: true, terminate_at: "edge", min_version: "1.3" },
      })
    ).id;
    tcpId = (
      await post(emu.url, "/edges/tcp", {
        hostports: ["1.tcp.ngrok.io:12345"],
        backend: { enabled: true, backend_id: db.id },
        traffic_policy: {
          enabled: true,
          value: JSON.stringify({
            on_tcp_connect: [
              { name: "block", expressions: ["conn.client_ip == '192.0.2.1'"], actions: [{ type: "deny" }] },
            ],
          }),
        },
      })
    ).id;
  });

  it("plans tls://host:443 and tcp://host:port endpoints with on_tcp_connect only", async () => {
    const r = await emu.run(["migrate", "edge", tlsId, tcpId, "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const [tls, tcp] = JSON.parse(r.stdout);
    expect(tls.endpoints).toEqual([
      {
        url: "tls://db.example.com:443",
        description: `Migrated from edge ${tlsId}`,
        metadata: "",
        traffic_policy: {
          on_tcp_connect: [
            {
              name: tlsId,
              actions: [
                { type: "terminate-tls", config: { min_version: "1.3" } },
                { type: "forward-internal", config: { url: "tls://service-db.internal:443" } },
              ],
            },
          ],
        },
      },
    ]);
    expect(tcp.endpoints[0].url).toBe("tcp://1.tcp.ngrok.io:12345");
    expect(tcp.endpoints[0].traffic_policy).toEqual({
      on_tcp_connect: [
        { name: tcpId, expressions: ["conn.client_ip == '192.0.2.1'"], actions: [{ type: "deny" }] },
        {
          name: `${tcpId} forward-internal`,
          actions: [{ type: "forward-internal", config: { url: "tcp://service-db.internal:12345" } }],
        },
      ],
    });
  });

  it("--all takes them with the HTTPS edges; --apply creates them", async () => {
    const r = await emu.run(["migrate", "edge", "--all", "--apply", "-o", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { url: string }[]).map((e) => e.url.replace(/:443$/, "")).sort()).toEqual([
      "tcp://1.tcp.ngrok.io:12345",
      "tls://db.example.com",
    ]);
  });
});

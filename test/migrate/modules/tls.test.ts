// mutual_tls and tls_termination → terminate-tls (on_tcp_connect).
import { describe, expect, it } from "vitest";
import { planEdge } from "../../../src/migrate/plan.js";
import { translateTls } from "../../../src/migrate/modules/tls.js";
import { backendMap, backendModule, tls, tlsEdge, tunnelGroup } from "../fixtures.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const DOC = action("terminate-tls");
const terminate = (config?: Record<string, unknown>) => ({
  steps: [{ actions: [config ? { type: "terminate-tls", config } : { type: "terminate-tls" }] }],
});

const HTTPS: Case[] = [
  {
    name: "neither module: nothing (an HTTPS endpoint ends TLS anyway)",
    module: { mutual_tls: null, tls_termination: null },
    out: {},
  },
  {
    name: "mutual TLS: the certificate authorities",
    doc: DOC,
    module: { mutual_tls: { enabled: true, certificate_authorities: [{ id: "ca_1" }] } },
    out: terminate({ mutual_tls_certificate_authorities: ["ca_1"] }),
  },
  {
    name: "min_version 1.3 kept",
    doc: DOC,
    module: { tls_termination: { terminate_at: "edge", min_version: "1.3" } },
    out: terminate({ min_version: "1.3" }),
  },
  {
    name: "min_version 1.0 becomes 1.2, the lowest the action takes: a warning",
    doc: DOC,
    module: { tls_termination: { min_version: "1.0" } },
    out: {
      ...terminate({ min_version: "1.2" }),
      warnings: [{ item: "tls_termination", message: "min_version 1.0 becomes 1.2, the lowest ngrok offers" }],
    },
  },
  {
    name: "terminate_at upstream: an HTTPS endpoint cannot pass TLS through",
    doc: edgeModule("httpsedgetlsterminationmodule"),
    module: { tls_termination: { terminate_at: "upstream" } },
    out: refusal(
      "tls_termination",
      'terminate_at "upstream": an HTTPS endpoint ends TLS at ngrok and cannot pass it through',
    ),
  },
  {
    name: "mutual TLS with no certificate authorities",
    module: { mutual_tls: { certificate_authorities: [] } },
    out: refusal("mutual_tls", "mutual_tls is enabled with no certificate authorities"),
  },
  {
    name: "certificate authorities not a list of references",
    module: { mutual_tls: { certificate_authorities: ["ca_1"] } },
    out: refusal("mutual_tls", "mutual_tls.certificate_authorities is not a list of certificate authorities"),
  },
  {
    name: "a min_version that is no TLS version",
    module: { tls_termination: { min_version: "2.0" } },
    out: refusal("tls_termination", 'min_version "2.0" is not 1.0–1.3'),
  },
  {
    name: "a disabled module counts for nothing",
    module: { mutual_tls: { enabled: false, certificate_authorities: [] } },
    out: {},
  },
];

const TLS: Case[] = [
  {
    name: "terminated at the edge: terminate-tls (a TLS endpoint passes TLS through unless told)",
    doc: DOC,
    module: { tls_termination: { terminate_at: "edge", min_version: null } },
    out: terminate(),
  },
  {
    name: "terminated upstream: nothing (passed through)",
    doc: edgeModule("tlsedgetlsterminationmodule"),
    module: { tls_termination: { terminate_at: "upstream" } },
    out: {},
  },
  // Issue 25 item 17 (e): terminate-tls with the certificate authorities would end TLS at ngrok,
  // which the edge left to the upstream: listed, and the endpoint fails closed.
  {
    name: "terminated upstream with mutual TLS: not migrated (terminate-tls would end TLS at ngrok)",
    doc: `${edgeModule("tlsedgetlsterminationmodule")}, ${edgeModule("tlsedgemutualtlsmodule")}, ${DOC}`,
    module: {
      mutual_tls: { enabled: true, certificate_authorities: [{ id: "ca_1" }] },
      tls_termination: { terminate_at: "upstream" },
    },
    out: refusal(
      "mutual_tls",
      'mutual TLS with terminate_at "upstream": terminate-tls would end TLS at ngrok, where the edge passed it through to the upstream; rebuild it by hand',
    ),
  },
  {
    name: "terminate_at neither edge nor upstream",
    module: { tls_termination: { terminate_at: "nowhere" } },
    out: refusal("tls_termination", 'terminate_at "nowhere" is not edge or upstream'),
  },
];

describe("TLS of an HTTPS edge", () => table(HTTPS, (m) => translateTls(m, { kind: "https" })));
describe("TLS of a TLS edge", () => table(TLS, (m) => translateTls(m, { kind: "tls" })));

// The whole TLS edge fails closed: its endpoint's on_tcp_connect only denies (contract, "Not migrated").
describe("a TLS edge terminated upstream with mutual TLS (issue 25 item 17 e)", () => {
  it("is listed and its endpoint denies every connection, never terminate-tls", () => {
    const p = planEdge(
      tls(
        tlsEdge({
          backend: backendModule("bkdtg_db"),
          mutual_tls: { enabled: true, certificate_authorities: [{ id: "ca_1", uri: "u" }] },
          tls_termination: { enabled: true, terminate_at: "upstream", min_version: null },
        }),
      ),
      { backends: backendMap(tunnelGroup("bkdtg_db", { service: "db" })), maps: new Map() },
    );
    expect(p.not_migrated.map((n) => [n.route_id, n.item])).toEqual([[null, "mutual_tls"]]);
    expect(p.endpoints[0]!.traffic_policy).toEqual({
      on_tcp_connect: [{ name: "edgtls_1", actions: [{ type: "deny" }] }],
    });
  });
});

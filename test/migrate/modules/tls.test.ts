// mutual_tls and tls_termination → terminate-tls (on_tcp_connect).
import { describe } from "vitest";
import { translateTls } from "../../../src/migrate/modules/tls.js";
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
  {
    name: "terminate_at neither edge nor upstream",
    module: { tls_termination: { terminate_at: "nowhere" } },
    out: refusal("tls_termination", 'terminate_at "nowhere" is not edge or upstream'),
  },
];

describe("TLS of an HTTPS edge", () => table(HTTPS, (m) => translateTls(m, { kind: "https" })));
describe("TLS of a TLS edge", () => table(TLS, (m) => translateTls(m, { kind: "tls" })));

// backend → forward-internal / custom-response, failovers flattened; or why not.
import { describe } from "vitest";
import { translateBackend, type BackendContext } from "../../../src/migrate/modules/backends.js";
import type { Obj } from "../../../src/migrate/modules/translator.js";
import {
  backendMap,
  backendModule,
  failover,
  httpResponse,
  staticBackend,
  tunnelGroup,
  weighted,
} from "../fixtures.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const BACKENDS = backendMap(
  tunnelGroup("bkdtg_app", { service: "app" }),
  tunnelGroup("bkdtg_db", { service: "db" }),
  tunnelGroup("bkdtg_bad", {}),
  httpResponse("bkdhr_down", 503, "down ${x}", { "x-why": "maint" }),
  httpResponse("bkdhr_many", 200, "", Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-${i}`, "v"]))),
  failover("bkdfo_pair", ["bkdtg_app", "bkdtg_db"]),
  failover("bkdfo_after", ["bkdhr_down", "bkdtg_app"]),
  failover("bkdfo_loop", ["bkdfo_loop2"]),
  failover("bkdfo_loop2", ["bkdfo_loop"]),
  weighted("bkdwd_w", { bkdtg_app: 1 }),
  staticBackend("bkdsc_s", "10.0.0.1:443"),
);
const MISSING = new Map<string, null>([["bkdtg_gone", null]]);

const context = (kind: BackendContext["kind"], maps: Record<string, string> = {}): BackendContext => ({
  kind,
  port: kind === "tcp" ? "12345" : "443",
  input: { backends: new Map([...BACKENDS, ...MISSING]), maps: new Map(Object.entries(maps)) },
  collisions: new Map(),
  routeId: kind === "https" ? "edghtsrt_1" : null,
});

const forward = (url: string, onError = false) => ({
  type: "forward-internal",
  config: onError ? { url, on_error: "continue" } : { url },
});

const HTTPS: Case[] = [
  {
    name: "a tunnel group: its labels' internal host",
    doc: action("forward-internal"),
    module: backendModule("bkdtg_app"),
    out: { steps: [{ actions: [forward("https://service-app.internal")] }] },
  },
  {
    name: "--map: the URL given",
    doc: action("forward-internal"),
    module: backendModule("bkdwd_w"),
    out: { steps: [{ actions: [forward("https://weights.internal")] }] },
  },
  {
    name: "a failover: each in order, falling through on error but the last",
    doc: action("forward-internal"),
    module: backendModule("bkdfo_pair"),
    out: {
      steps: [{ actions: [forward("https://service-app.internal", true), forward("https://service-db.internal")] }],
    },
  },
  {
    name: "an HTTP response: custom-response ('${' escaped, with a warning); what follows it is never reached",
    doc: action("custom-response"),
    module: backendModule("bkdfo_after"),
    out: {
      steps: [
        {
          actions: [
            {
              type: "custom-response",
              config: { status_code: 503, body: 'down ${"${"}x}', headers: { "x-why": "maint" } },
            },
          ],
        },
      ],
      warnings: [
        {
          item: "backend",
          message: 'a literal "${" in the body of bkdhr_down is written ${"${"} so ngrok does not read it as CEL',
        },
        {
          item: "backend",
          message: "backend bkdtg_app comes after an HTTP response, can never be reached and was left out",
        },
      ],
    },
  },
  {
    name: "no enabled backend",
    doc: edgeModule("edgeroutebackendmodule"),
    module: { enabled: false, backend: { id: "bkdtg_app" } },
    out: refusal("backend", "the route has no enabled backend"),
  },
  {
    name: "a backend not read yet (the planner reads every one first)",
    module: backendModule("bkdwd_w2"),
    out: refusal("backend", "backend bkdwd_w2 was not read"),
  },
  {
    name: "a static backend has no equivalent",
    module: backendModule("bkdsc_s"),
    out: refusal(
      "backend",
      "static backend bkdsc_s has no Traffic Policy equivalent; give its internal URL with --map bkdsc_s=https://….internal",
    ),
  },
  {
    name: "a backend the API does not have (404)",
    module: backendModule("bkdtg_gone"),
    out: refusal(
      "backend",
      "backend bkdtg_gone does not exist (the API answered 404); point the route at a backend that exists, or give its internal URL with --map bkdtg_gone=https://….internal",
    ),
  },
  {
    name: "labels that give no internal host",
    module: backendModule("bkdtg_bad"),
    out: refusal(
      "backend",
      "tunnel group bkdtg_bad's labels give no valid internal host (at most 63 characters of a-z, 0-9 and -, not starting or ending with -); give its internal URL with --map bkdtg_bad=https://….internal",
    ),
  },
  {
    name: "an HTTP response of more than 10 headers (custom-response takes at most 10)",
    doc: action("custom-response"),
    module: backendModule("bkdhr_many"),
    out: refusal("backend", "HTTP response backend bkdhr_many has 11 headers; custom-response takes at most 10"),
  },
  {
    name: "a failover cycle",
    module: backendModule("bkdfo_loop"),
    out: refusal("backend", "failover cycle: bkdfo_loop → bkdfo_loop2 → bkdfo_loop"),
  },
];

const TCP: Case[] = [
  {
    name: "a tunnel group: tcp:// on the endpoint's own port",
    doc: action("forward-internal"),
    module: backendModule("bkdtg_db"),
    out: { steps: [{ actions: [forward("tcp://service-db.internal:12345")] }] },
  },
  {
    name: "an HTTP response has no TCP equivalent",
    module: backendModule("bkdhr_down"),
    out: refusal("backend", "HTTP response backend bkdhr_down has no TCP equivalent"),
  },
  {
    name: "a weighted backend has no equivalent",
    module: backendModule("bkdwd_w"),
    out: refusal(
      "backend",
      "weighted backend bkdwd_w has no Traffic Policy equivalent; give its internal URL with --map bkdwd_w=tcp://….internal:<port>",
    ),
  },
  {
    name: "a --map URL of the wrong scheme",
    module: backendModule("bkdsc_s"),
    out: refusal("backend", "--map bkdsc_s=https://s.internal: for a TCP edge the URL must start with tcp://"),
  },
  {
    name: "no enabled backend (the edge's)",
    doc: edgeModule("tcpedgebackendmodule"),
    module: { enabled: true, backend: null },
    out: refusal("backend", "the edge has no enabled backend"),
  },
];

const TLS: Case[] = [
  {
    name: "a tunnel group: tls:// on 443",
    doc: edgeModule("tlsedgebackendmodule"),
    module: backendModule("bkdtg_app"),
    out: { steps: [{ actions: [forward("tls://service-app.internal:443")] }] },
  },
];

describe("backend of an HTTPS route", () =>
  table(HTTPS, (m: Obj) => translateBackend(m, context("https", { bkdwd_w: "https://weights.internal" }))));
describe("backend of a TCP edge", () =>
  table(TCP, (m: Obj) => translateBackend(m, context("tcp", { bkdsc_s: "https://s.internal" }))));
describe("backend of a TLS edge", () => table(TLS, (m: Obj) => translateBackend(m, context("tls"))));

// A table-driven corpus of bad command lines. Each one must exit 2 with `error: …` naming
// the flag or argument at fault, print nothing on stdout, and send nothing: a fault server
// that records every request stands behind each run, and must receive none. A second table
// holds the inputs just inside the limits, which must be accepted and sent exactly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { FB, KEY, MODULE, envFor, expectCleanError, limiter, out, withServer } from "../reliability/support.js";

let cli: AppSandbox;
let scratch: string;
beforeAll(() => {
  cli = appSandbox();
  scratch = mkdtempSync(join(tmpdir(), "edgectl-badinput-"));
  writeFileSync(join(scratch, "secret.txt"), "whsec_from_file_123\n", { mode: 0o600 });
  writeFileSync(join(scratch, "body.json"), '{"description":"x"}');
});
afterAll(() => {
  cli.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

// Run in-process (test/helpers/app.ts); a few at a time, each with its own fault server.
const slot = limiter(4);

const a = (n: number) => "a".repeat(n);
const WH = ["webhook-verification", "replace", "edghts_a", "edghtsrt_b"];
const GET = ["failover", "get"];
const CREATE = ["failover", "create", "--backends", "bkdhr_a"];

interface Bad {
  /** `{port}`, `{file}` (a readable secret file) and `{json}` (a JSON body file) are filled in. */
  args: string[];
  /** What stderr must name: the flag, argument or setting at fault. */
  names: string | RegExp;
  input?: string;
  env?: Record<string, string>;
  note?: string;
}

const BAD: Bad[] = [
  // ids placed in a path
  { args: [...GET, "bkdfo_a/b"], names: "<id>" },
  { args: [...GET, "bkdfo_.."], names: "<id>" },
  { args: [...GET, ".."], names: "<id>" },
  { args: [...GET, "../bkdfo_abc"], names: "<id>" },
  { args: [...GET, "bkdfo_a%2Fb"], names: "<id>" },
  { args: [...GET, "bkdfo_%2e%2e"], names: "<id>" },
  { args: [...GET, "bkdfo_a b"], names: "<id>" },
  { args: [...GET, " bkdfo_abc"], names: "<id>" },
  { args: [...GET, "bkdfo_abc\n"], names: "<id>" },
  { args: [...GET, "bkdfo_é"], names: "<id>" },
  { args: [...GET, "bkdfo_\u0430bc"], names: "<id>", note: "Cyrillic a" },
  { args: [...GET, "bkdfo_abc\u202e"], names: "<id>", note: "bidi override" },
  { args: [...GET, ""], names: "<id>" },
  { args: [...GET, "bkdfo_"], names: "<id>" },
  { args: [...GET, `bkdfo_${a(65)}`], names: "<id>" },
  { args: [...GET, "BKDFO_abc"], names: "<id>" },
  { args: [...GET, "bkdfo_abc?x=1"], names: "<id>" },
  { args: [...GET, "bkdfo_abc#frag"], names: "<id>" },
  { args: [...GET, "bkdhr_abc"], names: "<id>", note: "a child backend id where a failover id belongs" },
  { args: [...GET, "bkdfo_ok", "bkdfo_a/b"], names: "<id>", note: "one bad id among good ones: nothing is sent" },
  { args: [...GET, "bkdfo_ok", "-"], names: "<id>" },
  { args: [...GET, "-"], input: "", names: "<id>" },
  { args: [...GET, "-"], input: "bkdfo_ok\nbkdfo_../x\n", names: "<id>" },
  { args: ["failover", "delete", "bkdfo_a/b", "--yes"], names: "<id>" },
  { args: ["failover", "delete", "%2F", "--yes"], names: "<id>" },
  { args: ["failover", "delete", "bkdfo_abc"], names: "--yes", note: "no terminal, no --yes" },
  { args: ["failover", "update", "bkdfo_a/b", "--description", "x"], names: "<id>" },
  { args: ["webhook-verification", "get", "edghts_a/b", "edghtsrt_b"], names: "<edge-id>" },
  { args: ["webhook-verification", "get", "edghts_a", "edghtsrt_.."], names: "<route-id>" },
  { args: ["webhook-verification", "get", "edghtsrt_b", "edghts_a"], names: "<edge-id>", note: "swapped" },
  { args: ["webhook-verification", "delete", "edghts_a", "edghtsrt_%2F", "--yes"], names: "<route-id>" },
  { args: ["webhook-verification", "delete", "edghts_a", "edghtsrt_b"], names: "--yes" },
  {
    args: ["webhook-verification", "replace", "edghts_ä", "edghtsrt_b", "--provider", "github", "--secret", "abcdefgh"],
    names: "<edge-id>",
  },

  // backends
  { args: ["failover", "create"], names: "--backends" },
  { args: ["failover", "create", "--backends", ""], names: "--backends" },
  { args: ["failover", "create", "--backends", ","], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdhr_a,,bkdtg_b"], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdhr_a bkdtg_b"], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdhr_a/b"], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdHR_a"], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdhr_"], names: "--backends" },
  { args: ["failover", "create", "--backends", `bkdhr_${a(65)}`], names: "--backends" },
  { args: ["failover", "create", "--backends", "bkdhr_a", "--backends", "../x"], names: "--backends" },
  { args: ["failover", "update", "bkdfo_abc", "--backends", ""], names: "--backends" },

  // byte limits: description 255, metadata 4096 — over by one, multibyte characters straddling
  { args: [...CREATE, "--description", a(256)], names: "--description" },
  { args: [...CREATE, "--description", `${a(254)}é`], names: "--description", note: "2-byte char straddles 255" },
  { args: [...CREATE, "--description", `${a(253)}€`], names: "--description", note: "3-byte char straddles 255" },
  { args: [...CREATE, "--description", `${a(252)}😀`], names: "--description", note: "4-byte char straddles 255" },
  { args: [...CREATE, "--description", "é".repeat(128)], names: "--description", note: "128 characters, 256 bytes" },
  { args: ["failover", "update", "bkdfo_abc", "--description", `${a(253)}€`], names: "--description" },
  { args: [...CREATE, "--metadata", a(4097)], names: "--metadata" },
  { args: [...CREATE, "--metadata", `${a(4095)}é`], names: "--metadata" },
  { args: [...CREATE, "--metadata", `${a(4094)}€`], names: "--metadata" },
  { args: [...CREATE, "--metadata", `${a(4093)}😀`], names: "--metadata" },
  { args: [...CREATE, "--metadata", "€".repeat(1366)], names: "--metadata", note: "1366 characters, 4098 bytes" },
  { args: ["failover", "update", "bkdfo_abc", "--metadata", `${a(4095)}é`], names: "--metadata" },
  {
    args: ["failover", "update", "bkdfo_abc"],
    names: /--backends.*--description.*--metadata/,
    note: "update with no fields",
  },

  // providers and secrets
  { args: [...WH, "--provider", "githb", "--secret", "abcdefgh"], names: /--provider.*did you mean "github"/ },
  { args: [...WH, "--provider", "gihtub", "--secret", "abcdefgh"], names: /--provider.*did you mean "github"/ },
  { args: [...WH, "--provider", "strpe", "--secret", "abcdefgh"], names: /--provider.*did you mean "stripe"/ },
  { args: [...WH, "--provider", "Slak", "--secret", "abcdefgh"], names: /--provider.*did you mean "slack"/ },
  { args: [...WH, "--provider", "git hub", "--secret", "abcdefgh"], names: "--provider" },
  { args: [...WH, "--provider", "aws", "--secret", "abcdefgh"], names: "--provider" },
  { args: [...WH, "--provider", "", "--secret", "abcdefgh"], names: "--provider" },
  { args: [...WH, "--secret", "abcdefgh"], names: "--provider" },
  { args: [...WH, "--provider", "sns", "--secret", "abcdefgh"], names: /--secret.*sns/ },
  { args: [...WH, "--provider", "SNS", "--secret-file", "{file}"], names: /--secret-file.*sns/ },
  { args: [...WH, "--provider", "sns", "--secret-stdin"], input: "abcdefgh\n", names: /--secret-stdin.*sns/ },
  {
    args: [...WH, "--provider", "github", "--secret", "abcdefgh", "--secret-file", "{file}"],
    names: /--secret-file and --secret/,
  },
  {
    args: [...WH, "--provider", "github", "--secret-stdin", "--secret", "abcdefgh"],
    input: "x\n",
    names: /--secret-stdin and --secret/,
  },
  {
    args: [...WH, "--provider", "github", "--secret-stdin", "--secret-file", "{file}", "--secret", "abcdefgh"],
    input: "x\n",
    names: /--secret-stdin and --secret-file and --secret/,
  },
  { args: [...WH, "--provider", "github"], names: /--secret/, note: "no secret from any source" },
  { args: [...WH, "--provider", "github", "--secret", ""], names: "--secret" },
  { args: [...WH, "--provider", "github", "--secret-stdin"], input: "", names: "--secret-stdin" },
  { args: [...WH, "--provider", "github", "--secret-stdin"], input: "\n", names: "--secret-stdin" },
  { args: [...WH, "--provider", "github", "--secret-file", "/nonexistent/edgectl/secret"], names: "--secret-file" },
  { args: [...WH, "--provider", "github"], env: { EDGECTL_WEBHOOK_SECRET: "" }, names: "EDGECTL_WEBHOOK_SECRET" },

  // unknown commands, flags and arguments
  { args: ["frobnicate"], names: "frobnicate" },
  { args: ["failover", "frobnicate"], names: "frobnicate" },
  { args: ["failover", "creat", "--backends", "bkdhr_a"], names: /creat\b.*create/ },
  { args: ["webhook-verification", "replcae"], names: "replcae" },
  { args: [...GET, "bkdfo_abc", "--frob"], names: "--frob" },
  { args: ["--frob", "failover", "list"], names: "--frob" },
  { args: ["failover", "list", "--limt", "5"], names: "--limt" },
  { args: [...CREATE, "--descripton", "x"], names: "--descripton" },
  { args: ["failover", "list", "--limit"], names: "--limit" },
  { args: [...GET], names: "id" },
  { args: ["webhook-verification", "replace", "edghts_a"], names: "route-id" },
  { args: ["failover", "list", "extra"], names: /too many arguments|extra/ },

  // global settings
  { args: ["failover", "list", "--timeout", "0"], names: "--timeout" },
  { args: ["failover", "list", "--timeout=-1"], names: "--timeout" },
  { args: ["failover", "list", "--timeout", "abc"], names: "--timeout" },
  { args: ["failover", "list", "--timeout", "1e3"], names: "--timeout" },
  { args: ["failover", "list", "--timeout", "3601"], names: "--timeout" },
  { args: ["failover", "list", "--timeout", "Infinity"], names: "--timeout" },
  { args: ["failover", "list", "--timeout", ""], names: "--timeout" },
  { args: ["failover", "list", "-o", ""], names: "--output" },
  { args: ["failover", "list", "--api-key", ""], names: "--api-key" },
  { args: ["failover", "list", "--base-url", ""], names: "--base-url" },
  { args: ["failover", "list", "--retries", ""], names: "--retries" },
  { args: ["failover", "list", "--profile", ""], names: "--profile" },
  { args: ["failover", "list"], env: { EDGECTL_TIMEOUT: "soon" }, names: "EDGECTL_TIMEOUT" },
  { args: ["failover", "list", "--retries=-1"], names: "--retries" },
  { args: ["failover", "list", "--retries", "11"], names: "--retries" },
  { args: ["failover", "list", "--retries", "x"], names: "--retries" },
  { args: ["failover", "list", "--retries", "1.5"], names: "--retries" },
  { args: ["failover", "list", "--retries", "0x3"], names: "--retries" },
  { args: ["failover", "list"], env: { EDGECTL_RETRIES: "99" }, names: "EDGECTL_RETRIES" },
  { args: ["failover", "list", "-o", "xml"], names: "--output" },
  { args: ["failover", "list", "--output", "wide"], names: "--output" },
  { args: ["failover", "list", "-o", "JSON "], names: "--output" },
  { args: ["failover", "list"], env: { EDGECTL_OUTPUT: "xml" }, names: "EDGECTL_OUTPUT" },
  { args: ["failover", "list", "--limit", "0"], names: "--limit" },
  { args: ["failover", "list", "--limit", "101"], names: "--limit" },
  { args: ["failover", "list", "--limit=-5"], names: "--limit" },
  { args: ["failover", "list", "--limit", "abc"], names: "--limit" },
  { args: ["failover", "list", "--limit", "1.5"], names: "--limit" },
  { args: [...GET, "bkdfo_a", "bkdfo_b", "--concurrency", "0"], names: "--concurrency" },
  { args: [...GET, "bkdfo_a", "bkdfo_b", "--concurrency", "65"], names: "--concurrency" },
  { args: ["failover", "list", "--profile", "bad name!"], names: "--profile" },
  { args: ["failover", "list"], env: { EDGECTL_PROFILE: "../etc" }, names: "--profile" },
  { args: ["failover", "list", "--base-url", "ftp://127.0.0.1:{port}"], names: "--base-url" },
  { args: ["failover", "list", "--base-url", "http://user:pw@127.0.0.1:{port}"], names: "--base-url" },
  { args: ["failover", "list", "--base-url", "not a url"], names: "--base-url" },
  { args: ["failover", "list", "--base-url", "http://0.0.0.0:{port}"], names: /--base-url.*plain http/ },
  { args: ["failover", "list", "--base-url", "http://127.0.0.1:{port}/?x=1"], names: "--base-url" },
  { args: ["failover", "list"], env: { EDGECTL_BASE_URL: "http://0.0.0.0:{port}" }, names: "EDGECTL_BASE_URL" },

  // the raw api command
  { args: ["api", "FETCH", "/backends/failover"], names: "<method>" },
  { args: ["api", "GET", "https://evil.example/x"], names: "<path>" },
  { args: ["api", "GET", "//evil.example/x"], names: "<path>" },
  { args: ["api", "GET", "/backends/../x"], names: "<path>" },
  { args: ["api", "GET", "/backends/failover", "--input", "{json}"], names: "--input" },
  { args: ["api", "POST", "/backends/failover", "--input", "-"], input: "{not json", names: "--input" },
  { args: ["api", "POST", "/backends/failover", "--input", "/nonexistent/body.json"], names: "--input" },

  // config values get the same checks
  { args: ["config", "set", "nope", "1"], names: "<key>" },
  { args: ["config", "set", "timeout", "0"], names: "timeout" },
  { args: ["config", "set", "base_url", "http://example.com"], names: "base_url" },
];

function fill(value: string, port: string): string {
  return value
    .replaceAll("{port}", port)
    .replaceAll("{file}", join(scratch, "secret.txt"))
    .replaceAll("{json}", join(scratch, "body.json"));
}

const label = (c: { args: string[]; env?: Record<string, string>; input?: string; note?: string }) => {
  const shown = c.args
    .map((x) =>
      x.length > 40
        ? `${JSON.stringify(x.slice(0, 8))}…${JSON.stringify(Array.from(x).slice(-2).join(""))} (${Array.from(x).length} chars, ${Buffer.byteLength(x)} bytes)`
        : JSON.stringify(x),
    )
    .join(" ");
  const stdin = c.input === undefined ? "" : ` < ${JSON.stringify(c.input)}`;
  return `${
    c.env
      ? `${Object.entries(c.env)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(" ")} `
      : ""
  }${shown}${stdin}${c.note ? ` — ${c.note}` : ""}`;
};

describe.concurrent(`${BAD.length} bad command lines: exit 2, the field named, nothing sent`, () => {
  it("the corpus has at least 50 cases", () => {
    expect(BAD.length).toBeGreaterThanOrEqual(50);
  });

  for (const c of BAD) {
    it(label(c), async () => {
      await slot(() =>
        withServer(async (server) => {
          const port = new URL(server.url).port;
          const env = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v, port)]));
          const r = await cli.run(
            c.args.map((x) => fill(x, port)),
            { env: envFor(server, { EDGECTL_CONFIG_DIR: join(scratch, "config"), ...env }), input: c.input },
          );
          const stderr = out(r.stderr);
          expect(r.exitCode, stderr).toBe(2);
          expect(out(r.stdout)).toBe("");
          expectCleanError(stderr);
          const first = stderr.split("\n")[0]!;
          if (typeof c.names === "string") expect(first).toContain(c.names);
          else expect(first).toMatch(c.names);
          expect(stderr).not.toContain(KEY);
          expect(server.requests).toEqual([]);
        }),
      );
    });
  }
});

interface Good {
  args: string[];
  input?: string;
  reply: object;
  status?: number;
  /** What the one request must carry. */
  sent: { method: string; path?: string; body?: unknown };
  note?: string;
}

const created = { status: 201, reply: FB };
const post = (body: object) => ({ method: "POST", path: "/backends/failover", body });

const GOOD: Good[] = [
  {
    args: [...CREATE, "--description", a(255)],
    ...created,
    sent: post({ backends: ["bkdhr_a"], description: a(255) }),
  },
  {
    args: [...CREATE, "--description", `${a(253)}é`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], description: `${a(253)}é` }),
  },
  {
    args: [...CREATE, "--description", `${a(252)}€`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], description: `${a(252)}€` }),
  },
  {
    args: [...CREATE, "--description", `${a(251)}😀`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], description: `${a(251)}😀` }),
  },
  {
    args: [...CREATE, "--description", "€".repeat(85)],
    ...created,
    sent: post({ backends: ["bkdhr_a"], description: "€".repeat(85) }),
    note: "85 × 3 bytes",
  },
  { args: [...CREATE, "--metadata", a(4096)], ...created, sent: post({ backends: ["bkdhr_a"], metadata: a(4096) }) },
  {
    args: [...CREATE, "--metadata", `${a(4094)}é`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], metadata: `${a(4094)}é` }),
  },
  {
    args: [...CREATE, "--metadata", `${a(4093)}€`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], metadata: `${a(4093)}€` }),
  },
  {
    args: [...CREATE, "--metadata", `${a(4092)}😀`],
    ...created,
    sent: post({ backends: ["bkdhr_a"], metadata: `${a(4092)}😀` }),
  },
  {
    args: ["failover", "create", "--backends", `bkdhr_${a(64)},bkdfo_Z9`],
    ...created,
    sent: post({ backends: [`bkdhr_${a(64)}`, "bkdfo_Z9"] }),
  },
  {
    args: ["failover", "update", "bkdfo_abc", "--description", ""],
    status: 200,
    reply: FB,
    sent: { method: "PATCH", path: "/backends/failover/bkdfo_abc", body: { description: "" } },
    note: "clearing is allowed",
  },
  {
    args: [...GET, `bkdfo_${a(64)}`],
    status: 200,
    reply: FB,
    sent: { method: "GET", path: `/backends/failover/bkdfo_${a(64)}` },
  },
  {
    args: [...WH, "--provider", "GitHub", "--secret", "abcdefgh"],
    status: 200,
    reply: MODULE,
    sent: { method: "PUT", body: { enabled: true, provider: "github", secret: "abcdefgh" } },
  },
  {
    args: [...WH, "--provider", "SNS", "--disabled"],
    status: 200,
    reply: { ...MODULE, provider: "sns" },
    sent: { method: "PUT", body: { enabled: false, provider: "sns" } },
  },
  {
    args: [...WH, "--provider", "stripe", "--secret-stdin"],
    input: "whsec_x\n",
    status: 200,
    reply: MODULE,
    sent: { method: "PUT", body: { enabled: true, provider: "stripe", secret: "whsec_x" } },
  },
  {
    args: ["failover", "list", "--limit", "1", "--timeout", "3600", "--retries", "10"],
    status: 200,
    reply: { backends: [FB] },
    sent: { method: "GET", path: "/backends/failover?limit=1" },
  },
  {
    args: ["failover", "list", "--limit", "100", "--retries", "0", "--timeout", "0.5"],
    status: 200,
    reply: { backends: [FB] },
    sent: { method: "GET", path: "/backends/failover?limit=100" },
  },
];

// One at a time: the cases run in this process, beside their server, and one has a 0.5 s limit.
describe(`${GOOD.length} inputs just inside the limits are accepted and sent exactly`, () => {
  for (const c of GOOD) {
    it(label(c), async () => {
      await slot(() =>
        withServer(async (server) => {
          server.fallback = () => ({ status: c.status ?? 200, body: c.reply });
          const r = await cli.run(c.args, { env: envFor(server), input: c.input });
          expect(r.exitCode, out(r.stderr)).toBe(0);
          expect(server.requests).toHaveLength(1);
          const req = server.requests[0]!;
          expect(req.method).toBe(c.sent.method);
          if (c.sent.path) expect(req.path).toBe(c.sent.path);
          if (c.sent.body !== undefined) {
            expect(JSON.parse(req.body)).toEqual(c.sent.body);
            expect(Buffer.from(req.body, "utf8").equals(Buffer.from(JSON.stringify(c.sent.body), "utf8"))).toBe(true);
          }
        }),
      );
    });
  }
});

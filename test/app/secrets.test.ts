// Secrets: the API key and webhook secrets never appear in stdout, stderr, --debug logs or
// error messages — also when the server echoes them back, in whatever JSON escaping; the
// config file is created 0600 in a 0700 folder; plain http leaves only for loopback; redirects are
// never followed with the key; masking touches only a secret's own value. In-process
// (test/helpers/app.ts): a cross-cutting suite, not one verb's.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Reply, apiError, json } from "../helpers/fault-server.js";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { FB, KEY, MODULE, envFor, expectCleanError, out, withServer } from "../reliability/support.js";
import { edge, failover, route, tunnelGroup } from "../migrate/fixtures.js";
import { useFaultServer } from "../e2e/support.js";

let cli: AppSandbox;
let scratch: string;
beforeAll(() => {
  cli = appSandbox();
  scratch = mkdtempSync(join(tmpdir(), "edgectl-secrets-"));
});
afterAll(() => {
  cli.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

// Two distinctive runs of letters and digits around characters that JSON encoders escape
// differently (`"` and `\` always; `&`, `<`, `>` by Go's encoding/json; `/` by some).
const SECRET = 'Qv7Lm2XpWr&<"\\>/Nb4Hc8JdTy';
const SECRET_MARKERS = ["Qv7Lm2Xp", "Nb4Hc8Jd"];
const KEY_MARKERS = [KEY, KEY.slice(-12)];

/** The forms a server may echo a string in. */
function encodings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const go = json.replace(/&/g, "\\u0026").replace(/</g, "\\u003c").replace(/>/g, "\\u003e");
  const slashes = json.replace(/\//g, "\\/");
  return [value, json, go, slashes];
}

function expectNoSecret(text: string, where: string): void {
  for (const marker of [...SECRET_MARKERS, ...KEY_MARKERS]) {
    expect(
      text.includes(marker),
      `${where} contains ${marker}: ${JSON.stringify(text.slice(Math.max(0, text.indexOf(marker) - 80), text.indexOf(marker) + 80))}`,
    ).toBe(false);
  }
}

const PUT = ["webhook-verification", "replace", "edghts_a", "edghtsrt_b", "--provider", "github"];

interface Echo {
  name: string;
  reply: (echo: string) => Reply;
}

/** Answers that carry the echoed text somewhere a careless client would print it. */
const ECHOES: Echo[] = [
  {
    name: "error msg (JSON error body)",
    reply: (e) => ({
      status: 400,
      body: `{"error_code":"ERR_NGROK_1","status_code":400,"msg":"invalid value ${e}","details":{"operation_id":"op_1"}}`,
    }),
  },
  {
    name: "error details (JSON error body)",
    reply: (e) => ({
      status: 400,
      body: `{"status_code":400,"msg":"invalid","details":{"operation_id":"op_1","secret":"${e}","got":"${e}"}}`,
    }),
  },
  {
    name: "401 naming the key",
    reply: (e) => ({
      status: 401,
      body: `{"error_code":"ERR_NGROK_401","status_code":401,"msg":"The API key '${e}' is not valid"}`,
    }),
  },
  {
    name: "HTML error page",
    reply: (e) => ({
      status: 502,
      headers: { "Retry-After": "0" },
      body: `<html><body>upstream said: ${e}</body></html>`,
    }),
  },
  {
    name: "HTML error page, echo at the excerpt cut",
    reply: (e) => ({ status: 500, body: `${"x".repeat(190)}${e}${"y".repeat(50)}` }),
  },
  { name: "200 not JSON", reply: (e) => ({ status: 200, body: `secret=${e}; key=${e}` }) },
  { name: "200 not JSON, echo at the excerpt cut", reply: (e) => ({ status: 200, body: `<${"z".repeat(192)}${e}` }) },
  {
    name: "200 wrong shape",
    reply: (e) => ({ status: 200, body: `{"enabled":"${e}","provider":"${e}","secret":"${e}"}` }),
  },
  {
    name: "200 module with the secret",
    reply: (e) => ({ status: 200, body: `{"enabled":true,"provider":"github","secret":"${e}"}` }),
  },
];

describe.concurrent("no secret in any output, --debug included", () => {
  for (const echo of ECHOES) {
    for (const [i, form] of encodings(SECRET).entries()) {
      it(`webhook secret echoed in ${echo.name} (encoding ${i})`, async () => {
        await withServer(async (server) => {
          server.fallback = () => echo.reply(form);
          for (const output of ["table", "json"]) {
            const r = await cli.run([...PUT, "--secret", SECRET, "--debug", "--retries", "1", "-o", output], {
              env: envFor(server),
            });
            expectNoSecret(out(r.stdout), `stdout (-o ${output})`);
            expectNoSecret(out(r.stderr), `stderr (-o ${output})`);
          }
        });
      });
    }
    it(`API key echoed in ${echo.name}`, async () => {
      await withServer(async (server) => {
        server.fallback = () => echo.reply(KEY);
        for (const args of [
          ["failover", "get", "bkdfo_abc"],
          ["api", "GET", "/backends/failover"],
        ]) {
          for (const output of ["table", "json"]) {
            const r = await cli.run([...args, "--debug", "--retries", "1", "-o", output], { env: envFor(server) });
            // `api` prints a successful body as received; that case has its own test below.
            if (!(args[0] === "api" && r.exitCode === 0))
              expectNoSecret(out(r.stdout), `stdout of ${args[0]} (-o ${output})`);
            expectNoSecret(out(r.stderr), `stderr of ${args[0]} (-o ${output})`);
          }
        }
      });
    });
  }

  it("`api` redacts the key from an error body it prints (a message), not from a successful one (data)", async () => {
    await withServer(async (server) => {
      server.script({ status: 400, body: `{"note":"your key is ${KEY}"}` });
      const failed = await cli.run(["api", "GET", "/backends/failover"], { env: envFor(server) });
      expect(out(failed.stdout)).toContain("your key is ********");
      expectNoSecret(out(failed.stdout), "stdout of api after 400");
      expectNoSecret(out(failed.stderr), "stderr of api after 400");
      server.script({ status: 200, body: `{"note":"your key is ${KEY}","secret":"whsec"}` });
      const ok = await cli.run(["api", "GET", "/backends/failover"], { env: envFor(server) });
      expect(JSON.parse(out(ok.stdout))).toEqual({ note: `your key is ${KEY}`, secret: "********" });
    });
  });

  it("the webhook secret from every source is redacted (stdin, file, env), and the right secret is sent", async () => {
    const file = join(scratch, "secret.txt");
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    const sources: { args: string[]; input?: string; env?: Record<string, string> }[] = [
      { args: ["--secret-stdin"], input: `${SECRET}\n` },
      { args: ["--secret-file", file] },
      { args: [], env: { EDGECTL_WEBHOOK_SECRET: SECRET } },
      { args: ["--secret", SECRET] },
    ];
    for (const source of sources) {
      await withServer(async (server) => {
        server.fallback = (req) => ({
          status: 400,
          body: `{"status_code":400,"msg":"rejected ${JSON.parse(req.body).secret}"}`,
        });
        const r = await cli.run([...PUT, ...source.args, "--debug", "--retries", "0"], {
          env: envFor(server, source.env),
          input: source.input,
        });
        expect(r.exitCode).toBe(1);
        expect(JSON.parse(server.requests[0]!.body)).toEqual({ enabled: true, provider: "github", secret: SECRET });
        expectNoSecret(out(r.stdout), "stdout");
        expectNoSecret(out(r.stderr), "stderr");
        expect(out(r.stderr)).toContain("rejected ********");
      });
    }
  });

  it("a successful --debug run logs the exchange without the key or the secret, and the table masks it", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: { enabled: true, provider: "github", secret: SECRET } });
      const r = await cli.run([...PUT, "--secret", SECRET, "--debug"], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/debug: → PUT /);
      expect(stderr).toMatch(/Bearer \*{8}/);
      expect(stderr).toMatch(/"secret":"\*{8}"/);
      expectNoSecret(stderr, "stderr");
      expectNoSecret(out(r.stdout), "stdout");
      expect(out(r.stdout)).toMatch(/SECRET\s+\*{8}/);
      // The server did get the real key and secret.
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    });
  });

  it("--api-key on the command line is redacted from --debug output too", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 403, body: `{"status_code":403,"msg":"key ${KEY} lacks scope"}` });
      const r = await cli.run(["failover", "get", "bkdfo_abc", "--api-key", KEY, "--debug"], {
        env: { EDGECTL_BASE_URL: server.url },
      });
      expect(r.exitCode).toBe(4);
      expectNoSecret(out(r.stderr), "stderr");
    });
  });

  it("--dry-run shows the request with the secret masked", async () => {
    const r = await cli.run([...PUT, "--secret", SECRET, "--dry-run", "-o", "json"], { env: { EDGECTL_API_KEY: KEY } });
    expect(r.exitCode).toBe(0);
    expectNoSecret(out(r.stdout), "stdout");
    expect(out(r.stdout)).toContain("********");
  });

  it("auth status, config list and config get never print the stored key", async () => {
    const dir = join(scratch, "cfg-show");
    const env = { EDGECTL_CONFIG_DIR: dir };
    expect(
      (await cli.run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], { env, input: `${KEY}\n` }))
        .exitCode,
    ).toBe(0);
    for (const args of [
      ["auth", "status"],
      ["auth", "status", "-o", "json"],
      ["config", "list"],
      ["config", "list", "-o", "json"],
      ["config", "get", "api_key"],
      ["--debug", "auth", "status"],
    ]) {
      const r = await cli.run(args, { env });
      expect(r.exitCode, args.join(" ")).toBe(0);
      expectNoSecret(out(r.stdout), `stdout of ${args.join(" ")}`);
      expectNoSecret(out(r.stderr), `stderr of ${args.join(" ")}`);
    }
  });
});

describe("the config file", () => {
  it("is created 0600 in a 0700 folder", async () => {
    const dir = join(scratch, "fresh", "edgectl");
    const r = await cli.run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
      env: { EDGECTL_CONFIG_DIR: dir },
      input: `${KEY}\n`,
    });
    expect(r.exitCode).toBe(0);
    expectNoSecret(out(r.stderr), "stderr");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o600);
    const set = await cli.run(["config", "set", "retries", "1"], { env: { EDGECTL_CONFIG_DIR: dir } });
    expect(set.exitCode).toBe(0);
    expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o600);
  });

  it("a file (and folder) found more open is warned about, left as it is (read-only commands chmod nothing), and still used", async () => {
    const dir = join(scratch, "loose");
    expect(
      (
        await cli.run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
          env: { EDGECTL_CONFIG_DIR: dir },
          input: `${KEY}\n`,
        })
      ).exitCode,
    ).toBe(0);
    const file = join(dir, "config.json");
    chmodSync(file, 0o644);
    chmodSync(dir, 0o755);
    const r = await cli.run(["auth", "status"], { env: { EDGECTL_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(out(r.stderr)).toMatch(/^warning: .*config\.json is readable by others \(mode 644\).*chmod 600/m);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    // A write makes edgectl's own file 0600 again; the folder stays as its owner left it.
    expect((await cli.run(["config", "set", "retries", "2"], { env: { EDGECTL_CONFIG_DIR: dir } })).exitCode).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    const again = await cli.run(["auth", "status"], { env: { EDGECTL_CONFIG_DIR: dir } });
    expect(out(again.stderr)).not.toMatch(/readable by others/);
  });

  it("a group-readable file is warned about before a request uses its key", async () => {
    await withServer(async (server) => {
      const dir = join(scratch, "loose-req");
      expect(
        (
          await cli.run(["auth", "login", "--with-token", "--no-verify", "--no-verify"], {
            env: { EDGECTL_CONFIG_DIR: dir },
            input: `${KEY}\n`,
          })
        ).exitCode,
      ).toBe(0);
      chmodSync(join(dir, "config.json"), 0o640);
      server.script({ status: 200, body: FB });
      const r = await cli.run(["failover", "get", "bkdfo_abc"], {
        env: { EDGECTL_CONFIG_DIR: dir, EDGECTL_BASE_URL: server.url },
      });
      expect(r.exitCode).toBe(0);
      expect(out(r.stderr)).toMatch(/warning: .*640/);
      expect(statSync(join(dir, "config.json")).mode & 0o777).toBe(0o640);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    });
  });
});

describe.concurrent("where the key may travel", () => {
  // 0.0.0.0 reaches a listener on 127.0.0.1 on Linux, so a leak would show at the server.
  const nonLoopback = (port: string) => [
    `http://0.0.0.0:${port}`,
    `http://localhost.localdomain.invalid:${port}`,
    `http://10.0.0.1:${port}`,
    `http://[::ffff:10.0.0.1]:${port}`,
  ];

  it("plain http to a non-loopback host is refused from flag, env and profile: exit 2, nothing sent", async () => {
    await withServer(async (server) => {
      const port = new URL(server.url).port;
      for (const base of nonLoopback(port)) {
        const viaFlag = await cli.run(["failover", "get", "bkdfo_abc", "--base-url", base], {
          env: { EDGECTL_API_KEY: KEY },
        });
        const viaEnv = await cli.run(["failover", "get", "bkdfo_abc"], {
          env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: base },
        });
        for (const r of [viaFlag, viaEnv]) {
          expect(r.exitCode).toBe(2);
          expect(out(r.stdout)).toBe("");
          expectCleanError(out(r.stderr));
          expect(out(r.stderr)).toMatch(/plain http/);
          expectNoSecret(out(r.stderr), "stderr");
        }
        expect(out(viaFlag.stderr)).toContain("--base-url");
        expect(out(viaEnv.stderr)).toContain("EDGECTL_BASE_URL");
      }
      const dir = join(scratch, "profile-http");
      const set = await cli.run(["config", "set", "base_url", `http://0.0.0.0:${port}`], {
        env: { EDGECTL_CONFIG_DIR: dir },
      });
      expect(set.exitCode).toBe(2);
      // A hand-edited profile is refused too.
      const { mkdirSync } = await import("node:fs");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(
        join(dir, "config.json"),
        JSON.stringify({ profiles: { default: { api_key: KEY, base_url: `http://0.0.0.0:${port}` } } }),
        { mode: 0o600 },
      );
      const viaProfile = await cli.run(["failover", "get", "bkdfo_abc"], { env: { EDGECTL_CONFIG_DIR: dir } });
      expect(viaProfile.exitCode).toBe(2);
      expect(out(viaProfile.stderr)).toMatch(/profile/);
      expect(server.requests).toHaveLength(0);
    });
  });

  it("plain http to 127.0.0.1 and localhost is allowed", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: FB });
      const port = new URL(server.url).port;
      for (const base of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}/prefix/`]) {
        const r = await cli.run(["failover", "get", "bkdfo_abc"], {
          env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: base },
        });
        expect(r.exitCode, `${base}: ${out(r.stderr)}`).toBe(0);
      }
    });
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} redirect is not followed: the target receives nothing`, async () => {
      await withServer(async (target) => {
        await withServer(async (server) => {
          server.fallback = () => ({
            status,
            headers: { Location: `${target.url}/backends/failover/bkdfo_abc` },
            body: "",
          });
          for (const args of [
            ["failover", "get", "bkdfo_abc"],
            ["failover", "create", "--backends", "bkdhr_a"],
            [...PUT, "--secret", SECRET],
          ]) {
            server.requests.length = 0;
            const r = await cli.run([...args, "--debug"], { env: envFor(server) });
            expect(r.exitCode).toBe(1);
            expect(server.requests).toHaveLength(1);
            expect(out(r.stdout)).toBe("");
            // --debug adds its log (and a stack trace, by design); the error line is still there.
            expect(out(r.stderr)).toMatch(/^error: the API answered \d{3} with a redirect/m);
            expectNoSecret(out(r.stderr), "stderr");
          }
          expect(target.requests).toHaveLength(0);
        });
      });
    });
  }

  it("a next_page_uri on another origin is asked of the base URL: the key never goes there", async () => {
    await withServer(async (target) => {
      await withServer(async (server) => {
        server.script(
          {
            status: 200,
            body: {
              backends: [FB],
              uri: "/backends/failover",
              next_page_uri: `${target.url}/backends/failover?before_id=x`,
            },
          },
          { status: 200, body: { backends: [], uri: "/backends/failover", next_page_uri: null } },
        );
        const r = await cli.run(["failover", "list", "--all"], { env: envFor(server) });
        expect(r.exitCode).toBe(0);
        expect(target.requests).toHaveLength(0);
        expect(server.requests.map((q) => q.path)).toEqual(["/backends/failover", "/backends/failover?before_id=x"]);
      });
    });
  });

  it("MODULE fixture sanity: a normal PUT works", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({ status: 200, body: MODULE });
      const r = await cli.run([...PUT, "--secret", SECRET], { env: envFor(server) });
      expect(r.exitCode).toBe(0);
    });
  });
});

// Masking touches only a secret's own value (issue 17 item 2): a secret that is also a word of
// the output (`internal`, `github`) must not mask that word elsewhere.
describe("masking touches only a secret's own value", () => {
  const suite = useFaultServer("key_masking_1234567890", appSandbox);

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
        if (req.method === "GET" && req.path.startsWith("/backends/failover/"))
          return json(200, failover("bkdfo_x", []));
        // --apply lists the account's endpoints first (none here).
        if (req.method === "GET" && req.path.startsWith("/endpoints"))
          return json(200, { endpoints: [], uri: "x", next_page_uri: null });
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
      const routeOut = (JSON.parse(r.stdout) as { https_edges: { routes: Record<string, unknown>[] }[] })
        .https_edges[0]!.routes[0]!;
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

  describe("api GET of an endpoint", () => {
    const POLICY =
      'on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: "gh-api-secret"} # kept\n';
    const answer = (): Reply =>
      json(200, { id: "ep_1", type: "cloud", url: "https://a.example", traffic_policy: POLICY });

    it("masks the policy's secret where it stands, every other byte kept", async () => {
      suite.server.fallback = answer;
      const r = await suite.run(["api", "GET", "/endpoints/ep_1"]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout + r.stderr).not.toContain("gh-api-secret");
      expect((JSON.parse(r.stdout) as { traffic_policy: string }).traffic_policy).toBe(
        POLICY.replace('"gh-api-secret"', '"********"'),
      );
    });

    it("prints it with --show-secret", async () => {
      suite.server.fallback = answer;
      const r = await suite.run(["api", "GET", "/endpoints/ep_1", "--show-secret"]);
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(r.stdout) as { traffic_policy: string }).traffic_policy).toBe(POLICY);
    });
  });
});

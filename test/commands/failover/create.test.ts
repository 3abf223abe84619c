// `edgectl failover create`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) its run with fake deps (--dry-run), and the whole CLI in-process (test/helpers/app.ts)
// against a recording fault server: what the server receives.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { create, run as createRun } from "../../../src/commands/failover/create.js";
import { parse, refusal } from "../parse.js";
import { fakeDeps } from "../fake-deps.js";
import { appSandbox } from "../../helpers/app.js";
import { json } from "../../helpers/fault-server.js";
import { FB } from "../../e2e/support.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";

describe("failover create argv → options", () => {
  it("concatenates comma lists and repeated --backends in order; absent flags are unset", async () => {
    const { options } = await parse(create, [
      "--backends",
      "bkdhr_a,bkdtg_b",
      "--backends",
      "bkdwd_c",
      "--description",
      "eu",
    ]);
    expect(options).toEqual({
      backends: ["bkdhr_a", "bkdtg_b", "bkdwd_c"],
      description: "eu",
      metadata: undefined,
      dryRun: false,
    });
  });

  it("refuses no --backends, naming the flag and the rule", async () => {
    const err = await refusal(create, ["--description", "eu"]);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe("--backends: needs at least one child backend id");
  });

  it("names the bad child id", async () => {
    expect((await refusal(create, ["--backends", "bkdhr_a,nope"])).message).toMatch(/^--backends: "nope" must be bkd/);
  });
});

describe("failover create --dry-run", () => {
  it("prints the POST with only the fields given and sends nothing", async () => {
    const deps = fakeDeps();
    await createRun({ backends: ["bkdhr_a", "bkdtg_b"], description: "eu", dryRun: true }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toBe(
      `POST https://api.example.test/backends/failover\n{\n  "backends": [\n    "bkdhr_a",\n    "bkdtg_b"\n  ],\n  "description": "eu"\n}\n`,
    );
    expect(deps.err.text).toBe("");
  });

  it("prints one JSON document with -o json", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await createRun({ backends: ["bkdhr_a"], metadata: "{}", dryRun: true }, deps);
    expect(JSON.parse(deps.out.text)).toEqual({
      dry_run: true,
      request: {
        method: "POST",
        url: "https://api.example.test/backends/failover",
        body: { backends: ["bkdhr_a"], metadata: "{}" },
      },
    });
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;

  describe("failover create request", () => {
    it("sends GET with no body and no content type, keeping a base URL path prefix", async () => {
      ctx.server.script(json(200, FB));
      const r = await run(["failover", "get", "bkdfo_abc", "-o", "json"], {
        env: { ...env(), EDGECTL_BASE_URL: `${ctx.server.url}/prefix/` },
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout as string)).toEqual(FB);
      const req = ctx.server.requests[0]!;
      expect(req.method).toBe("GET");
      expect(req.path).toBe("/prefix/backends/failover/bkdfo_abc");
      expect(req.body).toBe("");
      expect(req.headers["content-type"]).toBeUndefined();
    });

    it("sends only the backends when nothing else is given, with the contract's headers", async () => {
      ctx.server.script(json(201, FB));
      const r = await run(["failover", "create", "--backends", "bkdhr_only"], { env: env() });
      expect(r.exitCode).toBe(0);
      const req = ctx.server.requests[0]!;
      expect(req.body).toBe('{"backends":["bkdhr_only"]}');
      expectContractHeaders(req, true);
    });

    it("sends description and metadata verbatim, including multi-byte text and an empty metadata", async () => {
      ctx.server.script(json(201, FB));
      const r = await run(
        [
          "failover",
          "create",
          "--backends",
          "bkdtg_1",
          "--backends",
          "bkdhr_2,bkdsc_3",
          "--metadata",
          "",
          "--description",
          'zürich ✓ "q"',
        ],
        { env: env() },
      );
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(ctx.server.requests[0]!.body)).toEqual({
        backends: ["bkdtg_1", "bkdhr_2", "bkdsc_3"],
        description: 'zürich ✓ "q"',
        metadata: "",
      });
      expect(Object.keys(JSON.parse(ctx.server.requests[0]!.body))).toEqual(["backends", "description", "metadata"]);
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env } = ctx;

  it("posts backends from comma lists and repeated flags in order, with only the fields given", async () => {
    ctx.server.script(json(201, FB));
    const r = await run(
      ["failover", "create", "--backends", "bkdhr_a,bkdtg_b", "--backends", "bkdwd_c", "--description", "eu"],
      { env: env() },
    );
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests).toHaveLength(1);
    const req = ctx.server.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/backends/failover");
    expect(req.body).toBe('{"backends":["bkdhr_a","bkdtg_b","bkdwd_c"],"description":"eu"}');
    expect(req.headers.authorization).toBe("Bearer key_e2e_1234567890");
    expect(req.headers["ngrok-version"]).toBe("2");
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toMatch(/^edgectl\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+$/);
  });
});

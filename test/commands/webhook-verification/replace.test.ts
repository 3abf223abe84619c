// `edgectl webhook-verification replace`: (a) the command line → options or refusal
// (test/commands/parse.ts), --provider as the declared command checks it, and where the secret
// comes from (flags, stdin, a file, the environment); (b) its run with fake deps (--dry-run),
// and the whole CLI in-process (test/helpers/app.ts) against a recording fault server.
import { describe, expect, it, afterEach, beforeEach } from "vitest";
import { replace, run } from "../../../src/commands/webhook-verification/replace.js";
import { parse, refusal } from "../parse.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../../../src/errors.js";
import { readSecret } from "../../../src/commands/webhook-verification/secret-input.js";
import { fakeDeps } from "../fake-deps.js";
import { appSandbox } from "../../helpers/app.js";
import { json, type Reply } from "../../helpers/fault-server.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";

describe("webhook-verification replace argv → options", () => {
  it("lower-cases the provider and keeps the secret sources as typed (read only when it runs)", async () => {
    const { options } = await parse(replace, [
      "edghts_1",
      "edghtsrt_2",
      "--provider",
      "GitHub",
      "--secret-file",
      "./s",
      "--disabled",
    ]);
    expect(options).toEqual({
      edgeId: "edghts_1",
      routeId: "edghtsrt_2",
      provider: "github",
      secretStdin: false,
      secretFile: "./s",
      secret: undefined,
      disabled: true,
      showSecret: false,
      dryRun: false,
    });
  });

  it("names <edge-id> before a bad provider, and --provider when it is missing", async () => {
    expect((await refusal(replace, ["edghts_../x", "edghtsrt_2", "--provider", "nope"])).message).toMatch(
      /^<edge-id>: "edghts_\.\.\/x" must be edghts_/,
    );
    expect((await refusal(replace, ["edghts_1", "edghtsrt_2"])).message).toBe(
      "--provider: required (e.g. github, stripe, slack, sns)",
    );
    expect((await refusal(replace, ["edghts_1", "edghtsrt_2", "--provider", ""])).message).toBe(
      "--provider: required (e.g. github, stripe, slack, sns)",
    );
  });
});

/** --provider as the declared command checks it (the route valid, nothing else given). */
const parseProvider = (provider: string | undefined) =>
  replace.parse({
    edgeId: "edghts_1",
    routeId: "edghtsrt_1",
    provider,
    secretStdin: false,
    disabled: false,
    showSecret: false,
    dryRun: false,
  }).provider;

async function refused(promise: Promise<unknown>): Promise<UsageError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("expected a UsageError");
}

function refusedSync(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("parseProvider", () => {
  it("accepts a provider in any letter case and returns it in lower case", () => {
    expect(parseProvider("github")).toBe("github");
    expect(parseProvider("GitHub")).toBe("github");
    expect(parseProvider("SLACK")).toBe("slack");
    expect(parseProvider("Facebook_Graph_API")).toBe("facebook_graph_api");
  });

  it("requires a provider", () => {
    expect(refusedSync(() => parseProvider(undefined)).message).toMatch(/^--provider: required/);
    expect(refusedSync(() => parseProvider("")).message).toMatch(/^--provider: required/);
  });

  it("suggests the near miss", () => {
    expect(refusedSync(() => parseProvider("githb")).message).toContain('did you mean "github"?');
    expect(refusedSync(() => parseProvider("Strip")).message).toContain('did you mean "stripe"?');
  });

  it("suggests nothing for nonsense, but names the flag and the rule", () => {
    const err = refusedSync(() => parseProvider("zzzzzzzzzz"));
    expect(err.message).toMatch(/^--provider: "zzzzzzzzzz" is not a supported provider/);
    expect(err.message).not.toContain("did you mean");
  });

  it("escapes control characters of the value", () => {
    const err = refusedSync(() => parseProvider("git\x1b[2Jhub"));
    expect(err.message).toContain("git\\x1b[2Jhub");
    expect(err.message).not.toContain("\x1b");
  });
});

describe("readSecret: sources", () => {
  it("takes --secret", async () => {
    const deps = fakeDeps();
    expect(await readSecret({ secret: "whsec_1" }, "github", deps)).toBe("whsec_1");
    expect(deps.stdinReads).toBe(0);
  });

  it("takes EDGECTL_WEBHOOK_SECRET when no flag is given", async () => {
    expect(await readSecret({}, "stripe", fakeDeps({ env: { EDGECTL_WEBHOOK_SECRET: "from_env" } }))).toBe("from_env");
  });

  it("takes a flag over EDGECTL_WEBHOOK_SECRET", async () => {
    expect(await readSecret({ secret: "flag" }, "stripe", fakeDeps({ env: { EDGECTL_WEBHOOK_SECRET: "env" } }))).toBe(
      "flag",
    );
  });

  it("refuses two sources, naming both flags", async () => {
    const err = await refused(readSecret({ secretStdin: true, secret: "x" }, "github", fakeDeps()));
    expect(err.message).toContain("--secret-stdin");
    expect(err.message).toContain("--secret");
    expect(err.message).toContain("only one source");
    const err2 = await refused(readSecret({ secretFile: "/tmp/x", secret: "x" }, "github", fakeDeps()));
    expect(err2.message).toMatch(/^--secret-file and --secret: /);
  });

  it("refuses all three sources at once before reading anything", async () => {
    const deps = fakeDeps({ stdin: "s" });
    const err = await refused(
      readSecret({ secretStdin: true, secretFile: "/nonexistent", secret: "x" }, "github", deps),
    );
    expect(err.message).toMatch(/^--secret-stdin and --secret-file and --secret: /);
    expect(deps.stdinReads).toBe(0);
  });

  it("refuses a missing secret, naming the ways to give one", async () => {
    const err = await refused(readSecret({}, "github", fakeDeps()));
    expect(err.message).toContain("github needs a secret");
    expect(err.message).toContain("--secret-stdin");
    expect(err.message).toContain("EDGECTL_WEBHOOK_SECRET");
  });

  it("refuses an empty --secret", async () => {
    expect((await refused(readSecret({ secret: "" }, "github", fakeDeps()))).message).toBe(
      "--secret: the secret is empty",
    );
  });

  it("refuses an empty EDGECTL_WEBHOOK_SECRET", async () => {
    const err = await refused(readSecret({}, "github", fakeDeps({ env: { EDGECTL_WEBHOOK_SECRET: "" } })));
    expect(err.message).toMatch(/^EDGECTL_WEBHOOK_SECRET: the secret is empty/);
  });
});

describe("readSecret: sns", () => {
  it("refuses sns with a secret", async () => {
    const err = await refused(readSecret({ secret: "x" }, "sns", fakeDeps()));
    expect(err.message).toMatch(/^--secret: provider sns .*takes no secret/);
  });

  it("refuses sns with --secret-stdin without reading stdin", async () => {
    const deps = fakeDeps({ stdin: "x" });
    expect((await refused(readSecret({ secretStdin: true }, "sns", deps))).message).toMatch(/^--secret-stdin: /);
    expect(deps.stdinReads).toBe(0);
  });

  it("warns and sends no secret for sns with EDGECTL_WEBHOOK_SECRET set", async () => {
    const deps = fakeDeps({ env: { EDGECTL_WEBHOOK_SECRET: "leftover" } });
    expect(await readSecret({}, "sns", deps)).toBeUndefined();
    expect(deps.warnings).toHaveLength(1);
    expect(deps.warnings[0]).toContain("EDGECTL_WEBHOOK_SECRET is ignored");
    expect(deps.warnings[0]).not.toContain("leftover");
  });

  it("needs nothing for sns", async () => {
    const deps = fakeDeps();
    expect(await readSecret({}, "sns", deps)).toBeUndefined();
    expect(deps.warnings).toEqual([]);
  });
});

describe("readSecret: --secret-stdin", () => {
  it.each([
    ["s3cret\n", "s3cret"],
    ["s3cret\r\n", "s3cret"],
    ["s3cret", "s3cret"],
    ["s3cret\n\n", "s3cret\n"],
    ["s3cret\r\n\r\n", "s3cret\r\n"],
    ["  spaced  \n", "  spaced  "],
    ["multi\nline\n", "multi\nline"],
  ])("reads %j as %j (exactly one trailing newline dropped)", async (stdin, expected) => {
    const deps = fakeDeps({ stdin });
    expect(await readSecret({ secretStdin: true }, "github", deps)).toBe(expected);
    expect(deps.stdinReads).toBe(1);
  });

  it("refuses a terminal stdin without waiting for it", async () => {
    const deps = fakeDeps({ stdinIsTTY: true, stdin: "never" });
    const err = await refused(readSecret({ secretStdin: true }, "github", deps));
    expect(err.message).toMatch(/^--secret-stdin: stdin is a terminal/);
    expect(deps.stdinReads).toBe(0);
  });

  it("refuses a stdin holding only a newline", async () => {
    expect((await refused(readSecret({ secretStdin: true }, "github", fakeDeps({ stdin: "\n" })))).message).toBe(
      "--secret-stdin: the secret is empty",
    );
  });
});

describe("readSecret: --secret-file", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "edgectl-secret-test-"));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it("reads the file, dropping one trailing newline", async () => {
    const path = join(tmp, "gh.secret");
    writeFileSync(path, "file_secret\r\n");
    expect(await readSecret({ secretFile: path }, "github", fakeDeps())).toBe("file_secret");
  });

  it("refuses a missing file, naming the flag, the path and the reason", async () => {
    const path = join(tmp, "missing.secret");
    const err = await refused(readSecret({ secretFile: path }, "github", fakeDeps()));
    expect(err.message).toBe(`--secret-file: cannot read ${path}: ENOENT`);
  });

  it("refuses a folder given as the file", async () => {
    expect((await refused(readSecret({ secretFile: tmp }, "github", fakeDeps()))).message).toMatch(
      /^--secret-file: cannot read /,
    );
  });

  it("refuses an empty file", async () => {
    const path = join(tmp, "empty");
    writeFileSync(path, "");
    expect((await refused(readSecret({ secretFile: path }, "github", fakeDeps()))).message).toBe(
      "--secret-file: the secret is empty",
    );
  });
});

describe("replace --dry-run", () => {
  const base = { edgeId: "edghts_1", routeId: "edghtsrt_2", enabled: true, showSecret: false, dryRun: true } as const;

  it("prints the PUT request with the secret redacted and builds no client", async () => {
    const deps = fakeDeps();
    await run({ ...base, provider: "github", secret: "whsec_topsecret" }, deps);
    expect(deps.clientCalls).toBe(0);
    expect(deps.out.text).toContain(
      "PUT https://api.example.test/edges/https/edghts_1/routes/edghtsrt_2/webhook_verification",
    );
    expect(deps.out.text).toContain('"secret": "********"');
    expect(deps.out.text).toContain('"provider": "github"');
    expect(deps.out.text).not.toContain("topsecret");
    expect(deps.err.text).toBe("");
  });

  it("prints one JSON document with -o json, with enabled false for --disabled and no secret for sns", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await run({ ...base, enabled: false, provider: "sns", secret: undefined }, deps);
    expect(JSON.parse(deps.out.text)).toEqual({
      dry_run: true,
      request: {
        method: "PUT",
        url: "https://api.example.test/edges/https/edghts_1/routes/edghtsrt_2/webhook_verification",
        body: { enabled: false, provider: "sns" },
      },
    });
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env } = ctx;

  describe("webhook verification requests", () => {
    const replace = (...extra: string[]) => ["webhook-verification", "replace", "edghts_e1", "edghtsrt_r1", ...extra];
    const moduleReply = (): Reply => json(200, { enabled: true, provider: "github", secret: "whatever" });

    it("takes the secret from --secret-stdin (one trailing newline dropped)", async () => {
      ctx.server.script(moduleReply());
      const r = await run(replace("--provider", "github", "--secret-stdin"), { env: env(), input: "from stdin  \n" });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"github","secret":"from stdin  "}');
    });

    it("takes the secret from --secret-file (one trailing newline dropped)", async () => {
      const file = join(ctx.scratch, "gh.secret");
      writeFileSync(file, "file-secret\n\n", { mode: 0o600 });
      ctx.server.script(moduleReply());
      const r = await run(replace("--provider", "github", "--secret-file", file), { env: env() });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"github","secret":"file-secret\\n"}');
    });

    it("takes the secret from EDGECTL_WEBHOOK_SECRET when no flag gives one", async () => {
      ctx.server.script(moduleReply());
      const r = await run(replace("--provider", "stripe"), { env: { ...env(), EDGECTL_WEBHOOK_SECRET: "env-secret" } });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"stripe","secret":"env-secret"}');
    });

    it("a flag wins over EDGECTL_WEBHOOK_SECRET", async () => {
      ctx.server.script(moduleReply());
      const r = await run(replace("--provider", "stripe", "--secret", "flag-secret"), {
        env: { ...env(), EDGECTL_WEBHOOK_SECRET: "env-secret" },
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(ctx.server.requests[0]!.body).secret).toBe("flag-secret");
    });

    it("sends the provider in lower case, whatever case was typed", async () => {
      ctx.server.script(moduleReply(), moduleReply());
      const a = await run(replace("--provider", "GitHub", "--secret", "abcd1"), { env: env() });
      const b = await run(replace("--provider", "LAUNCH_DARKLY", "--secret", "abcd2"), { env: env() });
      expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
      expect(ctx.server.requests.map((q) => JSON.parse(q.body).provider)).toEqual(["github", "launch_darkly"]);
    });

    it("sns sends no secret key at all", async () => {
      ctx.server.script(json(200, { enabled: true, provider: "sns" }));
      const r = await run(replace("--provider", "SNS"), { env: env() });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"enabled":true,"provider":"sns"}');
    });

    it("--disabled sends enabled false", async () => {
      ctx.server.script(json(200, { enabled: false, provider: "slack", secret: "x" }));
      const r = await run(replace("--provider", "slack", "--secret", "slack-secret", "--disabled"), { env: env() });
      expect(r.exitCode).toBe(0);
      expect(ctx.server.requests[0]!.body).toBe('{"enabled":false,"provider":"slack","secret":"slack-secret"}');
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, expectContractHeaders } = ctx;
  const path = "/edges/https/edghts_e1/routes/edghtsrt_r1/webhook_verification";
  const replace = (...extra: string[]) => ["webhook-verification", "replace", "edghts_e1", "edghtsrt_r1", ...extra];
  const moduleReply = (): Reply => json(200, { enabled: true, provider: "github", secret: "whatever" });

  it("replace sends PUT {enabled, provider, secret} with the secret from --secret", async () => {
    ctx.server.script(moduleReply());
    const r = await run(replace("--provider", "github", "--secret", "s3cret-flag"), { env: env() });
    expect(r.exitCode).toBe(0);
    const req = ctx.server.requests[0]!;
    expect([req.method, req.path]).toEqual(["PUT", path]);
    expect(req.body).toBe('{"enabled":true,"provider":"github","secret":"s3cret-flag"}');
    expectContractHeaders(req, true);
  });
});

// Every command against the emulator, in JSON and table output, as an operator's session would
// run them: the CLI and the emulator in-process (test/helpers/app.ts; the emulator as a process
// is test/emulator/cli.test.ts's and process.test.ts's).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { makeRoute, startInProcessEmulator } from "../helpers/emulator.js";
import { parseJsonError, type Failover } from "../e2e/support.js";
import { useEmulatorSessionSuite } from "../e2e/emulator-session.support.js";

const ctx = useEmulatorSessionSuite(appSandbox);
const { run, runJson, create, record } = ctx;

describe("failover in table output", () => {
  it("create, get and update print a FIELD/VALUE table holding the values", async () => {
    const c = await run([
      "failover",
      "create",
      "--backends",
      "bkdhr_t1,bkdtg_t2",
      "--description",
      "table test",
      "--metadata",
      "m=1",
    ]);
    expect(c.exitCode).toBe(0);
    expect(c.stderr).toBe("");
    const rec = record(c.stdout);
    expect(rec.ID).toMatch(/^bkdfo_/);
    expect(rec).toMatchObject({ DESCRIPTION: "table test", METADATA: "m=1", BACKENDS: "bkdhr_t1, bkdtg_t2" });
    expect(rec.URI).toBe(`${ctx.emu.url}/backends/failover/${rec.ID}`);

    const g = await run(["failover", "get", rec.ID!]);
    expect(g.exitCode).toBe(0);
    expect(record(g.stdout)).toEqual(rec);

    const u = await run(["failover", "update", rec.ID!, "--metadata", "m=2"]);
    expect(u.exitCode).toBe(0);
    expect(record(u.stdout)).toEqual({ ...rec, METADATA: "m=2" });

    const l = await run(["failover", "list"]);
    expect(l.exitCode).toBe(0);
    expect(l.stdout).toMatch(/^ID\s+DESCRIPTION\s+BACKENDS\s+CREATED$/m);
    expect(l.stdout).toMatch(new RegExp(`^${rec.ID}\\s+table test\\s+bkdhr_t1, bkdtg_t2\\s+${rec.CREATED}$`, "m"));

    const d = await run(["failover", "delete", rec.ID!, "--yes"]);
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toMatch(/^ID\s+DELETED$/m);
    expect(d.stdout).toMatch(new RegExp(`^${rec.ID}\\s+true$`, "m"));
  });

  it("control characters in a description are shown escaped in the table, kept in JSON", async () => {
    const fb = await create("--backends", "bkdhr_esc", "--description", "evil\x1b[31mred\nline");
    expect(fb.description).toBe("evil\x1b[31mred\nline");
    const t = await run(["failover", "get", fb.id]);
    expect(t.stdout).not.toContain("\x1b");
    expect(record(t.stdout).DESCRIPTION).toBe("evil\\x1b[31mred\\nline");
  });
});

describe("failover get/delete with several ids and - from stdin", () => {
  it("get of several ids prints them in input order; a missing one is reported and the rest go on", async () => {
    const a = await create("--backends", "bkdhr_m1");
    const b = await create("--backends", "bkdhr_m2");
    const c = await create("--backends", "bkdhr_m3");
    const missing = "bkdfo_doesnotexist123";

    const ok = await runJson<Failover[]>(["failover", "get", c.id, a.id, b.id]);
    expect(ok.map((x) => x.id)).toEqual([c.id, a.id, b.id]);

    const r = await run(["failover", "get", b.id, missing, a.id, "-o", "json"]);
    expect(r.exitCode).toBe(1);
    expect((JSON.parse(r.stdout) as Failover[]).map((x) => x.id)).toEqual([b.id, a.id]);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).toContain('"status_code":404');

    const t = await run(["failover", "get", "-"], { input: `${a.id}\n${missing}\n${c.id}\n` });
    expect(t.exitCode).toBe(1);
    const rows = t.stdout.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^ID\s+DESCRIPTION\s+BACKENDS\s+CREATED$/);
    expect(rows.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([a.id, c.id]);
    expect(t.stderr).toMatch(new RegExp(`^error: ${missing}: .*HTTP 404`, "m"));
  });

  it("one id given as - still prints a list", async () => {
    const a = await create("--backends", "bkdhr_single");
    const list = await runJson<Failover[]>(["failover", "get", "-"], { input: `${a.id}\n` });
    expect(list.map((x) => x.id)).toEqual([a.id]);
  });

  it("delete of ids from stdin: input order, a missing id on stderr, the others deleted", async () => {
    const a = await create("--backends", "bkdhr_d1");
    const b = await create("--backends", "bkdhr_d2");
    const missing = "bkdfo_neverexisted42";
    const r = await run(["failover", "delete", "-", "--yes", "-o", "json"], {
      input: `${b.id}\n${missing}\n${a.id}\n`,
    });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: b.id, deleted: true },
      { id: a.id, deleted: true },
    ]);
    expect(r.stderr).toContain(missing);
    for (const id of [a.id, b.id]) {
      const g = await run(["failover", "get", id]);
      expect(g.exitCode).toBe(1);
    }
  });

  it("delete of several ids as arguments, all present: exit 0, table rows in order", async () => {
    const a = await create("--backends", "bkdhr_e1");
    const b = await create("--backends", "bkdhr_e2");
    const r = await run(["failover", "delete", b.id, a.id, "--yes"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      [b.id, "true"],
      [a.id, "true"],
    ]);
  });
});

describe("webhook verification against the emulator", () => {
  /** A fresh route for each test, made through the API, so modules never leak between tests. */
  const route = async () => {
    const made = await makeRoute(ctx.emu.url);
    return [made.edgeId, made.routeId] as const;
  };
  const wv = (verb: string, r: readonly [string, string], ...args: string[]) => [
    "webhook-verification",
    verb,
    r[0],
    r[1],
    ...args,
  ];

  it("replace (--secret-stdin) → get → get --show-secret → delete → get gives 404", async () => {
    const r = await route();
    const replaced = await runJson(wv("replace", r, "--provider", "GitHub", "--secret-stdin"), {
      input: "gh-stdin-secret\n",
    });
    expect(replaced).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(await runJson(wv("get", r))).toEqual({ enabled: true, provider: "github", secret: "********" });
    expect(await runJson(wv("get", r, "--show-secret"))).toEqual({
      enabled: true,
      provider: "github",
      secret: "gh-stdin-secret",
    });
    expect(await runJson(wv("delete", r, "--yes"))).toEqual({ id: `${r[0]}/${r[1]}`, deleted: true });
    const gone = await run(wv("get", r));
    expect(gone.exitCode).toBe(1);
    expect(gone.stdout).toBe("");
    expect(gone.stderr).toMatch(/^error: .*HTTP 404/);
  });

  it("--secret-file is stored without its trailing newline", async () => {
    const r = await route();
    const file = join(ctx.scratch, "stripe.secret");
    writeFileSync(file, "whsec_file_secret\n", { mode: 0o600 });
    await runJson(wv("replace", r, "--provider", "stripe", "--secret-file", file));
    expect(await runJson(wv("get", r, "--show-secret"))).toEqual({
      enabled: true,
      provider: "stripe",
      secret: "whsec_file_secret",
    });
  });

  it("--secret and --show-secret on replace itself", async () => {
    const r = await route();
    expect(
      await runJson(wv("replace", r, "--provider", "slack", "--secret", "slack-flag-secret", "--show-secret")),
    ).toEqual({
      enabled: true,
      provider: "slack",
      secret: "slack-flag-secret",
    });
  });

  it("EDGECTL_WEBHOOK_SECRET is the source when no flag is given", async () => {
    const r = await route();
    await runJson(wv("replace", r, "--provider", "twilio"), { env: { EDGECTL_WEBHOOK_SECRET: "env-webhook-secret" } });
    expect(await runJson(wv("get", r, "--show-secret"))).toEqual({
      enabled: true,
      provider: "twilio",
      secret: "env-webhook-secret",
    });
  });

  it("sns takes no secret", async () => {
    const r = await route();
    const m = await runJson<Record<string, unknown>>(wv("replace", r, "--provider", "sns"));
    expect(m).toMatchObject({ enabled: true, provider: "sns" });
    expect(m.secret ?? "").toBe("");
  });

  it("--disabled stores enabled false", async () => {
    const r = await route();
    expect(await runJson(wv("replace", r, "--provider", "shopify", "--secret", "shop-secret", "--disabled"))).toEqual({
      enabled: false,
      provider: "shopify",
      secret: "********",
    });
    expect(await runJson(wv("get", r))).toMatchObject({ enabled: false });
  });

  it("replace replaces: the second call wins", async () => {
    const r = await route();
    await runJson(wv("replace", r, "--provider", "github", "--secret", "first-secret"));
    await runJson(wv("replace", r, "--provider", "sns"));
    expect(await runJson(wv("get", r))).toMatchObject({ enabled: true, provider: "sns" });
  });

  it("table output: FIELD/VALUE with the secret masked unless --show-secret", async () => {
    const r = await route();
    const rep = await run(wv("replace", r, "--provider", "gitlab", "--secret", "gitlab-table-secret"));
    expect(rep.exitCode).toBe(0);
    expect(rep.stdout).not.toContain("gitlab-table-secret");
    expect(record(rep.stdout)).toEqual({ ENABLED: "true", PROVIDER: "gitlab", SECRET: "********" });

    const g = await run(wv("get", r));
    expect(record(g.stdout)).toEqual({ ENABLED: "true", PROVIDER: "gitlab", SECRET: "********" });
    expect(g.stdout).not.toContain("gitlab-table-secret");

    const shown = await run(wv("get", r, "--show-secret"));
    expect(record(shown.stdout)).toEqual({ ENABLED: "true", PROVIDER: "gitlab", SECRET: "gitlab-table-secret" });

    const d = await run(wv("delete", r, "--yes"));
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toMatch(new RegExp(`^${r[0]}/${r[1]}\\s+true$`, "m"));
  });

  it("get of a route without a module is a 404 (exit 1)", async () => {
    const r = await route();
    const g = await run(wv("get", r, "-o", "json"));
    expect(g.exitCode).toBe(1);
    expect(g.stdout).toBe("");
    expect(parseJsonError(g.stderr).error).toMatchObject({ kind: "api", status_code: 404 });
  });

  it("the secret never shows up on stderr either", async () => {
    const r = await route();
    const rep = await run(wv("replace", r, "--provider", "github", "--secret", "never-on-stderr-secret", "--debug"));
    expect(rep.exitCode).toBe(0);
    expect(rep.stderr).toContain("PUT");
    expect(rep.stderr).not.toContain("never-on-stderr-secret");
    expect(rep.stdout).not.toContain("never-on-stderr-secret");
  });
});

describe("edgectl api against the emulator", () => {
  it("GET lists, and an error status prints the error body on stdout with exit 1", async () => {
    const fb = await create("--backends", "bkdhr_api");
    const ok = await run(["api", "GET", `/backends/failover/${fb.id}`]);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual(fb);
    const missing = await run(["api", "GET", "/backends/failover/bkdfo_nope1"]);
    expect(missing.exitCode).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ status_code: 404 });
  });
});

describe("the emulator with --api-key", () => {
  let locked: Awaited<ReturnType<typeof startInProcessEmulator>>;
  beforeAll(async () => {
    locked = await startInProcessEmulator(["--api-key", "right"]);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
    await locked?.stop();
  });

  it("a wrong key gets 401: exit 4, nothing on stdout, the key not echoed", async () => {
    const r = await run(["failover", "list"], {
      env: { EDGECTL_BASE_URL: locked.url, EDGECTL_API_KEY: "wrong-key-xyz" },
    });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain("401");
    expect(r.stderr).not.toContain("wrong-key-xyz");

    const j = await run(["failover", "get", "bkdfo_any", "-o", "json"], {
      env: { EDGECTL_BASE_URL: locked.url, EDGECTL_API_KEY: "wrong-key-xyz" },
    });
    expect(j.exitCode).toBe(4);
    expect(parseJsonError(j.stderr).error).toMatchObject({ kind: "auth", status_code: 401 });
  });

  it("the right key works", async () => {
    const r = await run(["failover", "list", "-o", "json"], {
      env: { EDGECTL_BASE_URL: locked.url, EDGECTL_API_KEY: "right" },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it("an empty list in table output says so on stderr and prints nothing on stdout", async () => {
    const r = await run(["failover", "list"], { env: { EDGECTL_BASE_URL: locked.url, EDGECTL_API_KEY: "right" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no Failover backends");
  });
});

describe("a whole session", () => {
  const ctx = useEmulatorSessionSuite(appSandbox);
  const { run, runJson, create } = ctx;

  describe("a realistic failover session (JSON)", () => {
    it("create → get → update → list → delete → get gives 404", async () => {
      const created = await create(
        "--backends",
        "bkdhr_primary,bkdtg_standby",
        "--backends",
        "bkdwd_last",
        "--description",
        "eu pair",
        "--metadata",
        '{"team":"edge"}',
      );
      expect(created).toMatchObject({
        description: "eu pair",
        metadata: '{"team":"edge"}',
        backends: ["bkdhr_primary", "bkdtg_standby", "bkdwd_last"],
      });
      expect(created.id).toMatch(/^bkdfo_[A-Za-z0-9]+$/);
      expect(created.uri).toBe(`${ctx.emu.url}/backends/failover/${created.id}`);
      expect(Number.isNaN(Date.parse(created.created_at))).toBe(false);

      expect(await runJson(["failover", "get", created.id])).toEqual(created);

      const updated = await runJson<Failover>(["failover", "update", created.id, "--description", "eu pair (v2)"]);
      expect(updated).toEqual({ ...created, description: "eu pair (v2)" });
      const reordered = await runJson<Failover>([
        "failover",
        "update",
        created.id,
        "--backends",
        "bkdwd_last,bkdhr_primary",
      ]);
      expect(reordered).toEqual({ ...updated, backends: ["bkdwd_last", "bkdhr_primary"] });

      const list = await runJson<Failover[]>(["failover", "list", "--all"]);
      expect(Array.isArray(list)).toBe(true);
      expect(list.find((x) => x.id === created.id)).toEqual(reordered);

      expect(await runJson(["failover", "delete", created.id, "--yes"])).toEqual({ id: created.id, deleted: true });

      const gone = await run(["failover", "get", created.id]);
      expect(gone.exitCode).toBe(1);
      expect(gone.stdout).toBe("");
      expect(gone.stderr).toMatch(/^error: /);
      expect(gone.stderr).toContain("404");
      expect(gone.stderr).toMatch(/operation_id op_[A-Za-z0-9]+/);

      const goneJson = await run(["failover", "get", created.id, "-o", "json"]);
      expect(goneJson.exitCode).toBe(1);
      expect(goneJson.stdout).toBe("");
      const { error } = parseJsonError(goneJson.stderr);
      expect(error).toMatchObject({ kind: "api", status_code: 404 });
      expect(error.operation_id).toMatch(/^op_/);

      const again = await run(["failover", "delete", created.id, "--yes"]);
      expect(again.exitCode).toBe(1);
      expect(again.stdout).toBe("");
      expect(again.stderr).toContain("404");
    });

    it("create with only backends gives no description or metadata (left out when empty, as the API does)", async () => {
      const fb = await create("--backends", "bkdsc_only");
      expect(fb).toMatchObject({ backends: ["bkdsc_only"] });
      expect("description" in fb || "metadata" in fb).toBe(false);
    });

    it("update with an empty description clears it and leaves the rest alone", async () => {
      const fb = await create("--backends", "bkdhr_a", "--description", "to clear", "--metadata", "keep");
      const cleared = await runJson<Failover>(["failover", "update", fb.id, "--description", ""]);
      expect("description" in cleared).toBe(false);
      expect(cleared).toEqual(Object.fromEntries(Object.entries(fb).filter(([k]) => k !== "description")));
    });

    it("list is newest first and --limit/--all page through everything", async () => {
      const a = await create("--backends", "bkdhr_p1", "--description", "page-1");
      const b = await create("--backends", "bkdhr_p2", "--description", "page-2");
      const c = await create("--backends", "bkdhr_p3", "--description", "page-3");
      // One page of more: said on stderr.
      const cut = await run(["failover", "list", "--limit", "2", "-o", "json"]);
      expect(cut.stderr).toBe("more: use --all");
      const first = JSON.parse(cut.stdout) as Failover[];
      expect(first.map((x) => x.id)).toEqual([c.id, b.id]);
      const all = await runJson<Failover[]>(["failover", "list", "--limit", "1", "--all"]);
      const ids = all.map((x) => x.id);
      expect(ids.slice(0, 3)).toEqual([c.id, b.id, a.id]);
      expect(new Set(ids).size).toBe(ids.length);
      const full = await runJson<Failover[]>(["failover", "list", "--all"]);
      expect(full.map((x) => x.id)).toEqual(ids);
    });
  });
});

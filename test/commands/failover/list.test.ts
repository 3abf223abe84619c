// `edgectl failover list`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) the whole CLI in-process (test/helpers/app.ts) against the emulator (paging a fresh
// account) and a fault server (next_page_uri that loops or points elsewhere).
import { describe, expect, it, afterAll, beforeAll } from "vitest";
import { list } from "../../../src/commands/failover/list.js";
import { parse, refusal } from "../parse.js";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";
import { startInProcessEmulator } from "../../helpers/emulator.js";
import { json } from "../../helpers/fault-server.js";
import { runCli, type Failover } from "../../e2e/support.js";
import { FB as ANSWER_FB, envFor, out, withServer } from "../../reliability/support.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { useStandIns } from "../../helpers/stand-ins.js";

describe("failover list argv → options", () => {
  it("reads --limit as a number and --all as a switch", async () => {
    expect((await parse(list, ["--limit", "20", "--all"])).options).toEqual({ limit: 20, all: true });
    expect((await parse(list, [])).options).toEqual({ limit: undefined, all: false });
  });

  it.each([
    [["--limit", "0"], "--limit: must be from 1 to 100"],
    [["--limit", "101"], "--limit: must be from 1 to 100"],
    [["--limit", "ten"], '--limit: "ten" must be a whole number from 1 to 100'],
    [["--limit", "-5"], '--limit: "-5" must be a whole number from 1 to 100'],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(list, argv)).message).toBe(message);
  });
});

describe("against the emulator (in-process)", () => {
  const KEY = "key_more_commands_0123456789";

  const { cli, ok } = useStandIns();

  /** The request lines `--debug` logged, as `METHOD URL`. */
  const debugRequests = (stderr: string) =>
    [...stderr.matchAll(/^debug: → (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);

  describe("failover list against a fresh emulator", () => {
    let fresh: Awaited<ReturnType<typeof startInProcessEmulator>>;
    beforeAll(async () => {
      fresh = await startInProcessEmulator();
    });
    afterAll(async () => {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the set-up hook failed
      await fresh?.stop();
    });
    const runL = (args: string[]) => runCli(cli, args, { env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: fresh.url } });
    let created: Failover[] = [];

    it("an empty list: JSON is [] alone (exit 0, stderr quiet); a table prints nothing and says so on stderr", async () => {
      for (const args of [
        ["failover", "list", "-o", "json"],
        ["failover", "list", "--all", "--json"],
        ["failover", "list", "--limit", "3", "--all", "-o", "json"],
      ]) {
        const r = await runL(args);
        expect(r.exitCode, args.join(" ")).toBe(0);
        expect(r.stdout).toBe("[]");
        expect(r.stderr).toBe("");
      }
      for (const args of [
        ["failover", "list"],
        ["failover", "list", "--all"],
      ]) {
        const r = await runL(args);
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/no Failover backends/);
        expect(r.stderr).not.toMatch(/^error/);
      }
    });

    it("lists the seven created newest first", async () => {
      created = [];
      for (let i = 1; i <= 7; i++) {
        const r = ok(
          await runL(["failover", "create", "--backends", `bkdhr_n${i}`, "--description", `item ${i}`, "-o", "json"]),
        );
        created.push(JSON.parse(r.stdout) as Failover);
      }
      const newestFirst = created.map((f) => f.id).reverse();
      const all = JSON.parse(ok(await runL(["failover", "list", "-o", "json"])).stdout) as Failover[];
      expect(all.map((f) => f.id)).toEqual(newestFirst);
      expect(all).toEqual([...created].reverse());
      const times = all.map((f) => Date.parse(f.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it("--limit 3 reads one page: the three newest, one request with ?limit=3", async () => {
      const r = ok(await runL(["failover", "list", "--limit", "3", "-o", "json", "--debug"]));
      expect((JSON.parse(r.stdout) as Failover[]).map((f) => f.id)).toEqual(
        created
          .map((f) => f.id)
          .reverse()
          .slice(0, 3),
      );
      expect(debugRequests(r.stderr)).toEqual([`GET ${fresh.url}/backends/failover?limit=3`]);
    });

    it("--limit 3 --all walks three pages by next_page_uri and prints all seven as one array, in order", async () => {
      const r = ok(await runL(["failover", "list", "--limit", "3", "--all", "-o", "json", "--debug"]));
      const ids = (JSON.parse(r.stdout) as Failover[]).map((f) => f.id);
      expect(ids).toEqual(created.map((f) => f.id).reverse());
      const requests = debugRequests(r.stderr);
      expect(requests).toHaveLength(3);
      expect(requests[0]).toBe(`GET ${fresh.url}/backends/failover?limit=3`);
      // The later pages are the emulator's own next_page_uri (before the last id seen).
      expect(requests[1]).toMatch(new RegExp(`^GET ${fresh.url}/backends/failover\\?.*before_id=${ids[2]}`));
      expect(requests[2]).toMatch(new RegExp(`^GET ${fresh.url}/backends/failover\\?.*before_id=${ids[5]}`));
      expect(r.stdout.trimStart().startsWith("[")).toBe(true);
    });

    it("--all in a table: one header, seven rows in order", async () => {
      const r = ok(await runL(["failover", "list", "--limit", "3", "--all"]));
      const lines = r.stdout.split("\n");
      expect(lines[0]).toMatch(/^ID\s+DESCRIPTION\s+BACKENDS\s+CREATED$/);
      expect(lines.filter((l) => /^ID\s/.test(l))).toHaveLength(1);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(created.map((f) => f.id).reverse());
      expect(lines[1]).toMatch(/^bkdfo_\S+\s+item 7\s+bkdhr_n7\s+\S+$/);
    });

    it("--all works with the base URL spelled localhost (the emulator's links follow the Host asked for)", async () => {
      const asLocalhost = fresh.url.replace("127.0.0.1", "localhost");
      const r = ok(
        await runCli(cli, ["failover", "list", "--limit", "3", "--all", "-o", "json"], {
          env: { EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: asLocalhost },
        }),
      );
      expect((JSON.parse(r.stdout) as Failover[]).map((f) => f.id)).toEqual(created.map((f) => f.id).reverse());
    });

    it("a list cut at --limit while more pages exist says `more: use --all` on stderr (not with --all, not on the last page)", async () => {
      for (const args of [
        ["failover", "list", "--limit", "3"],
        ["failover", "list", "--limit", "3", "-o", "json"],
      ]) {
        const r = ok(await runL(args));
        expect(r.stderr, args.join(" ")).toBe("more: use --all");
        expect(r.stdout).not.toContain("more");
      }
      for (const args of [
        ["failover", "list", "--limit", "3", "--all"],
        ["failover", "list", "--limit", "7"],
        ["failover", "list", "--limit", "8", "-o", "json"],
        ["failover", "list"],
      ]) {
        expect(ok(await runL(args)).stderr, args.join(" ")).toBe("");
      }
    });

    it("--limit 100 --all needs one request for seven", async () => {
      const r = ok(await runL(["failover", "list", "--limit", "100", "--all", "-o", "json", "--debug"]));
      expect(JSON.parse(r.stdout)).toHaveLength(7);
      expect(debugRequests(r.stderr)).toHaveLength(1);
    });
  });
});

describe("against a fault server (in-process)", () => {
  let cli: AppSandbox;
  beforeAll(() => {
    cli = appSandbox();
  });
  afterAll(() => cli.cleanup());

  describe("failover list --all", () => {
    it("a protocol-relative next_page_uri (//other-host/…) is asked of the base URL by its query alone", async () => {
      await withServer(async (server) => {
        server.script(
          json(200, { backends: [ANSWER_FB], next_page_uri: "//127.0.0.2:9/backends/failover?before_id=bkdfo_abc" }),
          json(200, { backends: [], next_page_uri: null }),
        );
        const r = await cli.run(["failover", "list", "--all", "-o", "json"], { env: envFor(server) });
        expect(out(r.stderr)).toBe("");
        expect(r.exitCode).toBe(0);
        expect(server.requests.map((q) => q.path)).toEqual([
          "/backends/failover",
          "/backends/failover?before_id=bkdfo_abc",
        ]);
      });
    });

    it("an empty page ends the list even if it names a next page", async () => {
      await withServer(async (server) => {
        server.script(
          json(200, { backends: [ANSWER_FB], next_page_uri: `${server.url}/backends/failover?before_id=bkdfo_abc` }),
          json(200, { backends: [], next_page_uri: `${server.url}/backends/failover?before_id=bkdfo_zzz` }),
        );
        const r = await cli.run(["failover", "list", "--all", "-o", "json"], { env: envFor(server) });
        expect(r.exitCode).toBe(0);
        expect(JSON.parse(out(r.stdout))).toEqual([ANSWER_FB]);
        expect(server.requests).toHaveLength(2);
      });
    });

    it("with a base URL path prefix, a root-relative next_page_uri (prefix included) is followed as given", async () => {
      await withServer(async (server) => {
        server.script(
          json(200, { backends: [ANSWER_FB], next_page_uri: "/pfx/backends/failover?before_id=bkdfo_abc&limit=1" }),
          json(200, { backends: [{ ...ANSWER_FB, id: "bkdfo_older" }], next_page_uri: null }),
        );
        const r = await cli.run(["failover", "list", "--all", "--limit", "1", "-o", "json"], {
          env: envFor(server, { EDGECTL_BASE_URL: `${server.url}/pfx` }),
        });
        expect(out(r.stderr)).toBe("");
        expect(r.exitCode).toBe(0);
        expect(server.requests.map((q) => q.path)).toEqual([
          "/pfx/backends/failover?limit=1",
          "/pfx/backends/failover?before_id=bkdfo_abc&limit=1",
        ]);
        expect((JSON.parse(out(r.stdout)) as { id: string }[]).map((b) => b.id)).toEqual(["bkdfo_abc", "bkdfo_older"]);
      });
    });
  });
});

describe("requests (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, fb } = ctx;

  it("list without --all reads one page only", async () => {
    ctx.server.script(
      json(200, {
        backends: [fb("bkdfo_3")],
        uri: "u",
        next_page_uri: `${ctx.server.url}/backends/failover?before_id=bkdfo_3`,
      }),
    );
    const r = await run(["failover", "list", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(ctx.server.requests.map((q) => q.path)).toEqual(["/backends/failover"]);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run, env, fb, expectContractHeaders } = ctx;

  it("list sends GET with ?limit= and --all follows next_page_uri to the end", async () => {
    ctx.server.script(
      json(200, {
        backends: [fb("bkdfo_3"), fb("bkdfo_2")],
        uri: "u",
        next_page_uri: `${ctx.server.url}/backends/failover?limit=2&before_id=bkdfo_2`,
      }),
      json(200, { backends: [fb("bkdfo_1")], uri: "u", next_page_uri: null }),
    );
    const r = await run(["failover", "list", "--limit", "2", "--all", "-o", "json"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id)).toEqual(["bkdfo_3", "bkdfo_2", "bkdfo_1"]);
    expect(ctx.server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      "GET /backends/failover?limit=2",
      "GET /backends/failover?limit=2&before_id=bkdfo_2",
    ]);
    for (const q of ctx.server.requests) expectContractHeaders(q, false);
  });
});

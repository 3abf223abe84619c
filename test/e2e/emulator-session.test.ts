// Every command against the real emulator (`edgectl emulator --port 0`), in JSON and table
// output, as an operator's session would run them.

import { describe, expect, it } from "vitest";

import { parseJsonError, type Failover } from "./support.js";
import { useEmulatorSessionSuite } from "./emulator-session.support.js";

const ctx = useEmulatorSessionSuite();
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
    const first = await runJson<Failover[]>(["failover", "list", "--limit", "2"]);
    expect(first.map((x) => x.id)).toEqual([c.id, b.id]);
    const all = await runJson<Failover[]>(["failover", "list", "--limit", "1", "--all"]);
    const ids = all.map((x) => x.id);
    expect(ids.slice(0, 3)).toEqual([c.id, b.id, a.id]);
    expect(new Set(ids).size).toBe(ids.length);
    const full = await runJson<Failover[]>(["failover", "list", "--all"]);
    expect(full.map((x) => x.id)).toEqual(ids);
  });
});

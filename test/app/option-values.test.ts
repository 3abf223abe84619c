// An option that takes a value never takes another option as it: a typo (`--secret $EMPTY
// --dry-run`) must not turn a dry run into a write. Exit 2, nothing sent; `--opt=--x` says it
// on purpose; a negative number is a value, which the option's own check then judges. Run
// in-process (test/helpers/app.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json } from "../helpers/fault-server.js";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { FB, envFor, out, withServer } from "../reliability/support.js";

let cli: AppSandbox;
beforeAll(() => {
  cli = appSandbox();
});
afterAll(() => cli.cleanup());

const MODULE = { enabled: true, provider: "github", secret: "x" };

describe("an option's value is never another option", () => {
  it.each([
    [
      "webhook-verification replace --secret --dry-run",
      ["webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "github", "--secret", "--dry-run"],
      "--secret",
    ],
    [
      "failover create --metadata --dry-run",
      ["failover", "create", "--backends", "bkdhr_a", "--metadata", "--dry-run"],
      "--metadata",
    ],
    [
      "a global option: --api-key --dry-run before failover delete",
      ["--api-key", "--dry-run", "failover", "delete", "bkdfo_abc", "--yes"],
      "--api-key",
    ],
    ["a short option: -o --json", ["failover", "get", "bkdfo_abc", "-o", "--json"], "-o"],
  ])("%s: exit 2, nothing sent", async (_name, args, flag) => {
    await withServer(async (server) => {
      server.fallback = (req) =>
        req.method === "PUT" ? json(200, MODULE) : req.method === "DELETE" ? { status: 204 } : json(201, FB);
      const r = await cli.run(args, { env: envFor(server) });
      expect(r.exitCode).toBe(2);
      expect(out(r.stdout)).toBe("");
      expect(out(r.stderr)).toMatch(new RegExp(`^error: ${flag}: takes a value, but the next word is the option`));
      expect(server.requests).toHaveLength(0);
    });
  });

  it("--opt=--x gives a value that starts with a dash on purpose", async () => {
    await withServer(async (server) => {
      const r = await cli.run(
        ["failover", "create", "--backends", "bkdhr_a", "--metadata=--dry-run", "--dry-run", "-o", "json"],
        { env: envFor(server) },
      );
      expect(r.exitCode).toBe(0);
      expect(out(r.stdout)).toContain('"metadata": "--dry-run"');
      expect(server.requests).toHaveLength(0);
    });
  });

  it("a negative number is a value: --limit -1 is refused by --limit's own rule", async () => {
    await withServer(async (server) => {
      const r = await cli.run(["failover", "list", "--limit", "-1"], { env: envFor(server) });
      expect(r.exitCode).toBe(2);
      expect(out(r.stderr)).toMatch(/^error: --limit: "-1" must be a whole number/);
      expect(server.requests).toHaveLength(0);
    });
  });
});

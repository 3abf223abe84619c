// `failover get <id>` with valid input and a valid answer evaluates no zod (scripts/build.mjs
// loads zod on first use; src/commands/input.ts and src/api/schema.ts check the happy path
// without it); a refused value or answer loads it to word the error exactly as before.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FB, useFaultServer } from "./support.js";
import { json } from "../helpers/fault-server.js";

const PROBE = fileURLToPath(new URL("../helpers/zod-probe.cjs", import.meta.url));
const suite = useFaultServer("key_zod");
const run = (args: string[], input?: string) =>
  suite.run(args, { env: { NODE_OPTIONS: `--require ${PROBE}` }, ...(input === undefined ? {} : { input }) });
const zodLine = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("zod evaluated: "));

describe("zod on demand", () => {
  it("is not evaluated by failover get with a valid id and answer, in a table or JSON", async () => {
    suite.server.fallback = () => json(200, FB);
    for (const args of [
      ["failover", "get", FB.id],
      ["failover", "get", FB.id, "--concurrency", "4", "-o", "json"],
    ]) {
      const r = await run(args);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(FB.id);
      expect(zodLine(r.stderr)).toBe("zod evaluated: no");
    }
  });

  it("is not evaluated by failover get reading valid ids from stdin", async () => {
    suite.server.fallback = () => json(200, FB);
    const r = await run(["failover", "get", "-"], `${FB.id}\n${FB.id}\n`);
    expect(r.exitCode).toBe(0);
    expect(zodLine(r.stderr)).toBe("zod evaluated: no");
  });

  it("is evaluated to word a refused flag, as before", async () => {
    const r = await run(["failover", "get", FB.id, "--concurrency", "0"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: --concurrency: "0" must be a whole number from 1 to 64');
    expect(zodLine(r.stderr)).toBe("zod evaluated: yes");
  });

  it("is evaluated to word a refused id, as before", async () => {
    const r = await run(["failover", "get", "bkdfo_../x"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: <id>: "bkdfo_../x" must be bkdfo_ followed by 1–64 letters or digits');
    expect(zodLine(r.stderr)).toBe("zod evaluated: yes");
  });

  it("is evaluated to name the field of an answer that is not a Failover backend", async () => {
    const { backends: _, ...rest } = FB;
    suite.server.fallback = () => json(200, rest);
    const r = await run(["failover", "get", FB.id]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("backends: ");
    expect(zodLine(r.stderr)).toBe("zod evaluated: yes");
  });
});

// `failover get <id>` and `endpoint get <id>` with valid input and a valid answer evaluate no zod (scripts/build.mjs
// loads zod on first use; src/commands/input.ts and src/api/schema.ts check the happy path
// without it); a refused value or answer loads it to word the error exactly as before.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FB, useFaultServer, useScratch } from "./support.js";
import { json } from "../helpers/fault-server.js";

const PROBE = fileURLToPath(new URL("../helpers/zod-probe.cjs", import.meta.url));
const suite = useFaultServer("key_zod");
const { file } = useScratch("edgectl-builtins-");
const run = (args: string[], input?: string) =>
  suite.run(args, { env: { NODE_OPTIONS: `--require ${PROBE}` }, ...(input === undefined ? {} : { input }) });
const zodLine = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("zod evaluated: "));
const HTTP_PROBE = fileURLToPath(new URL("../helpers/http-probe.cjs", import.meta.url));
const httpLine = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("node:http loaded: "));

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

  // A YAML policy with a secret: masked in the table, as JSON in -o json (issue 18 item 7).
  const EP = {
    id: "ep_zod1",
    url: "https://shop.example.com",
    type: "cloud",
    bindings: ["public"],
    traffic_policy:
      "on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: github, secret: s3cret}\n      - type: deny\n",
  };

  it("is not evaluated by endpoint get with a valid id and answer, in a table or JSON", async () => {
    suite.server.fallback = () => json(200, EP);
    for (const args of [
      ["endpoint", "get", EP.id],
      ["endpoint", "get", EP.id, "--show-secret", "-o", "json"],
    ]) {
      const r = await run(args);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(EP.id);
      expect(zodLine(r.stderr)).toBe("zod evaluated: no");
    }
  });

  it("is evaluated to name the field of an answer that is not an endpoint", async () => {
    suite.server.fallback = () => json(200, { ...EP, url: 7 });
    const r = await run(["endpoint", "get", EP.id]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("url: ");
    expect(zodLine(r.stderr)).toBe("zod evaluated: yes");
  });

  it("is not evaluated by a delete with --yes and valid ids (its switches are checked plainly)", async () => {
    suite.server.fallback = () => ({ status: 204 });
    for (const args of [
      ["failover", "delete", FB.id, "--yes"],
      ["endpoint", "delete", EP.id, "--yes", "--concurrency", "2"],
    ]) {
      const r = await run(args);
      expect(r.exitCode).toBe(0);
      expect(zodLine(r.stderr)).toBe("zod evaluated: no");
    }
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

  // policy check (the rest of its tests run in-process, in test/commands/policy/check.test.ts);
  // --agent: policies that need not end in a terminating action (an internal one must, issue 27).
  it("policy check makes the config schemas (and loads zod) only when it checks an action's config", async () => {
    const probe = {
      env: { NODE_OPTIONS: `--require ${PROBE}` },
    };
    // Every action's config is checked now, an absent one too (its required fields: issue 27), so
    // the policy that needs no schema is one with no action.
    const passThrough = file("empty.json", JSON.stringify({ on_http_request: [] }));
    const withConfig = file(
      "headers.json",
      JSON.stringify({ on_http_request: [{ actions: [{ type: "add-headers", config: { headers: { a: "b" } } }] }] }),
    );
    const lazy = await suite.cli.run(["policy", "check", passThrough, "--agent"], probe);
    expect(lazy.stdout).toBe("ok");
    expect(lazy.stderr).toBe("zod evaluated: no");
    const made = await suite.cli.run(["policy", "check", withConfig, "--agent"], probe);
    expect(made.stdout).toBe("ok");
    expect(made.stderr).toBe("zod evaluated: yes");
  });
});

// node:http and node:net are taken at the first request (src/api/transport.ts, proxy.ts,
// client.ts): a command that sends nothing never loads them.
describe("node:http on demand", () => {
  it("is not loaded by policy check of a file, which sends nothing", async () => {
    // A file, not stdin (a pipe on stdin, like one on stdout, is a node:net socket).
    const policy = file("policy.yml", "on_http_request:\n  - actions:\n      - type: deny\n");
    const r = await suite.run(["policy", "check", policy], { env: { NODE_OPTIONS: `--require ${HTTP_PROBE}` } });
    expect(r.stdout).toBe("ok");
    expect(httpLine(r.stderr)).toBe("node:http loaded: no");
  });

  it("is loaded by a command that sends a request", async () => {
    suite.server.fallback = () => json(200, FB);
    const r = await suite.run(["failover", "get", FB.id], { env: { NODE_OPTIONS: `--require ${HTTP_PROBE}` } });
    expect(r.exitCode).toBe(0);
    expect(httpLine(r.stderr)).toBe("node:http loaded: yes");
  });
});

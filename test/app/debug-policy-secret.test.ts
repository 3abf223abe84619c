// --debug and a secret the client was never told: an endpoint's Traffic Policy read from the
// API (a GET answer, the read step of `endpoint webhook-verification replace`) holds the
// secrets of its verify-webhook and oauth actions. The whole CLI and the emulator, in-process:
// however the policy writes a secret (over two lines, after a comment, under an escaped key,
// in JSON), no part of it reaches stdout or stderr, while the log does show the answers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox, type AppSandbox } from "../helpers/app.js";
import { call, startInProcessEmulator } from "../helpers/emulator.js";

let emu: Awaited<ReturnType<typeof startInProcessEmulator>>;
let cli: AppSandbox;
let scratch: string;

const run = async (args: string[], input?: string) => {
  const r = await cli.run(args, {
    env: { EDGECTL_API_KEY: "key_debug_policy_1", EDGECTL_BASE_URL: emu.url },
    ...(input === undefined ? {} : { input }),
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
};

/** Secrets long enough, and unlike anything else printed, that any 6 characters of one would show. */
const OLD = {
  plain: "Zq8VnL3pRt7YkD2mXc5B",
  cont: "Hw4JtP9sQe2LvM7",
  comment: "Nb6GxR1yTu8Kc3",
  escaped: "Fd5SaW2qZn9Jh4",
};
const CLIENT = "Cm7PoI4uYt1Re9";
const NEW = "Vx3BnM8kLj5Hg2Df";
const parts = (secret: string) => Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));
function expectNoPartOf(secrets: string[], out: string) {
  for (const s of secrets) for (const p of parts(s)) expect(out, `a part of ${s} (${p})`).not.toContain(p);
}

const hook = (config: string) => `# hooks first
on_http_request:
  - name: hooks
    expressions:
      - req.url.path.startsWith("/hooks")
    actions:
      - type: verify-webhook
        config:
          provider: github
${config}
      - type: oauth
        config: {provider: google, client_secret: "${CLIENT}"}
      - type: custom-response
        config: {status_code: 200}
  - actions:
      - type: deny
        config: {status_code: 404}
`;
const POLICIES: Record<string, string> = {
  plain: hook(`          secret: ${OLD.plain}`),
  // A plain scalar over two lines: "Hw4JtP9 sQe2LvM7".
  cont: hook(`          secret: ${OLD.cont.slice(0, 7)}\n            ${OLD.cont.slice(7)}`),
  comment: hook(`          secret: # rotated monthly\n            ${OLD.comment}`),
  escaped: hook(`          "secr\\x65t": ${OLD.escaped}`),
  json: JSON.stringify({
    on_http_request: [
      {
        actions: [
          { type: "verify-webhook", config: { provider: "slack", secret: OLD.plain.split("").reverse().join("") } },
        ],
      },
      { actions: [{ type: "custom-response", config: { status_code: 200 } }] },
    ],
  }),
};
const ALL_OLD = [...Object.values(OLD), CLIENT, OLD.plain.split("").reverse().join("")];
const ids: Record<string, string> = {};

beforeAll(async () => {
  emu = await startInProcessEmulator();
  cli = appSandbox();
  scratch = mkdtempSync(join(tmpdir(), "edgectl-debug-policy-"));
  for (const [name, policy] of Object.entries(POLICIES)) {
    const r = await call(emu.url, "POST", "/endpoints", {
      body: { type: "cloud", url: `https://${name}.example.com`, traffic_policy: policy },
    });
    if (r.status !== 201) throw new Error(`POST /endpoints (${name}): ${r.status} ${r.text}`);
    ids[name] = r.json.id as string;
  }
});
afterAll(async () => {
  await emu.stop();
  cli.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe("--debug never shows a policy secret read from the API", () => {
  it.each(Object.keys(POLICIES))("endpoint get --debug (%s), table and JSON", async (name) => {
    for (const format of [[], ["-o", "json"]]) {
      const r = await run(["endpoint", "get", ids[name]!, "--debug", ...format]);
      expect(r.exitCode, r.stderr).toBe(0);
      // The answer is logged (so the test sees what --debug prints), its secrets masked.
      expect(r.stderr).toMatch(new RegExp(`debug: {3}body: .*"traffic_policy":`));
      expect(r.stderr).toContain("custom-response");
      expectNoPartOf(ALL_OLD, `${r.stdout}\n${r.stderr}`);
    }
  });

  it("endpoint list --debug", async () => {
    const r = await run(["endpoint", "list", "--debug", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(Object.keys(POLICIES).length);
    expectNoPartOf(ALL_OLD, `${r.stdout}\n${r.stderr}`);
  });

  it.each(Object.keys(POLICIES))(
    "endpoint webhook-verification replace --debug (%s): --dry-run, then for real",
    async (name) => {
      const args = ["endpoint", "webhook-verification", "replace", ids[name]!, "--provider", "stripe", "--debug"];
      const dry = await run([...args, "--secret-stdin", "--dry-run"], `${NEW}\n`);
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(dry.stderr).toMatch(/debug: ← 200/);
      expectNoPartOf([...ALL_OLD, NEW], `${dry.stdout}\n${dry.stderr}`);

      const real = await run([...args, "--secret-stdin"], `${NEW}\n`);
      expect(real.exitCode, real.stderr).toBe(0);
      expect(real.stderr).toMatch(/debug: → PATCH/);
      expectNoPartOf([...ALL_OLD, NEW], `${real.stdout}\n${real.stderr}`);
      // It did replace the secret: the API holds the new one.
      const held = (await call(emu.url, "GET", `/endpoints/${ids[name]}`)).json.traffic_policy as string;
      expect(held).toContain(NEW);
    },
  );
});

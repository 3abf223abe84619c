// Issue 26 item 8: `-o yaml` for every command that prints a resource: the same data as
// `-o json` (parsed by the yaml package it equals what JSON.parse reads), secrets masked alike;
// EDGECTL_OUTPUT=yaml and the profile's `output: yaml` too. Errors stay text (as kubectl's);
// `api` prints the API's JSON whatever -o says (as `gh api`).
// The CLI and the emulator run in-process (test/helpers/app.ts).
import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSandbox } from "../helpers/app.js";
import { renderJson } from "../../src/output/json.js";
import { renderData } from "../../src/output/print.js";
import { GITHUB_SECRET, MASK, buildEdge, useEmulator, type Built } from "../e2e/leaving-edges.support.js";

/** Strings YAML would misread if written plain, and text a terminal must not get raw. */
const TRICKY = [
  "yes",
  "No",
  "on",
  "0x1F",
  "0o17",
  "1_000",
  "1e3",
  ".5",
  "~",
  "null",
  "- a",
  "? x",
  ": y",
  "a: b",
  "a #b",
  "#c",
  "  leading spaces",
  "trailing ",
  "multi\nline\n",
  "tab\tin",
  "unicode 日本語 ✓ 😀 é",
  "bidi \u202e override",
  "\u2028line sep",
  "2001-12-14",
  "12:30",
  "*alias",
  "&anchor",
  "!tag",
  "|",
  ">",
  "'quoted'",
  '"dq"',
  "%dir",
  "@at",
  "`tick",
  "---",
  "...",
  "",
];

const jsonString = fc.oneof(fc.string(), fc.constantFrom(...TRICKY), fc.string({ unit: binary }));
const jsonData = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      jsonString,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(jsonString, tie("value"), { maxKeys: 4 }),
    ),
  }))
  .value.map((v) => JSON.parse(JSON.stringify(v)) as unknown); // what an API answer holds

describe("-o yaml is -o json's data", () => {
  it("for any JSON value: the yaml package reads -o yaml as JSON.parse reads -o json", () => {
    fc.assert(
      fc.property(jsonData, (value) => {
        expect(parse(renderData("yaml", value))).toEqual(JSON.parse(renderData("json", value)));
        expect(renderData("json", value)).toBe(renderJson(value));
      }),
      { numRuns: 1000 },
    );
  });

  it.each(TRICKY)("for the string %j, alone and as a key", (s) => {
    for (const value of [s, { [s]: s }, [s, { k: [s] }]])
      expect(parse(renderData("yaml", value))).toEqual(JSON.parse(renderData("json", value)));
  });

  it("no terminal-driving character is written raw (bidi controls escaped, as -o json escapes them)", () => {
    const out = renderData("yaml", { d: "a\u202eb\u2066c\u061cd\u200fe" });
    expect(out).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(parse(out)).toEqual({ d: "a\u202eb\u2066c\u061cd\u200fe" });
  });
});

describe("every command that prints a resource, against the emulator", () => {
  const emu = useEmulator(undefined, appSandbox);
  let b: Built;
  let failoverId: string;
  let endpointId: string;
  const POLICY_SECRET = "basic-pw-s3cret";
  beforeAll(async () => {
    b = await buildEdge(emu.url);
  });

  /** Runs with -o json and with -o yaml: both succeed, and the documents are the same data. */
  async function same(args: string[]): Promise<{ yaml: string; data: unknown }> {
    const asJson = await emu.run([...args, "-o", "json"]);
    expect(asJson.stderr).toBe("");
    expect(asJson.exitCode).toBe(0);
    const asYaml = await emu.run([...args, "-o", "yaml"]);
    expect(asYaml.stderr).toBe("");
    expect(asYaml.exitCode).toBe(0);
    const data = JSON.parse(asJson.stdout) as unknown;
    expect(parse(asYaml.stdout)).toEqual(data);
    return { yaml: asYaml.stdout, data };
  }

  it("failover create prints the created backend as YAML (the data `failover get -o json` shows)", async () => {
    const r = await emu.run([
      "failover",
      "create",
      "--backends",
      `${b.backends.eu},${b.backends.us}`,
      "--description",
      "yes",
      "--metadata=- a: 0x1F ~ \n  日本",
      "-o",
      "yaml",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const created = parse(r.stdout) as { id: string; description: string; metadata: string };
    failoverId = created.id;
    expect(created.description).toBe("yes");
    expect(created.metadata).toBe("- a: 0x1F ~ \n  日本");
    const got = await emu.run(["failover", "get", failoverId, "-o", "json"]);
    expect(created).toEqual(JSON.parse(got.stdout));
  });

  it("failover get (one and several) and list", async () => {
    await same(["failover", "get", failoverId]);
    const two = await same(["failover", "get", failoverId, b.backends.failover]);
    expect(two.data).toHaveLength(2);
    await same(["failover", "list"]);
  });

  it("endpoint create, get and list: the policy's secrets masked alike", async () => {
    const policy = JSON.stringify({
      on_http_request: [
        { actions: [{ type: "basic-auth", config: { credentials: [`admin:${POLICY_SECRET}`] } }] },
        { actions: [{ type: "custom-response", config: { status_code: 200, body: "yes\n- a" } }] },
      ],
    });
    const r = await emu.run(
      ["endpoint", "create", "--url", "https://yaml.example.com", "--traffic-policy-file", "-", "-o", "yaml"],
      policy,
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain(POLICY_SECRET);
    endpointId = (parse(r.stdout) as { id: string }).id;
    for (const args of [
      ["endpoint", "get", endpointId],
      ["endpoint", "list"],
    ]) {
      const { yaml } = await same(args);
      expect(yaml).not.toContain(POLICY_SECRET);
      expect(yaml).toContain(MASK);
    }
    const shown = await same(["endpoint", "get", endpointId, "--show-secret"]);
    expect(shown.yaml).toContain(POLICY_SECRET);
  });

  it("webhook-verification get: the secret masked alike", async () => {
    const { yaml, data } = await same(["webhook-verification", "get", b.edgeId, b.routes.hook]);
    expect(data).toMatchObject({ provider: "github", secret: MASK });
    expect(yaml).not.toContain("whsec-");
    const shown = await same(["webhook-verification", "get", b.edgeId, b.routes.hook, "--show-secret"]);
    expect(shown.data).toMatchObject({ secret: GITHUB_SECRET });
  });

  it("export, its secrets masked alike", async () => {
    const { yaml } = await same(["export"]);
    expect(yaml).not.toContain("whsec-");
    // Without -o: JSON, as before (a backup is data, never a table).
    const plain = await emu.run(["export"]);
    expect(JSON.parse(plain.stdout)).toEqual(parse(yaml));
  });

  it("migrate edge: the plan (not-migrated list inside it, nothing on stderr)", async () => {
    const { data, yaml } = await same(["migrate", "edge", b.edgeId]);
    expect(data).toMatchObject({ edge_id: b.edgeId });
    expect((data as { not_migrated: unknown[] }).not_migrated.length).toBeGreaterThan(0);
    expect(yaml).not.toContain("whsec-");
  });

  it("api prints the API's JSON whatever -o says (as gh api)", async () => {
    const r = await emu.run(["api", "GET", `/backends/failover/${failoverId}`, "-o", "yaml"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trimStart().startsWith("{")).toBe(true);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: failoverId });
  });

  it("an error with -o yaml is the text line, as kubectl prints it", async () => {
    const r = await emu.run(["failover", "get", "bkdfo_missing", "-o", "yaml"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: /);
  });

  describe("EDGECTL_OUTPUT=yaml and the profile's output: yaml", () => {
    const cli = appSandbox();
    afterAll(() => cli.cleanup());
    const env = () => ({ EDGECTL_BASE_URL: emu.url, EDGECTL_API_KEY: "key_leaving_edges_1" });

    it("EDGECTL_OUTPUT=yaml prints YAML; -o json still wins over it", async () => {
      const json = await cli.run(["failover", "get", failoverId, "-o", "json"], {
        env: { ...env(), EDGECTL_OUTPUT: "yaml" },
      });
      const yaml = await cli.run(["failover", "get", failoverId], { env: { ...env(), EDGECTL_OUTPUT: "yaml" } });
      expect(yaml.exitCode).toBe(0);
      expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    });

    it("config set output yaml, then every command prints YAML", async () => {
      const set = await cli.run(["config", "set", "output", "yaml"], { env: env() });
      expect(set.stderr).toBe("");
      expect(set.exitCode).toBe(0);
      const yaml = await cli.run(["failover", "list"], { env: env() });
      expect(yaml.exitCode).toBe(0);
      const json = await cli.run(["failover", "list", "--json"], { env: env() });
      expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
      expect(yaml.stdout).not.toMatch(/^ID\s/);
    });
  });
});

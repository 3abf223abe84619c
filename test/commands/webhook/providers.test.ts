// `edgectl webhook providers`: (a) the command line → options or refusal; (b) its run with fake
// deps: one row per provider of ngrok's list (src/api-data/providers.ts), each scheme of
// src/webhooks/index.ts marked as signed with its headers, tolerance and sources; and the whole
// CLI in-process. Which schemes exist is the table's business (SCHEMES), not this test's.
import { afterAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../../../src/api-data/providers.js";
import { providers, run, type ProviderRow } from "../../../src/commands/webhook/providers.js";
import { SCHEMES } from "../../../src/webhooks/index.js";
import { appSandbox } from "../../helpers/app.js";
import { fakeDeps } from "../fake-deps.js";
import { parse, refusal } from "../parse.js";

describe("webhook providers argv → options", () => {
  it("takes no arguments or flags of its own", async () => {
    expect((await parse(providers, [])).options).toEqual({});
  });
  it.each([[["github"]], [["--provider", "github"]]])("refuses %j", async (argv) => {
    expect((await refusal(providers, argv)).message).toMatch(/too many arguments|unknown option '--provider'/);
  });
});

describe("webhook providers: the list", () => {
  it("-o json: every provider of ngrok's list, in its order; each scheme's facts", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    await run(deps);
    const rows = JSON.parse(deps.out.text) as ProviderRow[];
    expect(rows.map((r) => r.provider)).toEqual([...PROVIDERS]);
    for (const scheme of SCHEMES) {
      expect(rows.find((r) => r.provider === scheme.provider)).toEqual({
        provider: scheme.provider,
        name: scheme.name,
        signs: true,
        key: scheme.key,
        headers: [...scheme.headers],
        tolerance_seconds: scheme.toleranceSeconds ?? null,
        sources: [...scheme.sources],
      });
    }
    const unsupported = rows.filter((r) => !SCHEMES.some((s) => s.provider === r.provider));
    expect(unsupported.length).toBe(PROVIDERS.length - SCHEMES.length);
    for (const r of unsupported) expect(r).toMatchObject({ signs: false, key: null, headers: [], sources: [] });
  });

  it("a table: a row per provider, yes/no, the headers, the tolerance and the first source", async () => {
    const deps = fakeDeps();
    await run(deps);
    const lines = deps.out.text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^PROVIDER\s+SIGNS\s+KEY\s+HEADERS\s+TOLERANCE\s+SOURCE$/);
    expect(lines).toHaveLength(PROVIDERS.length + 1);
    expect(lines.find((l) => l.startsWith("mux "))).toMatch(
      /^mux\s+yes\s+secret\s+Mux-Signature\s+300 s\s+https:\/\/docs\.mux\.com\/core\/verify-webhook-signatures$/,
    );
    expect(lines.find((l) => l.startsWith("aftership "))).toMatch(/^aftership\s+no$/);
  });
});

describe("edgectl webhook providers (in-process)", () => {
  const sandbox = appSandbox();
  afterAll(() => sandbox.cleanup());
  it("needs no key and sends nothing; -o yaml works", async () => {
    const r = await sandbox.run(["webhook", "providers", "-o", "yaml"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^- provider: aftership\n {2}name: null\n {2}signs: false/);
  });
});

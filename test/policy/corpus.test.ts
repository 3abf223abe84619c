// Issue 27 item 5: ngrok's own policies (test/fixtures/policy/corpus.json, sources and counts in
// INDEX.md) and one invalid policy per documented rule (invalid.json), each with the verdict
// ngrok's docs give it for the endpoint kind it is written for, not what edgectl says today:
// `ok` = no problem (published as working), `warn` = no problem and at least one warning,
// `refused` = a problem at `path` (the doc line that decides it is in `why`). `policy check`
// (the validator) and the emulator (POST /endpoints, one in-process server for all) must agree.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { validatePolicy, type EndpointKind, type Protocol } from "../../src/policy/index.js";
import { parsePolicyText } from "../../src/policy/parse.js";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call } from "../helpers/emulator.js";

type Kind = EndpointKind;
interface Finding {
  path: string;
  message: string;
}
interface Verdict {
  problems: Finding[];
  warnings: Finding[];
}

// The one place this test names the validator's API: the text parsed once (src/policy/parse.ts),
// then validatePolicy for the entry's endpoint kind, its problems and warnings.
async function check(text: string, kind: Kind, protocol: Protocol): Promise<Verdict> {
  const parsed = await parsePolicyText(text);
  if (!parsed.ok) return { problems: parsed.problems, warnings: [] };
  return validatePolicy(parsed.document, { protocol, internal: kind === "internal", kind });
}

interface Entry {
  file: string;
  source: string;
  repo: string;
  commit: string;
  at: string;
  kind: Kind;
  protocol: Protocol;
  expect: "ok" | "warn" | "refused";
  path?: string;
  why: string;
}
const DIR = new URL("../fixtures/policy/", import.meta.url);
const corpus = JSON.parse(readFileSync(new URL("corpus.json", DIR), "utf8")) as Entry[];
const invalid = JSON.parse(readFileSync(new URL("invalid.json", DIR), "utf8")) as Entry[];
const texts = new Map<string, string>();
const text = (e: Entry) =>
  texts.get(e.file) ?? texts.set(e.file, readFileSync(new URL(e.file, DIR), "utf8")).get(e.file)!;
const show = (fs: Finding[]) => fs.map((f) => `${f.path}: ${f.message}`);

/** Why `e`'s verdict does not hold (undefined: it holds). */
function mismatch(e: Entry, v: Verdict): string | undefined {
  if (e.expect === "refused") {
    const at = e.path ?? "";
    // A problem must name the place the doc rule is about (or a place inside it).
    if (
      v.problems.some((p) => p.path === at || (at !== "" && p.path.startsWith(`${at}.`)) || p.path.startsWith(`${at}[`))
    )
      return undefined;
    return v.problems.length === 0 ? "accepted" : `refused elsewhere: ${show(v.problems).join("; ")}`;
  }
  if (v.problems.length > 0) return `refused: ${show(v.problems).join("; ")}`;
  if (e.expect === "warn" && v.warnings.length === 0) return "no warning";
  return undefined;
}

test("the manifest names every corpus file once, with its provenance", () => {
  const files = corpus.map((e) => e.file);
  expect(new Set(files).size).toBe(files.length);
  for (const e of [...corpus, ...invalid]) {
    expect(e.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(e.at).toMatch(/:\d+$/);
    expect(["public", "internal", "agent"]).toContain(e.kind);
  }
  // INDEX.md's counts (kept by hand): change both together.
  expect(corpus.length).toBe(413);
  expect(invalid.length).toBe(28);
  // INDEX.md's "Counts" table: per source, how many the docs accept (ok), accept with a warning, refuse.
  const counts: Record<string, Record<string, number>> = {};
  for (const e of [...corpus, ...invalid]) {
    const row = (counts[e.source] ??= { ok: 0, warn: 0, refused: 0 });
    row[e.expect]!++;
  }
  expect(counts).toEqual({
    docs: { ok: 248, warn: 25, refused: 60 },
    operator: { ok: 13, warn: 42, refused: 20 },
    terraform: { ok: 1, warn: 1, refused: 1 },
    "ngrok-go": { ok: 1, warn: 1, refused: 0 },
    invalid: { ok: 0, warn: 0, refused: 28 },
  });
});

const groups = new Map<string, Entry[]>();
for (const e of [...corpus, ...invalid]) groups.set(e.source, [...(groups.get(e.source) ?? []), e]);

// The emulator is a Cloud Endpoint API: public and internal fixtures only.
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});
let n = 0;
function urlFor(e: Entry): string {
  const host = `corpus-${++n}`;
  if (e.kind === "internal")
    return `${e.protocol === "http" ? "http" : e.protocol}://${host}.internal${e.protocol === "tcp" ? ":9000" : ""}`;
  if (e.protocol === "tcp") return `tcp://1.tcp.ngrok.io:${20000 + n}`;
  return `${e.protocol}://${host}.example.com`;
}

/** Why the emulator's answer to POST /endpoints with `e`'s policy is not the documented one. */
async function emulatorMismatch(e: Entry): Promise<string | undefined> {
  const r = await call(emu.url, "POST", "/endpoints", {
    body: {
      type: "cloud",
      url: urlFor(e),
      bindings: [e.kind === "internal" ? "internal" : "public"],
      traffic_policy: text(e),
    },
  });
  const msg = String(r.json?.msg ?? "");
  const holds = e.expect === "refused" ? r.status === 400 && msg.includes(e.path ?? "") : r.status === 201;
  return holds ? undefined : `${r.status} ${msg.slice(0, 200)}`;
}

// One test per source: the list of fixtures whose verdict does not hold, with why, must be empty.
// Each fixture goes to the emulator right after policy check has read it, so the emulator's read
// of the same text is the one src/policy/yaml.ts keeps (one YAML parse per text).
describe.each([...groups])("%s", (_source, entries) => {
  const cloud = entries.filter((e) => e.kind !== "agent").length;
  test(`policy check gives each of ${entries.length} fixtures its documented verdict, the emulator each of the ${cloud} Cloud Endpoint ones`, async () => {
    const wrong: string[] = [];
    // Four at a time (the texts src/policy/yaml.ts keeps): policy check reads each, then the
    // emulator is sent the Cloud Endpoint ones together.
    for (let i = 0; i < entries.length; i += 4) {
      const batch = entries.slice(i, i + 4);
      for (const e of batch) {
        const why = mismatch(e, await check(text(e), e.kind, e.protocol));
        if (why) wrong.push(`${e.file} (${e.kind} ${e.protocol}, expect ${e.expect}): ${why}`);
      }
      await Promise.all(
        batch
          .filter((e) => e.kind !== "agent")
          .map(async (e) => {
            const why = await emulatorMismatch(e);
            if (why) wrong.push(`${e.file} (emulator, expect ${e.expect}): ${why}`);
          }),
      );
    }
    expect(wrong.sort().join("\n")).toBe("");
  });
});

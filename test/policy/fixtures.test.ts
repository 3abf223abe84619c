// Every example policy of ngrok's action reference (test/fixtures/policy/, sources in its
// INDEX.md), checked for the endpoint kind INDEX.md's last table names, with exactly the
// problems that table lists (none for `valid`).
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { Protocol } from "../../src/policy/index.js";
import { checkPolicyText } from "../../src/policy/parse.js";

const DIR = new URL("../fixtures/policy/", import.meta.url);
const index = readFileSync(new URL("INDEX.md", DIR), "utf8");
const table = index.slice(index.indexOf("## How the tests check each file"));
const rows = [...table.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| ([^|]+) \|/gm)].map(([, file, target, result]) => ({
  file: file!,
  target: target!,
  expected:
    result!.trim() === "valid"
      ? []
      : [...result!.matchAll(/(ERR_NGROK_\d+) `([^`]*)`/g)].map(([, code, path]) => `${code} ${path}`),
}));

test("the table covers every fixture file, once", () => {
  const files = [
    ...readdirSync(DIR).filter((f) => f.endsWith(".yaml")),
    ...readdirSync(new URL("non-reference/", DIR)).map((f) => `non-reference/${f}`),
  ].sort();
  expect(rows.map((r) => r.file).sort()).toEqual(files);
  expect(files.length).toBe(99);
});

describe.each(rows)("$file as $target", ({ file, target, expected }) => {
  test(expected.length === 0 ? "is valid" : "is refused with the recorded problems", async () => {
    const [protocol, flag] = target.split(" ");
    const text = readFileSync(new URL(file, DIR), "utf8");
    // --agent: a fragment checked without the terminating-action requirement (issue 27: an
    // internal endpoint has it too; an agent endpoint has none).
    const problems = await checkPolicyText(text, {
      protocol: protocol as Protocol,
      internal: flag === "--internal",
      ...(flag === "--agent" ? { kind: "agent" as const } : {}),
    });
    expect(problems.map((p) => `${p.code} ${p.path}`)).toEqual(expected);
  });
});

test("a doc fragment that does not end in a terminating action is refused as a public endpoint", async () => {
  const text = readFileSync(new URL("add-headers-1.yaml", DIR), "utf8");
  const problems = await checkPolicyText(text, { protocol: "https", internal: false });
  expect(problems.map((p) => p.code)).toEqual(["ERR_NGROK_2235"]);
});

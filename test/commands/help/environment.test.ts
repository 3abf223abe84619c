// `edgectl help environment` lists every environment variable edgectl reads, as
// `gh help environment` does (issue 26, item 9). The list is data (src/commands/help/
// environment.ts); here src/ is read for every variable its code reads, so a variable read
// without being listed, or listed without being read, fails.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENVIRONMENT, environmentHelp, wrap } from "../../../src/commands/help/environment.js";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";

const ROOT = new URL("../../../", import.meta.url).pathname;
const SRC = join(ROOT, "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/**
 * The helpers that read a variable by a name they are given (`env[name]`), and how to find the
 * names their callers give: src/api/proxy.ts reads `envEntry(env, "https_proxy")` in either
 * case; src/start.ts reads `set("EDGECTL_CACHE_DIR")`. An `env[…]` anywhere else fails the
 * test below until it is added here.
 */
const BY_NAME: Record<string, (text: string) => string[]> = {
  "src/api/proxy.ts": (text) =>
    [...text.matchAll(/envEntry\(env, "(\w+)"\)/g)].flatMap((m) => [m[1]!.toLowerCase(), m[1]!.toUpperCase()]),
  "src/start.ts": (text) => [...text.matchAll(/\bset\("(\w+)"\)/g)].map((m) => m[1]!),
  // `policy test --cases`: the variable a case's `sign.secret_env` names, the user's own.
  "src/commands/policy/test.ts": () => [],
};

/** Every variable src/ reads, by file. */
function variablesRead(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of sources(SRC)) {
    const path = relative(ROOT, file);
    // Without comments (which name variables without reading them): whole-line ones and blocks.
    const text = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    const names = new Set<string>();
    // env.NAME, env?.NAME, deps.env.NAME, process.env.NAME
    for (const m of text.matchAll(/\benv\??\.([A-Za-z_]\w*)/g)) names.add(m[1]!);
    // env["NAME"]
    for (const m of text.matchAll(/\benv\??\.?\[\s*(["'`])(\w+)\1\s*\]/g)) names.add(m[2]!);
    // env[name]: only in the helpers above.
    if (/\benv\??\.?\[\s*[^"'`\s]/.test(text)) {
      expect(Object.keys(BY_NAME), `${path} reads env[<a name it is given>]: add it to BY_NAME`).toContain(path);
      for (const name of BY_NAME[path]!(text)) names.add(name);
    }
    // const { NAME } = env: not read by name anywhere, so that the patterns above see every read.
    expect(text, `${path}: read env.NAME, not by destructuring`).not.toMatch(/\}\s*=\s*(?:[\w.]+\.)?env\b/);
    // An environment held under another name would hide its reads: `env` is the only name.
    for (const m of text.matchAll(/\b(\w+)\??:\s*(?:Env|Record<string, string \| undefined>)\b/g))
      expect(m[1], `${path}: an environment is named env`).toBe("env");
    if (names.size > 0) found.set(path, names);
  }
  return found;
}

const listed = ENVIRONMENT.flatMap((v) => v.names);
const readByNode = ENVIRONMENT.filter((v) => v.readByNode).flatMap((v) => v.names);

describe("the environment variables edgectl reads", () => {
  const read = variablesRead();
  const all = new Set([...read.values()].flatMap((names) => [...names]));

  it("finds reads of each kind in src/ (the scan sees what it must)", () => {
    expect(read.get("src/settings/resolve.ts")).toContain("EDGECTL_TIMEOUT");
    expect(read.get("src/api/proxy.ts")).toEqual(new Set(["https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"]));
    expect(read.get("src/start.ts")).toEqual(new Set(["EDGECTL_DEBUG", "EDGECTL_CACHE_DIR", "XDG_CACHE_HOME", "HOME"]));
    expect(read.get("src/commands/webhook-verification/secret-input.ts")).toContain("EDGECTL_WEBHOOK_SECRET");
  });

  it.each([...all].sort().map((name) => [name, [...read].filter(([, n]) => n.has(name)).map(([f]) => f)] as const))(
    "%s (read in %j) is listed",
    (name) => {
      expect(listed).toContain(name);
    },
  );

  it("lists only variables src/ reads (or Node reads at start-up), each once", () => {
    expect(listed.filter((name) => !readByNode.includes(name)).sort()).toEqual([...all].sort());
    expect(new Set(listed).size).toBe(listed.length);
    expect(readByNode).toEqual(["NODE_EXTRA_CA_CERTS"]);
  });
});

describe("edgectl help environment", () => {
  let cli: AppSandbox;
  beforeAll(() => {
    cli = appSandbox();
  });
  afterAll(() => {
    cli.cleanup();
  });

  it("prints every variable with what it does, on stdout, exit 0", async () => {
    const r = await cli.run(["help", "environment"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(`${r.stdout}\n`).toBe(environmentHelp(80));
    const lines = r.stdout.split("\n");
    for (const variable of ENVIRONMENT) {
      const at = lines.indexOf(variable.names.join(", "));
      expect(at, variable.names.join(", ")).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(/^ {2}\S/);
    }
  });

  it("wraps at 80 columns", () => {
    for (const line of environmentHelp(80).split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(
      environmentHelp(40)
        .split("\n")
        .every((line) => line.length <= 40),
    ).toBe(true);
    expect(wrap("a bb ccc", 5, "  ")).toEqual(["  a", "  bb", "  ccc"]);
    expect(wrap(`${"x".repeat(10)} y`, 5, "")).toEqual(["x".repeat(10), "y"]);
  });

  it("is named in help's own help", async () => {
    const r = await cli.run(["help", "--help"]);
    expect(r.stdout).toMatch(/^Topics:\n {2}environment {2}the environment variables edgectl reads$/m);
  });
});

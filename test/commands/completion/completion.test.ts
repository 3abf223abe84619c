// `edgectl completion`: the scripts, structurally (CI has bash but neither zsh nor fish, so the
// zsh and fish scripts are checked by what they say: each flag's condition names its full
// command path, the zsh file both autoloads and sources), and the whole CLI in-process
// (test/helpers/app.ts), its bash script run in a real bash.
import { Command } from "commander";
import { describe, expect, it, beforeAll } from "vitest";
import { PROVIDERS } from "../../../src/api-data/providers.js";
import { OUTPUT_FORMATS } from "../../../src/settings/resolve.js";
import { collect, run, script, type Shell } from "../../../src/commands/completion/completion.js";
import { REGISTRY } from "../../../src/commands/registry.js";
import { addRootOptions, buildProgram } from "../../../src/commands/root.js";
import { fakeDeps } from "../fake-deps.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as z from "zod/mini";
import { defineCommand } from "../../../src/commands/define.js";
import { execa } from "execa";
import { appSandbox } from "../../helpers/app.js";
import { runCli } from "../../e2e/support.js";
import { useRequestsSuite } from "../../e2e/requests.support.js";
import { useStandIns } from "../../helpers/stand-ins.js";

const program = buildProgram(fakeDeps());
await program.load(); // the whole tree
const fish = script("fish", program);
const zsh = script("zsh", program);
const bash = script("bash", program);

/** The fish `complete` lines. */
const fishLines = fish.split("\n").filter((l) => l.startsWith("complete "));
/** The `-n` condition of a fish `complete` line ("" when it has none). */
const conditionOf = (line: string) => /^complete -c edgectl -n '([^']*)'/.exec(line)?.[1] ?? "";
/** The fish lines that complete the flag `--long`. */
const fishFlag = (long: string) => fishLines.filter((l) => new RegExp(` -l ${long}( |$)`).test(l));
/** The fish lines that offer the word `name` as a command. */
const fishCommand = (name: string) => fishLines.filter((l) => l.includes(` -a '${name}' `));

/** The names a script's `local` lines declare (quoted values dropped). */
function localNames(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => /^\s*local\s/.test(l))
    .flatMap((l) =>
      l
        .replace(/'[^']*'|"[^"]*"/g, "")
        .trim()
        .split(/\s+/)
        .slice(1),
    )
    .filter((w) => !w.startsWith("-"))
    .map((w) => w.split("=")[0]!);
}

/**
 * Sources the bash script `file` in a real bash (in `cwd`) and completes each command line (its
 * last word is the one being completed): the replies, one list per line.
 */
async function completeInBashAt(file: string, cwd: string, lines: string[][]): Promise<string[][]> {
  const driver = [
    `source ${JSON.stringify(file)}`,
    "complete -p edgectl",
    // COMP_WORDS/COMP_CWORD as bash sets them for a TAB at the end of the line; one reply a tab.
    ...lines.map(
      (words) =>
        `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _edgectl; echo "reply:$(printf '%s\\t' "\${COMPREPLY[@]}")"`,
    ),
  ].join("\n");
  const r = await execa("bash", ["--noprofile", "--norc", "-c", driver], {
    cwd,
    reject: false,
    env: { PATH: process.env.PATH ?? "" },
    extendEnv: false,
  });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  const out = String(r.stdout).split("\n");
  expect(out[0]).toBe("complete -F _edgectl edgectl");
  return out.filter((l) => l.startsWith("reply:")).map((l) => l.slice("reply:".length).split("\t").filter(Boolean));
}

/** The body of one `('path')` branch of the zsh script's case. */
function zshBranch(path: string): string {
  const start = zsh.indexOf(`\n    ('${path}')\n`);
  expect(start, `no zsh branch for '${path}'`).toBeGreaterThan(0);
  return zsh.slice(start, zsh.indexOf(";;", start));
}

describe("fish", () => {
  it("--concurrency is offered only after the batch verbs (failover and endpoint get and delete), not config get or webhook-verification get", () => {
    const conditions = fishFlag("concurrency").map(conditionOf);
    expect(conditions.sort()).toEqual([
      "__edgectl_at endpoint delete",
      "__edgectl_at endpoint get",
      "__edgectl_at failover delete",
      "__edgectl_at failover get",
    ]);
  });

  it("each subcommand is offered under its parent's full path only", () => {
    // The groups holding a `get`, as the registry lists them (src/commands/registry.ts).
    const withGet = REGISTRY.filter((e) => e.command.endsWith(" get")).map((e) => e.command.slice(0, -" get".length));
    expect(withGet).toEqual(expect.arrayContaining(["config", "endpoint", "failover", "webhook-verification"]));
    expect(fishCommand("get").map(conditionOf).sort()).toEqual(withGet.map((g) => `__edgectl_at ${g}`).sort());
    expect(fishCommand("failover").map(conditionOf)).toEqual(["__edgectl_at"]);
    expect(fishCommand("path").map(conditionOf)).toEqual(["__edgectl_at config"]);
  });

  it("offers the commands of a group at any depth (endpoint policy get)", () => {
    expect(fishCommand("policy").map(conditionOf).sort()).toEqual(["__edgectl_at", "__edgectl_at endpoint"]);
    expect(fishFlag("show-secret").map(conditionOf)).toContain("__edgectl_at endpoint policy get");
    expect(bash).toContain('"endpoint policy") words="get ');
    expect(zshBranch("endpoint policy get")).toContain("--show-secret");
  });

  it("every condition is __edgectl_at with a command path that exists", () => {
    const paths = new Set(collect(program, []).map((n) => ["__edgectl_at", ...n.path].join(" ")));
    const conditions = fishLines.map(conditionOf).filter(Boolean);
    expect(conditions.length).toBeGreaterThan(40);
    for (const c of conditions) expect(paths).toContain(c);
    expect(fish).not.toContain("__fish_seen_subcommand_from");
    expect(fish).toMatch(/^function __edgectl_at$/m);
    expect(fish).toContain("commandline -opc");
  });

  it("the global flags (the root's options) have no condition, so every level offers them", () => {
    const globals = program.options.map((o) => o.long!.slice(2));
    expect(globals).toEqual(expect.arrayContaining(["json", "output", "api-key", "profile", "base-url"]));
    for (const long of [...globals, "help"]) {
      const lines = fishFlag(long);
      expect(lines, `--${long}`).toHaveLength(1);
      expect(conditionOf(lines[0]!), `--${long}`).toBe("");
    }
  });

  it("the path walk skips the value of every value-taking flag, and only those", () => {
    const skip = /^ {12}case (.*)\n {16}set skip 1$/m
      .exec(fish)?.[1]
      ?.split(" ")
      .map((w) => w.replace(/^'|'$/g, ""));
    expect(skip).toEqual(
      expect.arrayContaining([
        "--profile",
        "-o",
        "--output",
        "--api-key",
        "--concurrency",
        "--backends",
        "--provider",
        "--input",
      ]),
    );
    for (const boolean of ["--json", "--yes", "-y", "--all", "--dry-run", "--debug", "--help"])
      expect(skip).not.toContain(boolean);
  });

  it("--input, --secret-file, --state and --traffic-policy-file complete file names (-r -F); other value flags do not", () => {
    for (const long of ["input", "secret-file", "state", "traffic-policy-file"]) {
      const lines = fishFlag(long);
      expect(lines.length, `--${long}`).toBeGreaterThan(0);
      for (const l of lines) expect(l).toMatch(/ -r -F /);
    }
    for (const long of ["api-key", "profile", "backends", "concurrency", "secret"]) {
      for (const l of fishFlag(long)) {
        expect(l).not.toMatch(/ -F\b/);
        expect(l).toMatch(/ -x /);
      }
    }
    expect(fishLines).toContain("complete -c edgectl -f");
  });

  it("policy check's <file> and policy test's <policy> complete file names (-F under their paths); no other command's argument does", () => {
    const positional = fishLines.filter((l) => / -F$/.test(l));
    expect(positional).toEqual([
      "complete -c edgectl -n '__edgectl_at policy check' -F",
      "complete -c edgectl -n '__edgectl_at policy test' -F",
    ]);
  });

  it("--protocol, --binding and --edges complete their sets under their commands only", () => {
    expect(fishFlag("protocol")).toEqual(
      ["check", "test"].map((verb) =>
        expect.stringMatching(
          new RegExp(`^complete -c edgectl -n '__edgectl_at policy ${verb}' -l protocol -x -a 'https http tls tcp' `),
        ),
      ),
    );
    expect(fishFlag("binding")).toEqual([
      expect.stringMatching(
        /^complete -c edgectl -n '__edgectl_at endpoint create' -l binding -x -a 'public internal' /,
      ),
    ]);
    expect(fishFlag("edges")).toEqual([
      expect.stringMatching(/^complete -c edgectl -n '__edgectl_at emulator' -l edges -x -a 'retired read-only' /),
    ]);
  });

  it("--provider completes provider names under every verb that takes it; -o/--output completes table json", () => {
    const provider = fishFlag("provider");
    expect(provider.map(conditionOf).sort()).toEqual([
      "__edgectl_at endpoint webhook-verification replace",
      "__edgectl_at webhook sign",
      "__edgectl_at webhook verify",
      "__edgectl_at webhook-verification replace",
    ]);
    for (const line of provider) expect(line).toContain(`-x -a '${PROVIDERS.join(" ")}'`);
    expect(OUTPUT_FORMATS).toEqual(expect.arrayContaining(["table", "json"]));
    expect(fishFlag("output")).toEqual([
      expect.stringContaining(`complete -c edgectl -s o -l output -x -a '${OUTPUT_FORMATS.join(" ")}' `),
    ]);
  });

  it("a quote in a description is escaped for fish", () => {
    const update = fishCommand("update").filter((line) => conditionOf(line) === "__edgectl_at failover");
    expect(update).toHaveLength(1);
    expect(update[0]).toContain(String.raw`-d 'Change a Failover backend\'s backends`);
  });
});

describe("zsh", () => {
  it("is a native #compdef function that runs when autoloaded and registers itself when sourced", () => {
    expect(zsh.startsWith("#compdef edgectl\n")).toBe(true);
    expect(
      zsh
        .trimEnd()
        .endsWith(`if [ "$funcstack[1]" = "_edgectl" ]; then\n  _edgectl "$@"\nelse\n  compdef _edgectl edgectl\nfi`),
    ).toBe(true);
    expect(zsh).toMatch(/^_edgectl\(\) \{$/m);
    for (const bashism of ["bashcompinit", "COMP_WORDS", "COMPREPLY", "compgen", "complete -F"])
      expect(zsh).not.toContain(bashism);
    expect(zsh).toContain("${words[CURRENT]}");
  });

  it("never assigns or declares `path` (the array tied to PATH in zsh)", () => {
    expect(zsh).not.toMatch(/\bpath=/);
    const declared = localNames(zsh);
    expect(declared).toContain("cmdpath");
    expect(declared).not.toContain("path");
  });

  it("flags belong to their command path: --concurrency after failover get, not after config get", () => {
    expect(zshBranch("failover get")).toContain("'--concurrency:");
    expect(zshBranch("failover delete")).toContain("'--concurrency:");
    expect(zshBranch("config get")).not.toContain("--concurrency");
    expect(zshBranch("webhook-verification get")).not.toContain("--concurrency");
    expect(zshBranch("webhook-verification get")).toContain("'--show-secret:");
    for (const verb of ["create", "get", "list", "update", "delete"])
      expect(zshBranch("failover")).toMatch(new RegExp(`^ {6}subcmds=\\(.*'${verb}:`, "m"));
  });

  it("global flags are added at every level; values complete with files, providers and output formats", () => {
    const globals = /^ {2}globals=\((.*)\)$/m.exec(zsh)?.[1];
    for (const flag of ["--json", "-o", "--output", "--profile", "--api-key", "--help"])
      expect(globals).toContain(`'${flag}:`);
    expect(zsh).toContain("  flags+=($globals)");
    expect(zsh).toMatch(
      /^ {4}\((?=[^)]*--input)(?=[^)]*--secret-file)(?=[^)]*--state)(?=[^)]*--traffic-policy-file)[-|a-z]+\) _files; return ;;$/m,
    );
    expect(zsh).toContain(`(--provider) compadd -- ${PROVIDERS.join(" ")}; return ;;`);
    const formats = OUTPUT_FORMATS.join(" ");
    expect(zsh).toMatch(new RegExp(`^ {4}\\((--output\\|-o|-o\\|--output)\\) compadd -- ${formats}; return ;;$`, "m"));
    expect(zsh).toContain(`(--output=*) compset -P '*='; compadd -- ${formats}; return ;;`);
    expect(zsh).toContain("(--protocol) compadd -- https http tls tcp; return ;;");
    expect(zsh).toContain("(--binding) compadd -- public internal; return ;;");
    expect(zsh).toContain("(--edges) compadd -- retired read-only; return ;;");
    // --traffic-policy-file=<file> too
    expect(zsh).toMatch(/^ {4}\((?=[^)]*--traffic-policy-file=\*)[-|=*a-z]+\) compset -P '\*='; _files; return ;;$/m);
  });

  it("policy check's <file> completes file names: its branch declares args=(file), which _files completes", () => {
    expect(zshBranch("policy check")).toMatch(/^ {6}args=\('file'\)$/m);
    expect(zshBranch("endpoint get")).not.toContain("args=");
    expect(zsh).toMatch(/^ {6}\(file\) _files; return ;;$/m);
    expect(zsh).toContain("spec=${args[npos+1]}");
    // Every positional counts, a `-` (stdin) too, and the words naming the command do not.
    expect(zsh).toMatch(/^ {6}\(-\) \(\( npos\+\+ \)\) ;;$/m);
  });
});

describe("bash", () => {
  it("keeps the command path in cmdpath, not path", () => {
    expect(bash).not.toMatch(/\bpath=/);
    const declared = localNames(bash);
    expect(declared).toContain("cmdpath");
    expect(declared).not.toContain("path");
    expect(bash).toMatch(/^complete -F _edgectl edgectl$/m);
  });
});

describe("generated from the command tree", () => {
  it("no flag completes one way in one command and another way in another (the scripts match values by flag name alone)", () => {
    const completes = new Map<string, string>();
    for (const flag of collect(program, []).flatMap((n) => n.flags)) {
      const how = JSON.stringify(flag.complete ?? null);
      for (const name of [flag.long, flag.short].filter(Boolean) as string[]) {
        expect(completes.get(name) ?? how, name).toBe(how);
        completes.set(name, how);
      }
    }
  });

  it("what completes a value is read from the declarations", () => {
    const at = (path: string) => collect(program, []).find((n) => n.path.join(" ") === path)!;
    const flag = (path: string, long: string) => at(path).flags.find((f) => f.long === long)?.complete;
    expect(at("policy check").args).toEqual([{ complete: "file", variadic: false }]);
    expect(flag("policy check", "--protocol")).toEqual(["https", "http", "tls", "tcp"]);
    expect(flag("endpoint create", "--binding")).toEqual(["public", "internal"]);
    expect(flag("endpoint create", "--traffic-policy-file")).toBe("file");
    expect(flag("endpoint update", "--traffic-policy-file")).toBe("file");
    expect(flag("emulator", "--edges")).toEqual(["retired", "read-only"]);
    expect(flag("emulator", "--state")).toBe("file");
    expect(flag("api", "--input")).toBe("file");
    expect(flag("webhook-verification replace", "--secret-file")).toBe("file");
    expect(flag("endpoint webhook-verification replace", "--provider")).toBe(PROVIDERS);
    expect(flag("", "--output")).toBe(OUTPUT_FORMATS);
    // A value flag that declares nothing completes nothing.
    expect(flag("failover create", "--backends")).toBeUndefined();
  });

  it("no flag takes a value in one command and not in another (the scripts skip values by flag name alone)", () => {
    const takes = new Map<string, boolean>();
    for (const flag of collect(program, []).flatMap((n) => n.flags)) {
      for (const name of [flag.long, flag.short].filter(Boolean) as string[]) {
        expect(takes.get(name) ?? flag.takesValue, name).toBe(flag.takesValue);
        takes.set(name, flag.takesValue);
      }
    }
  });

  it("a same-named subcommand under two parents gets each parent's flags only", () => {
    const p = new Command("edgectl").option("--json");
    p.command("alpha").command("get").option("--only-alpha <n>");
    p.command("beta").command("get").option("--only-beta");
    const f = script("fish", p);
    expect(f).toMatch(/^complete -c edgectl -n '__edgectl_at alpha get' -l only-alpha -x/m);
    expect(f).toMatch(/^complete -c edgectl -n '__edgectl_at beta get' -l only-beta/m);
    expect(f).not.toMatch(/'__edgectl_at beta get' -l only-alpha|'__edgectl_at alpha get' -l only-beta/);
    const z = script("zsh", p);
    expect(z.slice(z.indexOf("('alpha get')"), z.indexOf("('beta')"))).toContain("--only-alpha");
    expect(z.slice(z.indexOf("('beta get')"))).not.toContain("--only-alpha");
  });

  it("a flag or argument declared later with complete completes in all three (--cases, --body-file, policy test <file>)", async () => {
    const p = addRootOptions(new Command("edgectl"));
    const test = defineCommand({
      name: "test",
      description: "t",
      examples: [],
      args: { file: { arg: "<file>", help: "policy", schema: () => z.string(), complete: "file" } },
      flags: {
        cases: { flag: "--cases <file>", help: "cases", schema: () => z.optional(z.string()), complete: "file" },
        mode: { flag: "--mode <m>", help: "mode", schema: () => z.optional(z.string()), complete: ["fast", "full"] },
      },
      run: async () => {},
    });
    const send = defineCommand({
      name: "send",
      description: "s",
      examples: [],
      args: { ids: { arg: "<id...>", help: "ids", schema: () => z.array(z.string()), complete: ["a1", "b2"] } },
      flags: {
        bodyFile: { flag: "--body-file <file>", help: "body", schema: () => z.optional(z.string()), complete: "file" },
      },
      run: async () => {},
    });
    test.register(p.command("policy"), fakeDeps());
    send.register(p, fakeDeps());
    const dir = mkdtempSync(join(tmpdir(), "edgectl-completion-"));
    try {
      for (const name of ["cases.yml", "body.json", "policy.yml"]) writeFileSync(join(dir, name), "x");
      writeFileSync(join(dir, "edgectl.bash"), script("bash", p));
      const cases: [string[], string[]][] = [
        [["edgectl", "policy", "test", "po"], ["policy.yml"]],
        [["edgectl", "policy", "test", "policy.yml", "--cases", "ca"], ["cases.yml"]],
        [
          ["edgectl", "policy", "test", "--mode", "f"],
          ["fast", "full"],
        ],
        [["edgectl", "policy", "test", "policy.yml", "po"], []],
        [["edgectl", "send", "--body-file", "bo"], ["body.json"]],
        [["edgectl", "send", "a1", "b"], ["b2"]], // a repeated argument completes at every place
        [["edgectl", "-o", ""], [...OUTPUT_FORMATS]],
      ];
      const replies = await completeInBashAt(
        join(dir, "edgectl.bash"),
        dir,
        cases.map(([words]) => words),
      );
      cases.forEach(([words, expected], i) => expect.soft(replies[i], words.join(" ")).toEqual(expected));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const z1 = script("zsh", p);
    expect(z1).toMatch(/^ {4}\((?=[^)]*--cases)(?=[^)]*--body-file)[-|a-z]+\) _files; return ;;$/m);
    expect(z1).toContain("(--mode) compadd -- fast full; return ;;");
    expect(z1).toMatch(/^ {4}\('policy test'\)\n(?: {6}.*\n)* {6}args=\('file'\)$/m);
    expect(z1).toMatch(/^ {6}args=\('words:a1 b2'\); more=1$/m);
    const f1 = script("fish", p);
    expect(f1).toContain("complete -c edgectl -n '__edgectl_at policy test' -l cases -r -F -d 'cases'");
    expect(f1).toContain("complete -c edgectl -n '__edgectl_at send' -l body-file -r -F -d 'body'");
    expect(f1).toContain("complete -c edgectl -n '__edgectl_at policy test' -F");
    expect(f1).toContain("complete -c edgectl -n '__edgectl_at send' -f -a 'a1 b2'");
  });

  it.each([["bash"], ["zsh"], ["fish"]] as const)("run(%s) writes the script to stdout", async (shell: Shell) => {
    const deps = fakeDeps();
    await run({ shell }, deps, program);
    expect(deps.out.text).toBe(script(shell, program));
    expect(deps.err.text).toBe("");
  });
});

describe("the whole CLI in-process", () => {
  const { cli, scratch } = useStandIns();

  describe("edgectl completion", () => {
    let scripts: Record<"bash" | "zsh" | "fish", string>;
    beforeAll(async () => {
      const [bash, zsh, fish] = await Promise.all(["bash", "zsh", "fish"].map((s) => runCli(cli, ["completion", s])));
      for (const r of [bash!, zsh!, fish!]) expect(r.exitCode).toBe(0);
      scripts = { bash: bash!.stdout, zsh: zsh!.stdout, fish: fish!.stdout };
      for (const shell of ["bash", "fish"] as const)
        writeFileSync(join(scratch, `edgectl.${shell}`), `${scripts[shell]}\n`);
    });

    const completeInBash = (lines: string[][]) => completeInBashAt(join(scratch, "edgectl.bash"), scratch, lines);

    it("bash: commands, nested commands, flags and provider names complete in a real bash", async () => {
      const replies = await completeInBash([
        ["edgectl", "fa"],
        ["edgectl", "webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "git"],
        ["edgectl", "failover", "get", "bkdfo_1", "--c"],
        ["edgectl", "we"],
        ["edgectl", "failover", "u"],
        ["edgectl", "--profile", "work", "failover", "l"],
        ["edgectl", "failover", "list", "-o", "j"],
        ["edgectl", "webhook-verification", "replace", "edghts_1", "edghtsrt_1", "--provider", "s"],
        ["edgectl", "failover", "create", "--backends", "bkdhr_a", "--des"],
        ["edgectl", "zz"],
        ["edgectl", "config", "get", "--c"],
        ["edgectl", "failover", "create", "--backends", ""],
        ["edgectl", "api", "GET", "/backends/failover", "--input", "edgectl.ba"],
      ]);
      expect(replies[0]).toEqual(["failover"]);
      expect(replies[1]).toEqual(["github", "gitlab"]);
      expect(replies[2]).toEqual(["--concurrency"]);
      expect(replies[3]).toEqual(["webhook-verification", "webhook"]);
      expect(replies[4]).toEqual(["update"]);
      expect(replies[5]).toEqual(["list"]);
      expect(replies[6]).toEqual(["json"]);
      expect(replies[7]).toEqual(expect.arrayContaining(["sns", "stripe", "slack", "shopify", "sendgrid", "sentry"]));
      expect(replies[7]!.every((p) => p.startsWith("s"))).toBe(true);
      expect(replies[8]).toEqual(["--description"]);
      expect(replies[9]).toEqual([]);
      expect(replies[10]).toEqual([]); // --concurrency is failover get's and delete's, not config get's
      expect(replies[11]).toEqual([]); // a value goes after --backends, not a flag or command
      expect(replies[12]).toEqual(["edgectl.bash"]); // file names after --input
    });

    it("bash: file names after each file flag and policy check <file>, and every fixed set, in a real bash", async () => {
      for (const name of ["policy.yml", "policy.json", "gh.secret", "body.json", "state.json", "notes with space.txt"])
        writeFileSync(join(scratch, name), "x");
      mkdirSync(join(scratch, "policies"), { recursive: true });
      const ep = ["edgectl", "endpoint"];
      const replace = ["edgectl", "webhook-verification", "replace", "edghts_1", "edghtsrt_1"];
      const cases: [string[], string[]][] = [
        [
          [...ep, "create", "--url", "https://a.example", "--traffic-policy-file", "policy."],
          ["policy.json", "policy.yml"],
        ],
        [
          [...ep, "update", "ep_1", "--traffic-policy-file", "poli"],
          ["policies", "policy.json", "policy.yml"],
        ],
        [[...replace, "--provider", "github", "--secret-file", "gh"], ["gh.secret"]],
        [[...ep, "webhook-verification", "replace", "ep_1", "--secret-file", "gh"], ["gh.secret"]],
        [["edgectl", "api", "POST", "/x", "--input", "bo"], ["body.json"]],
        [["edgectl", "emulator", "--port", "0", "--state", "sta"], ["state.json"]],
        [["edgectl", "policy", "check", "policy.y"], ["policy.yml"]],
        [["edgectl", "policy", "check", "notes"], ["notes with space.txt"]], // one name, spaces and all
        [["edgectl", "--profile", "work", "policy", "check", "--internal", "policy.j"], ["policy.json"]],
        [
          ["edgectl", "policy", "check", "policy.yml", "--protocol", ""],
          ["https", "http", "tls", "tcp"],
        ],
        [
          ["edgectl", "policy", "check", "--protocol", "t"],
          ["tls", "tcp"],
        ],
        [["edgectl", "policy", "check", "policy.yml", "--i"], ["--internal"]],
        [["edgectl", "policy", "check", "policy.yml", "policy.y"], []], // one <file> only
        [["edgectl", "policy", "check", "-", "policy.y"], []], // - (stdin) is the <file>
        [
          [...ep, "create", "--binding", ""],
          ["public", "internal"],
        ],
        [[...ep, "create", "--binding", "i"], ["internal"]],
        [
          ["edgectl", "emulator", "--edges", ""],
          ["retired", "read-only"],
        ],
        [
          ["edgectl", "emulator", "--edges", "re"],
          ["retired", "read-only"],
        ],
        [["edgectl", "failover", "list", "-o", ""], [...OUTPUT_FORMATS]],
        [["edgectl", "--output", ""], [...OUTPUT_FORMATS]],
        [[...replace, "--provider", "gith"], ["github"]],
        [[...ep, "webhook-verification", "replace", "ep_1", "--provider", "stri"], ["stripe"]],
        [["edgectl", "endpoint", "get", "policy."], []], // an id, not a file
        [["edgectl", "policy", "c"], ["check"]],
        // --flag=value, which bash splits at the = (COMP_WORDBREAKS)
        [
          ["edgectl", "policy", "check", "--protocol", "=", "h"],
          ["https", "http"],
        ],
        [
          ["edgectl", "emulator", "--edges", "="],
          ["retired", "read-only"],
        ],
        [[...ep, "create", "--traffic-policy-file", "=", "policy.y"], ["policy.yml"]],
        [["edgectl", "policy", "check", "--protocol", "=", "tls", "policy.j"], ["policy.json"]],
      ];
      const replies = await completeInBash(cases.map(([words]) => words));
      // Sorted: compgen -f lists a folder in the order it reads it (readline sorts what it shows).
      cases.forEach(([words, expected], i) =>
        expect.soft([...replies[i]!].sort(), words.join(" ")).toEqual([...expected].sort()),
      );
    });

    it("zsh: a #compdef script for edgectl", () => {
      expect(scripts.zsh.startsWith("#compdef edgectl\n")).toBe(true);
      expect(scripts.zsh).toContain("_edgectl");
      expect(scripts.zsh).toContain("github gitlab");
    });

    it("fish: complete -c edgectl lines for commands, flags and provider names", () => {
      // Top-level lines: the __edgectl_at helper the conditions call, then `complete` lines only.
      const lines = scripts.fish.split("\n").filter((l) => l.trim() && !l.startsWith("#") && !l.startsWith(" "));
      expect(lines.slice(0, 2)).toEqual(["function __edgectl_at", "end"]);
      expect(lines.length).toBeGreaterThan(20);
      for (const l of lines.slice(2)) expect(l).toMatch(/^complete -c edgectl /);
      expect(lines.some((l) => /-a '?failover'?/.test(l))).toBe(true);
      expect(lines.some((l) => /-a '?webhook-verification'?/.test(l))).toBe(true);
      const providers = lines.find((l) => /-l provider\b.*-a /.test(l));
      expect(providers).toBeDefined();
      for (const p of ["github", "gitlab", "sns", "stripe", "zoom"])
        expect(providers).toMatch(new RegExp(`\\b${p}\\b`));
    });

    it.each([["tcsh"], ["BASH"], [""]])("an unsupported shell %j: exit 2, nothing on stdout", async (shell) => {
      const r = await runCli(cli, ["completion", shell]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: .*<shell>/);
    });

    it("no shell at all: exit 2 naming the missing argument", async () => {
      const r = await runCli(cli, ["completion"]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: .*shell/);
    });
  });
});

describe("requests, one of each kind (in-process, fault server)", () => {
  const ctx = useRequestsSuite(appSandbox);
  const { run } = ctx;

  it.each(["bash", "zsh", "fish"])("prints a %s script that mentions the commands", async (shell) => {
    const r = await run(["completion", shell]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("edgectl");
    expect(r.stdout).toContain("failover");
    expect(r.stdout).toContain("webhook-verification");
    expect(r.stderr).toBe("");
  });
});

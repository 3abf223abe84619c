import type { Argument, Command, Option } from "commander";
import * as z from "zod/mini";
import { defineCommand, type Completes, type Completion } from "../define.js";
import type { Deps } from "../deps.js";

// Completion scripts are generated from the command tree itself, so a new command or flag
// completes without touching this file. All three scripts find "where am I" the same way:
// the non-option words typed so far that name a known command path (`failover get`), with
// the value after a value-taking flag (`--profile work`) skipped. Flags and subcommands are
// then offered for that exact path only; the root's flags (--json, -o, --profile, …) are
// global and offered at every level. What completes a value (file names, or a fixed set of
// words) is declared once, with its flag or argument (`complete` in src/commands/define.ts, and
// in src/commands/globals.ts for the root's): a flag declared with it completes in all three.

export type Shell = "bash" | "zsh" | "fish";

export interface Flag {
  long?: string;
  short?: string;
  /** The next word is the flag's value, not a command or argument. */
  takesValue: boolean;
  description: string;
  /** What completes its value, as declared. */
  complete?: Completion;
}

/** A positional argument: what completes it (nothing: undefined), and whether it repeats. */
export interface Arg {
  complete?: Completion;
  variadic: boolean;
}

export interface Node {
  path: string[];
  subcommands: { name: string; description: string }[];
  /** The command's own flags (for the root: the global flags), --help included. */
  flags: Flag[];
  /** Its positional arguments, in order. */
  args: Arg[];
}

const HELP: Flag = { long: "--help", takesValue: false, description: "display help for command" };

const SHELLS: readonly Shell[] = ["bash", "zsh", "fish"];

export const completion = defineCommand({
  name: "completion",
  description: "Print a shell completion script (bash, zsh or fish)",
  args: {
    shell: {
      arg: "<shell>",
      help: "bash, zsh or fish",
      schema: () =>
        z.pipe(
          z
            .string()
            .check(
              z.refine((v) => (SHELLS as readonly string[]).includes(v), "is not supported; use bash, zsh or fish"),
            ),
          z.transform((v) => v as Shell),
        ),
    },
  },
  examples: [
    "# bash: this shell only, or every new shell (needs the bash-completion package)",
    "$ source <(edgectl completion bash)",
    "$ mkdir -p ~/.local/share/bash-completion/completions && edgectl completion bash > ~/.local/share/bash-completion/completions/edgectl",
    "# zsh: in ~/.zshrc after compinit; or as _edgectl in a directory of $fpath, here",
    "# ~/.zfunc with fpath=(~/.zfunc $fpath) in ~/.zshrc before compinit",
    "$ source <(edgectl completion zsh)",
    "$ mkdir -p ~/.zfunc && edgectl completion zsh > ~/.zfunc/_edgectl",
    "# fish",
    "$ mkdir -p ~/.config/fish/completions && edgectl completion fish > ~/.config/fish/completions/edgectl.fish",
  ],
  // The script is made from the whole command tree, from the root down.
  run: (options, deps, command) => {
    let root = command;
    while (root.parent) root = root.parent;
    return run(options, deps, root);
  },
});

export async function run(options: { shell: Shell }, deps: Pick<Deps, "io">, program: Command): Promise<void> {
  deps.io.stdout.write(script(options.shell, program));
}

/** The completion script for `shell`, generated from `program`'s command tree. */
export function script(shell: Shell, program: Command): string {
  const nodes = collect(program, []);
  return shell === "fish" ? fish(nodes) : shell === "zsh" ? zsh(nodes) : bash(nodes);
}

/** Every command in the tree, root first, depth first. */
export function collect(cmd: Command, path: string[]): Node[] {
  const subs = cmd.commands.filter((c) => c.name() !== "help");
  const own = cmd.options
    .filter((o: Option) => !o.hidden)
    .map((o: Option & Completes): Flag => {
      const takesValue = Boolean(o.required || o.optional);
      return {
        long: o.long,
        short: o.short,
        takesValue,
        description: oneLine(o.description),
        ...(takesValue && o.complete ? { complete: o.complete } : {}),
      };
    });
  const node: Node = {
    path,
    subcommands: subs.map((c) => ({ name: c.name(), description: oneLine(c.description()) })),
    flags: [...own, HELP],
    args: cmd.registeredArguments.map((a: Argument & Completes) => ({
      variadic: a.variadic,
      ...(a.complete ? { complete: a.complete } : {}),
    })),
  };
  return [node, ...subs.flatMap((c) => collect(c, [...path, c.name()]))];
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const names = (f: Flag) => [f.long, f.short].filter((n): n is string => Boolean(n));

/** Every spelling of every flag that takes a value, anywhere in the tree. */
function valueFlags(nodes: Node[]): string[] {
  return [...new Set(nodes.flatMap((n) => n.flags.filter((f) => f.takesValue).flatMap(names)))];
}

/** The global flags (the root's), which are offered after every command. */
function globalFlags(nodes: Node[]): Flag[] {
  return nodes[0]!.flags;
}

/** Flags offered at `node`: its own, then the global ones it does not redefine. */
function flagsAt(node: Node, globals: Flag[]): Flag[] {
  if (node.path.length === 0) return node.flags;
  const own = new Set(node.flags.flatMap(names));
  return [...node.flags, ...globals.filter((g) => !names(g).some((n) => own.has(n)))];
}

/** One key per completion: "file", or its words. */
const keyOf = (kind: Completion) => (kind === "file" ? "file" : `words:${kind.join(" ")}`);

/**
 * The flags whose value can be completed, grouped by what completes it (file names, or a
 * fixed list of words), each group as every spelling of its flags (`-o`, `--output`).
 */
function valueCompletions(nodes: Node[]): { spellings: string[]; kind: Completion }[] {
  const groups = new Map<string, { spellings: string[]; kind: Completion }>();
  for (const f of nodes.flatMap((n) => n.flags)) {
    if (!f.complete) continue;
    const group = groups.get(keyOf(f.complete)) ?? { spellings: [], kind: f.complete };
    group.spellings = [...new Set([...group.spellings, ...names(f)])];
    groups.set(keyOf(f.complete), group);
  }
  return [...groups.values()];
}

/**
 * A node's positional arguments for the scripts: each one's key ("file", "words:a b", or ""
 * when nothing completes it), and whether the last one repeats.
 */
function argSpecs(node: Node): { specs: string[]; more: boolean } {
  return {
    specs: node.args.map((a) => (a.complete ? keyOf(a.complete) : "")),
    more: node.args.at(-1)?.variadic ?? false,
  };
}

/** Value-taking flags whose value nothing completes (an id, a number, free text). */
function plainValueFlags(nodes: Node[]): string[] {
  const completable = new Set(valueCompletions(nodes).flatMap((g) => g.spellings));
  return valueFlags(nodes).filter((f) => !completable.has(f));
}

/** Single-quoted for sh/bash/zsh. */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** A word for sh/bash/zsh: as is when it needs no quotes (`github`, `read-only`). */
const word = (s: string) => (/^[\w.:+-]+$/.test(s) ? s : shq(s));
/** Single-quoted for fish (where \\ and \' are the escapes inside single quotes). */
const fishq = (s: string) => `'${s.replace(/[\\']/g, "\\$&")}'`;

function bash(nodes: Node[]): string {
  const globals = globalFlags(nodes);
  const valueTaking = valueFlags(nodes);
  const plainValue = plainValueFlags(nodes);
  const cases = nodes
    .map((n) => {
      const words = [...n.subcommands.map((s) => s.name), ...flagsAt(n, globals).flatMap(names)];
      const { specs, more } = argSpecs(n);
      const args = specs.some(Boolean) ? `; args=(${specs.map(shq).join(" ")})${more ? "; more=1" : ""}` : "";
      return `    "${n.path.join(" ")}") words="${[...new Set(words)].join(" ")}"${args} ;;`;
    })
    .join("\n");
  const valueCases = valueCompletions(nodes)
    .map(({ spellings, kind }) => `    ${spellings.join("|")}) __edgectl_values ${shq(keyOf(kind))}; return ;;`)
    .join("\n");
  return `# edgectl completion for bash

# Completes $cur from a key: "file" (file names) or "words:<the words>".
__edgectl_values() {
  case "$1" in
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    words:*) mapfile -t COMPREPLY < <(compgen -W "\${1#words:}" -- "$cur") ;;
  esac
}

_edgectl() {
  local cur prev cmdpath="" w i skip=0 npos=0 more=0 spec words known="|${nodes.map((n) => n.path.join(" ")).join("|")}|"
  local -a args=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --flag=value: bash splits it at the = (COMP_WORDBREAKS), as --flag, = and value.
  if [[ "$cur" == "=" && "$prev" == --* ]]; then cur=""
  elif [[ "$prev" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  case "$prev" in
${valueCases}${plainValue.length ? `\n    ${plainValue.join("|")}) COMPREPLY=(); return ;;` : ""}
  esac
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ $skip == 1 ]]; then [[ "$w" == "=" ]] || skip=0; continue; fi
    case "$w" in
${valueTaking.length ? `      ${valueTaking.join("|")}) skip=1 ;;\n` : ""}      -) npos=$((npos+1)) ;;
      -*) ;;
      *)
        if [[ "$known" == *"|\${cmdpath:+$cmdpath }$w|"* ]]; then cmdpath="\${cmdpath:+$cmdpath }$w"
        else npos=$((npos+1)); fi ;;
    esac
  done
  case "$cmdpath" in
${cases}
    *) words="" ;;
  esac
  # A positional argument whose declaration says what completes it (a file, or a set of words).
  if [[ "$cur" != -* ]]; then
    spec="\${args[npos]}"
    if (( npos >= \${#args[@]} && more )); then spec="\${args[\${#args[@]}-1]}"; fi
    if [[ -n "$spec" ]]; then __edgectl_values "$spec"; return; fi
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _edgectl edgectl
`;
}

function zsh(nodes: Node[]): string {
  const valueTaking = valueFlags(nodes);
  const plainValue = plainValueFlags(nodes);
  // _describe entries are name:description; a colon in a name would need escaping (none do).
  const described = (name: string, description: string) => shq(`${name.replace(/:/g, "\\:")}:${description}`);
  const flagEntries = (flags: Flag[]) => flags.flatMap((f) => names(f).map((n) => described(n, f.description)));
  const cases = nodes
    .map((n) => {
      const subs = n.subcommands.map((s) => described(s.name, s.description));
      const own = n.path.length === 0 ? [] : flagEntries(n.flags.filter((f) => f !== HELP));
      const { specs, more } = argSpecs(n);
      return [
        `    (${shq(n.path.join(" "))})`,
        ...(subs.length ? [`      subcmds=(${subs.join(" ")})`] : []),
        ...(own.length ? [`      flags=(${own.join(" ")})`] : []),
        ...(specs.some(Boolean) ? [`      args=(${specs.map(shq).join(" ")})${more ? "; more=1" : ""}`] : []),
        `      ;;`,
      ].join("\n");
    })
    .join("\n");
  const complete = (kind: Completion) => (kind === "file" ? "_files" : `compadd -- ${kind.map(word).join(" ")}`);
  const groups = valueCompletions(nodes);
  // `--flag value` (the value is the current word) and `--flag=value` (one word).
  const separate = groups
    .map(({ spellings, kind }) => `    (${spellings.join("|")}) ${complete(kind)}; return ;;`)
    .join("\n");
  const joined = groups
    .map(({ spellings, kind }) => {
      const long = spellings.filter((f) => f.startsWith("--"));
      return `    (${long.map((f) => `${f}=*`).join("|")}) compset -P '*='; ${complete(kind)}; return ;;`;
    })
    .join("\n");
  return `#compdef edgectl
# edgectl completion for zsh. Either in ~/.zshrc, after compinit:
#   source <(edgectl completion zsh)
# or as the file _edgectl in a directory of $fpath, which compinit then autoloads:
#   mkdir -p ~/.zfunc && edgectl completion zsh > ~/.zfunc/_edgectl
#   (with fpath=(~/.zfunc $fpath) in ~/.zshrc before compinit)

_edgectl() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} cmdpath="" w i skip=0 npos=0 more=0 spec ret=1
  local known=${shq(`|${nodes.map((n) => n.path.join(" ")).join("|")}|`)}
  local -a subcmds flags globals args
  case $prev in
${separate}${plainValue.length ? `\n    (${plainValue.join("|")}) _message -e values "value for $prev"; return 1 ;;` : ""}
  esac
  case $cur in
${joined}
  esac
  # The command path so far: the words naming a known command, skipping flags and their values.
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    if (( skip )); then skip=0; continue; fi
    case $w in
${valueTaking.length ? `      (${valueTaking.join("|")}) skip=1 ;;\n` : ""}      (-) (( npos++ )) ;;
      (-*) ;;
      (*)
        if [[ $known == *"|\${cmdpath:+$cmdpath }$w|"* ]]; then cmdpath="\${cmdpath:+$cmdpath }$w"
        else (( npos++ )); fi ;;
    esac
  done
  # Global flags, offered after every command.
  globals=(${flagEntries(globalFlags(nodes)).join(" ")})
  case $cmdpath in
${cases}
    (*) return 1 ;;
  esac
  # A positional argument whose declaration says what completes it (a file, or a set of words).
  if [[ $cur != -* ]]; then
    spec=\${args[npos+1]}
    (( npos >= \${#args} && more )) && spec=\${args[-1]}
    case $spec in
      (file) _files; return ;;
      (words:*) compadd -- \${=spec#words:}; return ;;
    esac
  fi
  flags+=($globals)
  if [[ $cur != -* ]] && (( \${#subcmds} )); then
    _describe -t commands 'edgectl command' subcmds && ret=0
  else
    _describe -t options 'edgectl option' flags && ret=0
  fi
  return ret
}

if [ "$funcstack[1]" = "_edgectl" ]; then
  _edgectl "$@"
else
  compdef _edgectl edgectl
fi
`;
}

function fish(nodes: Node[]): string {
  const valueTaking = valueFlags(nodes);
  const known = nodes.slice(1).map((n) => fishq(n.path.join(" ")));
  const lines = [
    "# edgectl completion for fish",
    "",
    "# True when the command path typed so far (the words that are not options or option",
    "# values) is exactly $argv: `__edgectl_at failover get`; `__edgectl_at` for the top level.",
    "function __edgectl_at",
    "    set -l tokens (commandline -opc)",
    `    set -l known ${known.join(" ")}`,
    "    set -l cmdpath",
    "    set -l skip 0",
    "    for w in $tokens[2..-1]",
    "        if test $skip = 1",
    "            set skip 0",
    "            continue",
    "        end",
    "        switch $w",
    ...(valueTaking.length
      ? [`            case ${valueTaking.map(fishq).join(" ")}`, "                set skip 1"]
      : []),
    "            case '-*'",
    "            case '*'",
    "                if contains -- (string join ' ' $cmdpath $w) $known",
    "                    set -a cmdpath $w",
    "                end",
    "        end",
    "    end",
    '    test "$cmdpath" = "$argv"',
    "end",
    "",
    "complete -c edgectl -f",
  ];
  const flagLine = (cond: string | undefined, f: Flag) => {
    const parts = ["complete -c edgectl"];
    if (cond !== undefined) parts.push(`-n ${fishq(cond)}`);
    if (f.short) parts.push(`-s ${f.short.slice(1)}`);
    if (f.long) parts.push(`-l ${f.long.slice(2)}`);
    const kind = f.complete;
    if (f.takesValue) parts.push(kind === "file" ? "-r -F" : kind ? `-x -a ${fishq(kind.join(" "))}` : "-x");
    if (f.description) parts.push(`-d ${fishq(f.description)}`);
    return parts.join(" ");
  };
  lines.push("", "# Global flags, offered after every command.");
  for (const f of globalFlags(nodes)) lines.push(flagLine(undefined, f));
  for (const n of nodes) {
    const cond = ["__edgectl_at", ...n.path].join(" ");
    const own = n.path.length === 0 ? [] : n.flags.filter((f) => f !== HELP);
    // Positional arguments: file names (-F), or the words of each one's set (at any position).
    const argLines = n.args.flatMap(({ complete }) =>
      complete === "file"
        ? [`complete -c edgectl -n ${fishq(cond)} -F`]
        : complete
          ? [`complete -c edgectl -n ${fishq(cond)} -f -a ${fishq(complete.join(" "))}`]
          : [],
    );
    if (!n.subcommands.length && !own.length && !argLines.length) continue;
    lines.push("", `# edgectl ${n.path.join(" ")}`.trimEnd());
    for (const sub of n.subcommands)
      lines.push(`complete -c edgectl -n ${fishq(cond)} -a ${fishq(sub.name)} -d ${fishq(sub.description)}`);
    for (const f of own) lines.push(flagLine(cond, f));
    lines.push(...new Set(argLines));
  }
  return `${lines.join("\n")}\n`;
}

import type { Command, Option } from "commander";
import { PROVIDERS } from "../../api/providers.js";
import { UsageError } from "../../errors.js";
import type { AppContext, Deps } from "../deps.js";

// Completion scripts are generated from the command tree itself, so a new command or flag
// completes without touching this file.

export type Shell = "bash" | "zsh" | "fish";

interface Node {
  path: string[];
  subcommands: string[];
  flags: string[];
  /** Flags whose next word is a value, so it is not taken for a command. */
  valueFlags: string[];
}

export function register(program: Command, app: AppContext): void {
  program
    .command("completion")
    .description("Print a shell completion script (bash, zsh or fish)")
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText(
      "after",
      `
Examples:
  $ source <(edgectl completion bash)                       # this shell only
  $ edgectl completion bash > ~/.local/share/bash-completion/completions/edgectl
  $ edgectl completion zsh > "\${fpath[1]}/_edgectl"
  $ edgectl completion fish > ~/.config/fish/completions/edgectl.fish`,
    )
    .action(async (shell: string, _opts: unknown, cmd: Command) => {
      if (shell !== "bash" && shell !== "zsh" && shell !== "fish") {
        throw new UsageError(`<shell>: "${shell}" is not supported; use bash, zsh or fish`);
      }
      await run({ shell }, await app.deps(cmd), program);
    });
}

export async function run(options: { shell: Shell }, deps: Pick<Deps, "io">, program: Command): Promise<void> {
  const nodes = collect(program, []);
  const script = options.shell === "fish" ? fish(nodes) : bash(nodes, options.shell === "zsh");
  deps.io.stdout.write(script);
}

function flagsOf(cmd: Command): string[] {
  return cmd.options.flatMap((o: Option) => [o.long, o.short]).filter((f): f is string => Boolean(f));
}

function collect(cmd: Command, path: string[]): Node[] {
  const subs = cmd.commands.filter((c) => c.name() !== "help");
  const valueFlags = cmd.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]).filter((f): f is string => Boolean(f));
  const node: Node = { path, subcommands: subs.map((c) => c.name()), flags: [...flagsOf(cmd), "--help"], valueFlags };
  return [node, ...subs.flatMap((c) => collect(c, [...path, c.name()]))];
}


function bash(nodes: Node[], zsh: boolean): string {
  const globals = nodes[0]!.flags;
  const valueTaking = [...new Set(nodes.flatMap((n) => n.valueFlags))];
  const cases = nodes
    .map((n) => {
      const words = [...n.subcommands, ...n.flags, ...(n.path.length ? globals : [])];
      return `    "${n.path.join(" ")}") words="${[...new Set(words)].join(" ")}" ;;`;
    })
    .join("\n");
  return `${zsh ? "#compdef edgectl\nautoload -U +X bashcompinit && bashcompinit\n" : ""}# edgectl completion for ${zsh ? "zsh" : "bash"}
_edgectl() {
  local cur prev path="" w i skip=0 words known="|${nodes.map((n) => n.path.join(" ")).join("|")}|"
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    --provider) COMPREPLY=($(compgen -W "${PROVIDERS.join(" ")}" -- "$cur")); return ;;
    -o|--output) COMPREPLY=($(compgen -W "table json" -- "$cur")); return ;;
    --secret-file|--input|--state) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    case "$w" in
      ${valueTaking.join("|")}) skip=1 ;;
      -*) ;;
      *) [[ "$known" == *"|\${path:+$path }$w|"* ]] && path="\${path:+$path }$w" ;;
    esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _edgectl edgectl
`;
}

function fish(nodes: Node[]): string {
  const lines = ["# edgectl completion for fish", "complete -c edgectl -f"];
  for (const n of nodes) {
    const cond =
      n.path.length === 0
        ? "__fish_use_subcommand"
        : `__fish_seen_subcommand_from ${n.path[n.path.length - 1]}`;
    for (const sub of n.subcommands) lines.push(`complete -c edgectl -n '${cond}' -a '${sub}'`);
    for (const flag of n.flags) {
      const spec = flag.startsWith("--") ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      lines.push(`complete -c edgectl -n '${cond}' ${spec}`);
    }
  }
  lines.push(`complete -c edgectl -l provider -x -a '${PROVIDERS.join(" ")}'`);
  lines.push(`complete -c edgectl -s o -l output -x -a 'table json'`);
  return `${lines.join("\n")}\n`;
}

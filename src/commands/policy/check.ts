// `policy check`: the validator of src/policy on a file or stdin, sending nothing and needing
// no API key. The problems are the command's result, so they go to stdout (as a linter's do);
// exit 2 says the input was refused, and stderr says how many problems there were.
import * as z from "zod/mini";
import { UsageError } from "../../errors.js";
import { escapeControl } from "../../text/escape.js";
import { renderData } from "../../output/print.js";
import { every, turn } from "../../io/checkpoint.js";
import type { Problem, Protocol, Target, Warning } from "../../policy/index.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { readTextSource, switchValue, UNSURE } from "../input.js";

const PROTOCOLS = ["https", "http", "tls", "tcp"] as const;

const args = {
  file: {
    arg: "<file>",
    help: "the policy (JSON or YAML), or - for stdin",
    complete: "file" as const,
    schema: () => z.string().check(z.minLength(1, "give a file, or - for stdin")),
    plain: (v: unknown) => (typeof v === "string" && v !== "" ? v : UNSURE),
  },
};
const flags = {
  protocol: {
    flag: "--protocol <protocol>",
    help: "the endpoint's protocol: https, http, tls or tcp",
    default: "https",
    schema: () => z.enum(PROTOCOLS, "must be https, http, tls or tcp"),
    plain: (v: unknown) => ((PROTOCOLS as readonly unknown[]).includes(v) ? (v as Protocol) : UNSURE),
    complete: PROTOCOLS,
  },
  internal: {
    flag: "--internal",
    help: "check for an internal endpoint (*.internal) instead of a public one",
    ...switchValue(),
  },
  agent: {
    flag: "--agent",
    help: "check for an agent endpoint (ngrok http --traffic-policy-file, an SDK, an AgentEndpoint): no terminating action required",
    ...switchValue(),
  },
  strict: {
    flag: "--strict",
    help: "treat warnings as problems",
    ...switchValue(),
  },
};
export type CheckOptions = OptionsOf<typeof args, typeof flags>;

export const check = defineCommand({
  name: "check",
  description: "Check a Traffic Policy for an endpoint (nothing is sent)",
  args,
  flags,
  about: `Checks the policy as the endpoint commands and the emulator do: its shape, the phases of the
endpoint's protocol, each action's phases and config, unreachable actions, and that a public
endpoint's policy ends in a terminating action every request reaches, and each CEL expression and
\${…} against ngrok's variables and functions. An agent endpoint's policy (--agent) need not end
in a terminating action. Prints "ok" and exits 0, or prints each problem as "<place>: <message>"
and exits 2. Warnings (what ngrok's own examples do but its reference does not say) go to stderr
as "warning: <place>: <message>" and change nothing, unless --strict makes them problems.`,
  examples: [
    "$ edgectl policy check policy.yml",
    "$ edgectl policy check tls-policy.json --protocol tls",
    "$ edgectl policy check internal.yml --internal",
    "$ edgectl policy check policy.yml --agent",
    "$ edgectl policy check policy.yml --strict     # warnings are problems",
    "$ edgectl policy check - -o json < policy.yml",
  ],
  run,
});

export async function run(options: CheckOptions, deps: Deps): Promise<void> {
  const text = await readTextSource(
    options.file,
    { label: "<file>", atTerminal: "<file>: stdin is a terminal; pipe the policy in, or name a file" },
    deps,
  );
  const where = options.file === "-" ? "stdin" : options.file;
  if (deps.settings.debug) deps.io.stderr.write(`debug: read ${text.length} characters from ${escapeControl(where)}\n`);
  // Each stage lets the event loop turn, and the check does after every 200 rules: a signal is
  // heard at once, and nothing is printed after it (src/io/checkpoint.ts).
  if (options.internal && options.agent)
    throw new UsageError("--internal and --agent: give one (an endpoint is of one kind)");
  await turn();
  const { parsePolicyText } = await import("../../policy/parse.js");
  const { validatePolicyInterruptibly } = await import("../../policy/index.js");
  const parsed = await parsePolicyText(text, every(1000));
  await turn();
  const kind = options.agent ? "agent" : options.internal ? "internal" : "public";
  const target: Target = { protocol: options.protocol, internal: options.internal, kind };
  const { problems, warnings } = parsed.ok
    ? await validatePolicyInterruptibly(parsed.document, target, every(), { strict: options.strict })
    : { problems: parsed.problems, warnings: [] as Warning[] };
  await turn();
  const { output } = deps.settings;
  // Warnings are not the result: stderr, one a line, whatever the output format.
  for (const w of warnings) deps.io.stderr.write(`warning: ${line(w)}`);
  const warned = warnings.map(({ path, message }) => ({ path, message }));
  if (problems.length === 0)
    return void deps.io.stdout.write(
      output === "table" ? "ok\n" : renderData(output, { valid: true, warnings: warned }),
    );
  deps.io.stdout.write(
    output === "table"
      ? problems.map(line).join("")
      : renderData(output, {
          valid: false,
          problems: problems.map(({ path, message }) => ({ path, message })),
          warnings: warned,
        }),
  );
  const article = kind === "agent" ? "an agent" : kind === "internal" ? "an internal" : "a public";
  throw new UsageError(
    `${where}: the policy has ${problems.length} problem${problems.length === 1 ? "" : "s"} (for ${article} ${options.protocol} endpoint)`,
  );
}

/** One problem a line; a value quoted in a message may hold control characters. */
export function line(p: Problem | Warning): string {
  return `${escapeControl(p.path === "" ? "(policy)" : p.path)}: ${escapeControl(p.message)}\n`;
}

// The Traffic Policy and URL a create, update or webhook-verification replace sends: read from
// a file or stdin, and checked by the validator before anything is sent.
import * as z from "zod/mini";
import type { Binding } from "../../api/endpoints.js";
import { UsageError } from "../../errors.js";
import { policySecretValues } from "../../output/policy-secrets.js";
import { checkEndpointUrl, checkPolicy, validatePolicy, type Problem } from "../../policy/index.js";
import { escapeControl } from "../../text/escape.js";
import type { Parsed } from "../../policy/parse.js";
import type { Deps } from "../deps.js";
import { readTextSource } from "../input.js";

export const urlFlag = (help: string) => ({ flag: "--url <url>", help, schema: () => z.optional(z.string()) });

export const policyFileFlag = (help: string) => ({
  flag: "--traffic-policy-file <file>",
  help,
  schema: () => z.optional(z.string()),
  complete: "file" as const,
});

/** The policy's text as given (YAML stays YAML), from a file or, for `-`, stdin. */
export function readPolicyText(source: string, deps: Pick<Deps, "io" | "readStdin">): Promise<string> {
  return readTextSource(
    source,
    {
      label: "--traffic-policy-file",
      atTerminal: "--traffic-policy-file -: stdin is a terminal; pipe the policy in, or give a file",
    },
    deps,
  );
}

/** A problem as the validator words it, with the flag it concerns. */
interface FlagProblem {
  /** What the problem is laid to: a flag, or the policy the endpoint keeps under a new --url. */
  flag: "--url" | "--traffic-policy-file" | "--url (the endpoint's policy)";
  path: string;
  message: string;
}

/**
 * Checks the URL (when given) and the policy text (when given) with the validator, for an
 * endpoint at `url` with that binding: every problem, or a UsageError listing them all (exit 2,
 * nothing sent). `url` is checked only when `urlGiven` (an update keeps the endpoint's own).
 */
export function checkEndpointInput(input: {
  url: string;
  urlGiven: boolean;
  binding: Binding;
  /** The policy, parsed once by the caller (parsePolicyText), which also takes its secrets. */
  policy?: Parsed;
  /** The policy comes from the endpoint, not a file: a new --url must suit it too. */
  policyKept?: boolean;
  /** Where the policy's warnings go (stderr, `warning: <flag>: <place>: <message>`), as policy check words them. */
  warn?: (line: string) => void;
}): void {
  const problems: FlagProblem[] = [];
  const add = (flag: FlagProblem["flag"], list: Problem[]) =>
    problems.push(...list.map((p) => ({ flag, path: p.path, message: p.message })));
  const url = checkEndpointUrl(input.url, input.binding);
  if (input.urlGiven) add("--url", url.problems);
  if (input.policy !== undefined) {
    const flag = input.policyKept ? "--url (the endpoint's policy)" : "--traffic-policy-file";
    const parsed = input.policy;
    if (!parsed.ok) add(flag, parsed.problems);
    else if (url.target) {
      const verdict = validatePolicy(parsed.document, url.target);
      add(flag, verdict.problems);
      for (const w of verdict.warnings)
        input.warn?.(
          `warning: ${flag}: ${escapeControl(w.path === "" ? "(policy)" : w.path)}: ${escapeControl(w.message)}\n`,
        );
    }
    // No protocol to check it for: what is wrong whatever the protocol (not an object) still is.
    else
      add(
        flag,
        checkPolicy(parsed.document, { protocol: "https", internal: input.binding === "internal" }).filter(
          (p) => p.path === "",
        ),
      );
  }
  if (problems.length === 0) return;
  // A URL problem's path is the URL itself: the flag says it.
  const lines = problems.map((p) => `${p.flag}: ${p.path && p.flag !== "--url" ? `${p.path}: ` : ""}${p.message}`);
  throw new UsageError(problems.length === 1 ? lines[0]! : `${problems.length} problems: ${lines.join("; ")}`, {
    problems,
  });
}

/** A parsed policy's secrets, redacted from --debug logs and messages. */
export function secretsOf(parsed: Parsed): string[] {
  return parsed.ok ? policySecretValues(parsed.document) : [];
}

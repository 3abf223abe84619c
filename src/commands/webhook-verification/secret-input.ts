// What both `replace` commands (an edge route's webhook verification module, an endpoint's
// verify-webhook action) take: the provider, and the secret from exactly one source.
import * as z from "zod/mini";
import {
  isProvider,
  PROVIDERS,
  providerNeedsSecret,
  suggestProvider,
  wrapList,
  type Provider,
} from "../../api-data/providers.js";
import { UsageError } from "../../errors.js";
import type { Deps } from "../deps.js";
import { readFileText, switchValue } from "../input.js";

const required = "required (e.g. github, stripe, slack, sns)";

/** Any letter case, sent in lower case; a near miss gets a "did you mean". */
const providerSchema = () =>
  z.pipe(
    z.transform((v: unknown) => (v === "" ? undefined : v)),
    z.pipe(
      z.string({ error: required }).check(
        z.refine((v) => isProvider(v.toLowerCase()), {
          error: (issue) => {
            const hint = suggestProvider(String(issue.input).toLowerCase());
            return `is not a supported provider; ${hint ? `did you mean "${hint}"? The` : "the"} ${PROVIDERS.length} providers:`;
          },
          params: { lines: wrapList(PROVIDERS), details: { providers: [...PROVIDERS] } },
        }),
      ),
      z.transform((v) => v.toLowerCase() as Provider),
    ),
  );

/** --provider and where the secret comes from: an edge route's module and an endpoint's verify-webhook alike. */
export const secretFlags = {
  provider: {
    flag: "--provider <name>",
    help: "webhook provider, e.g. github, stripe, slack, sns (any case)",
    schema: providerSchema,
    complete: PROVIDERS,
  },
  secretStdin: {
    flag: "--secret-stdin",
    help: "read the secret from stdin (one trailing newline dropped)",
    ...switchValue(),
  },
  secretFile: {
    flag: "--secret-file <path>",
    help: "read the secret from a file (one trailing newline dropped)",
    schema: () => z.optional(z.string()),
    complete: "file" as const,
  },
  secret: {
    flag: "--secret <value>",
    help: "the secret itself (visible in process lists: prefer the others)",
    schema: () => z.optional(z.string()),
  },
};

/** Where the secret may come from, as typed. */
interface SecretSources {
  secretStdin?: boolean;
  secretFile?: string;
  secret?: string;
}

/**
 * Exactly one source; sns takes none on an edge (a Traffic Policy's verify-webhook needs one for
 * every provider: `secretAlways`). A trailing newline (from echo or an editor) is dropped.
 */
export async function readSecret(
  flags: SecretSources,
  provider: Provider,
  deps: Pick<Deps, "env" | "readStdin" | "warn" | "io" | "cwd">,
  { secretAlways = false } = {},
): Promise<string | undefined> {
  const given = [
    flags.secretStdin ? "--secret-stdin" : undefined,
    flags.secretFile !== undefined ? "--secret-file" : undefined,
    flags.secret !== undefined ? "--secret" : undefined,
  ].filter((s): s is string => s !== undefined);
  if (given.length > 1) throw new UsageError(`${given.join(" and ")}: give the secret from only one source`);
  const source = given[0];
  if (!secretAlways && !providerNeedsSecret(provider)) {
    if (source) throw new UsageError(`${source}: provider sns (AWS SNS) takes no secret; remove it`);
    if (deps.env.EDGECTL_WEBHOOK_SECRET) deps.warn("EDGECTL_WEBHOOK_SECRET is ignored: provider sns takes no secret");
    return undefined;
  }
  let secret: string;
  if (source === "--secret-stdin") {
    if (deps.io.stdin.isTTY)
      throw new UsageError("--secret-stdin: stdin is a terminal; pipe the secret in, or use --secret-file");
    secret = dropNewline(await deps.readStdin("--secret-stdin"));
  } else if (source === "--secret-file") {
    // At most 16 MiB, as every file edgectl reads.
    secret = dropNewline(await readFileText(flags.secretFile!, "--secret-file", deps.cwd));
  } else if (source === "--secret") {
    secret = flags.secret!;
  } else if (deps.env.EDGECTL_WEBHOOK_SECRET !== undefined) {
    secret = deps.env.EDGECTL_WEBHOOK_SECRET;
  } else {
    throw new UsageError(
      `--secret-stdin, --secret-file, --secret: provider ${provider} needs a secret (or set EDGECTL_WEBHOOK_SECRET)`,
    );
  }
  if (secret === "") throw new UsageError(`${source ?? "EDGECTL_WEBHOOK_SECRET"}: the secret is empty`);
  return secret;
}

function dropNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}

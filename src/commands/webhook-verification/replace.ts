import type { Command } from "commander";
import * as z from "zod/mini";
import { providerNeedsSecret, isProvider, suggestProvider, type Provider } from "../../api/providers.js";
import {
  replaceWebhookVerification,
  webhookVerificationPath,
  type WebhookVerificationReplace,
} from "../../api/webhook-verification.js";
import { UsageError } from "../../errors.js";
import { escapeControl } from "../../output/escape.js";
import { maskSecret } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema, parseInput } from "../input.js";
import { ROUTE_LABELS, moduleRecord } from "./render.js";

const ReplaceOptions = z.object({
  edgeId: idSchema("edge"),
  routeId: idSchema("route"),
  provider: z.string(),
  secret: z.optional(z.string()),
  enabled: z.boolean(),
  showSecret: z.boolean(),
  dryRun: z.boolean(),
});
export type ReplaceOptions = z.infer<typeof ReplaceOptions> & { provider: Provider };

interface RawFlags {
  provider?: string;
  secretStdin?: boolean;
  secretFile?: string;
  secret?: string;
  disabled?: boolean;
  showSecret?: boolean;
  dryRun?: boolean;
}

export function register(parent: Command, app: AppContext): void {
  parent
    .command("replace")
    .description("Set the webhook verification module of an HTTPS edge route (provider + secret)")
    .argument("<edge-id>", "HTTPS edge id (edghts_…)")
    .argument("<route-id>", "route id (edghtsrt_…)")
    .option("--provider <name>", "webhook provider, e.g. github, stripe, slack, sns (any case)")
    .option("--secret-stdin", "read the secret from stdin (one trailing newline dropped)")
    .option("--secret-file <path>", "read the secret from a file (one trailing newline dropped)")
    .option("--secret <value>", "the secret itself (visible in process lists: prefer the others)")
    .option("--disabled", "store the module but leave verification off")
    .option("--show-secret", "print the secret instead of ********")
    .option("--dry-run", "print the request (secret redacted) instead of sending it")
    .addHelpText(
      "after",
      `
The secret comes from exactly one of --secret-stdin, --secret-file, --secret, or else
the EDGECTL_WEBHOOK_SECRET environment variable. sns (AWS SNS) takes no secret.

Examples:
  $ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-file ./gh.secret
  $ printf %s "$STRIPE_SECRET" | edgectl webhook-verification replace "$EDGE" "$ROUTE" --provider stripe --secret-stdin
  $ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider sns -o json | jq .enabled`,
    )
    .action(async (edgeId: string, routeId: string, flags: RawFlags, cmd: Command) => {
      const deps = await app.deps(cmd);
      const base = parseInput(
        ReplaceOptions,
        {
          edgeId,
          routeId,
          provider: flags.provider ?? "",
          enabled: !flags.disabled,
          showSecret: Boolean(flags.showSecret),
          dryRun: Boolean(flags.dryRun),
        },
        ROUTE_LABELS,
      );
      const provider = parseProvider(flags.provider);
      const secret = await readSecret(flags, provider, deps);
      await run({ ...base, provider, secret }, deps);
    });
}

export function parseProvider(value: string | undefined): Provider {
  if (value === undefined || value === "") throw new UsageError("--provider: required (e.g. github, stripe, slack, sns)");
  const lower = value.toLowerCase();
  if (isProvider(lower)) return lower;
  const hint = suggestProvider(lower);
  throw new UsageError(
    `--provider: "${escapeControl(value)}" is not a supported provider${hint ? `; did you mean "${hint}"?` : ""} (see \`edgectl webhook-verification replace --help\`)`,
  );
}

/** Exactly one source; sns takes none. A trailing newline (from echo or an editor) is dropped. */
export async function readSecret(flags: RawFlags, provider: Provider, deps: Pick<Deps, "env" | "readStdin" | "warn" | "io">): Promise<string | undefined> {
  const given = [
    flags.secretStdin ? "--secret-stdin" : undefined,
    flags.secretFile !== undefined ? "--secret-file" : undefined,
    flags.secret !== undefined ? "--secret" : undefined,
  ].filter((s): s is string => s !== undefined);
  if (given.length > 1) throw new UsageError(`${given.join(" and ")}: give the secret from only one source`);
  const source = given[0];
  if (!providerNeedsSecret(provider)) {
    if (source) throw new UsageError(`${source}: provider sns (AWS SNS) takes no secret; remove it`);
    if (deps.env.EDGECTL_WEBHOOK_SECRET) deps.warn("EDGECTL_WEBHOOK_SECRET is ignored: provider sns takes no secret");
    return undefined;
  }
  let secret: string;
  if (source === "--secret-stdin") {
    if (deps.io.stdin.isTTY) throw new UsageError("--secret-stdin: stdin is a terminal; pipe the secret in, or use --secret-file");
    secret = dropNewline(await deps.readStdin());
  } else if (source === "--secret-file") {
    try {
      secret = dropNewline(await (await import("node:fs/promises")).readFile(flags.secretFile!, "utf8"));
    } catch (err) {
      throw new UsageError(`--secret-file: cannot read ${escapeControl(flags.secretFile!)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  } else if (source === "--secret") {
    secret = flags.secret!;
  } else if (deps.env.EDGECTL_WEBHOOK_SECRET !== undefined) {
    secret = deps.env.EDGECTL_WEBHOOK_SECRET;
  } else {
    throw new UsageError(`--secret-stdin, --secret-file, --secret: provider ${provider} needs a secret (or set EDGECTL_WEBHOOK_SECRET)`);
  }
  if (secret === "") throw new UsageError(`${source ?? "EDGECTL_WEBHOOK_SECRET"}: the secret is empty`);
  return secret;
}

function dropNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}

export async function run(options: ReplaceOptions, deps: Deps): Promise<void> {
  const body: WebhookVerificationReplace = { enabled: options.enabled, provider: options.provider };
  if (options.secret !== undefined) body.secret = options.secret;
  const secrets = options.secret === undefined ? [] : [options.secret];
  if (options.dryRun) {
    return printDryRun(deps, "PUT", webhookVerificationPath(options.edgeId, options.routeId), maskSecret(body, false), secrets);
  }
  const module = await replaceWebhookVerification(deps.client({ secrets }), options.edgeId, options.routeId, body);
  const shown = maskSecret(module, options.showSecret);
  printResult(deps, shown, (color) => moduleRecord(shown, color));
}

// What `webhook sign` and `webhook verify` share: the provider's scheme (a provider of ngrok's list
// that edgectl cannot sign or verify is exit 2 naming it), the key (a secret from the sources of
// `webhook-verification replace`, or a key file), and the clock.
import * as z from "zod/mini";
import type { Provider } from "../../api-data/providers.js";
import { UsageError } from "../../errors.js";
import { escapeControl } from "../../text/escape.js";
import type { Scheme } from "../../webhooks/scheme.js";
import type { Deps } from "../deps.js";
import { readFileText, wholeNumber } from "../input.js";
import { readSecret } from "../webhook-verification/secret-input.js";

/** The scheme of `provider`, or exit 2 naming it. Loaded only when a command runs. */
export async function schemeOf(provider: Provider): Promise<Scheme> {
  const { schemeFor } = await import("../../webhooks/index.js");
  const scheme = schemeFor(provider);
  if (scheme === undefined)
    throw new UsageError(
      `--provider: edgectl cannot sign or verify ${provider} webhooks: it implements no scheme for ${provider} (see edgectl webhook providers)`,
    );
  return scheme;
}

/** A Unix time in seconds, as `--timestamp` and `--now` take it. */
export const unixSeconds = () =>
  z.optional(wholeNumber(0, 99_999_999_999, { message: "must be a Unix time in seconds" }));

/** Now, in whole seconds, from the injected clock. */
export const nowSeconds = (deps: Pick<Deps, "now">): number => Math.floor((deps.now?.() ?? Date.now()) / 1000);

export interface KeySources {
  secretStdin: boolean;
  secretFile?: string;
  secret?: string;
}

export const secretGiven = (s: KeySources): boolean =>
  s.secretStdin || s.secretFile !== undefined || s.secret !== undefined;

/** The shared secret of a secret scheme (every source, EDGECTL_WEBHOOK_SECRET included). */
export function readSchemeSecret(sources: KeySources, provider: Provider, deps: Deps): Promise<string | undefined> {
  return readSecret(sources, provider, deps, { secretAlways: true });
}

/** A PEM (or the provider's own format) key file's text, at most 16 MiB. */
export async function readKeyFile(path: string, label: string, cwd?: string): Promise<string> {
  const text = await readFileText(path, label, cwd);
  if (text.trim() === "") throw new UsageError(`${label}: ${escapeControl(path)} is empty`);
  return text;
}

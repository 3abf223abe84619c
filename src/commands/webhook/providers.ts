// `webhook providers`: every provider of ngrok's list (src/api-data/providers.ts), whether edgectl
// signs and verifies its deliveries (a scheme in src/webhooks/), with what key, in which headers,
// within what tolerance, and where the scheme comes from. Sends nothing.
import { PROVIDERS } from "../../api-data/providers.js";
import { printResult } from "../../output/print.js";
import { renderRows } from "../../output/table.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";

export const providers = defineCommand({
  name: "providers",
  description: "List ngrok's webhook providers: which edgectl signs and verifies, their headers and sources",
  about: `Every provider ngrok's verify-webhook action and webhook verification module accept. SIGNS
says whether \`edgectl webhook sign\` and \`webhook verify\` implement its scheme, as the provider
documents it; SOURCE is where that scheme comes from (-o json lists every source).`,
  examples: [
    "$ edgectl webhook providers",
    "$ edgectl webhook providers -o json | jq -r '.[] | select(.signs) | .provider'",
  ],
  run: (_options, deps) => run(deps),
});

export interface ProviderRow {
  provider: string;
  name: string | null;
  signs: boolean;
  key: string | null;
  headers: string[];
  tolerance_seconds: number | null;
  sources: string[];
}

export async function run(deps: Deps): Promise<void> {
  const { schemeFor } = await import("../../webhooks/index.js");
  const rows: ProviderRow[] = PROVIDERS.map((provider) => {
    const scheme = schemeFor(provider);
    return {
      provider,
      name: scheme?.name ?? null,
      signs: scheme !== undefined,
      key: scheme?.key ?? null,
      headers: [...(scheme?.headers ?? [])],
      tolerance_seconds: scheme?.toleranceSeconds ?? null,
      sources: [...(scheme?.sources ?? [])],
    };
  });
  printResult(deps, rows, (style) =>
    renderRows(
      ["PROVIDER", "SIGNS", "KEY", "HEADERS", "TOLERANCE", "SOURCE"],
      rows.map((r) => [
        r.provider,
        r.signs ? "yes" : "no",
        r.key ?? "",
        r.headers.join(", "),
        r.tolerance_seconds === null ? "" : `${r.tolerance_seconds} s`,
        r.sources[0] ?? "",
      ]),
      style,
      ["PROVIDER"],
    ),
  );
}

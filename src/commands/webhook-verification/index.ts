import type { Command } from "commander";
import type { Deps } from "../deps.js";
import { del } from "./delete.js";
import { get } from "./get.js";
import { replace } from "./replace.js";

export function registerWebhookVerification(program: Command, f: Deps): void {
  const noun = program
    .command("webhook-verification")
    .description("Manage the webhook verification module of HTTPS edge routes")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-file ./gh.secret
  $ edgectl webhook-verification get edghts_1 edghtsrt_1 -o json | jq -r .provider
  $ edgectl webhook-verification delete edghts_1 edghtsrt_1 --yes`,
    );
  for (const verb of [replace, get, del]) verb.register(noun, f);
}

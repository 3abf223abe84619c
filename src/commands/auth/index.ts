import type { Command } from "commander";
import type { Deps } from "../deps.js";
import { login } from "./login.js";
import { logout } from "./logout.js";
import { status } from "./status.js";

export function registerAuth(program: Command, f: Deps): void {
  const noun = program
    .command("auth")
    .description("Log in, check and log out (the API key of a profile)")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl auth login
  $ printenv NGROK_API_KEY | edgectl auth login --with-token --profile ci
  $ edgectl auth status -o json | jq -r .api_key_source`,
    );
  for (const verb of [login, status, logout]) verb.register(noun, f);
}

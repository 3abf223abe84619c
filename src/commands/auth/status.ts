import { AuthError } from "../../errors.js";
import { printResult } from "../../output/print.js";
import { renderRecord } from "../../output/table.js";
import { configPath } from "../../settings/config-file.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { maskKey } from "./mask.js";

export const status = defineCommand({
  name: "status",
  description: "Show the active profile, base URL and API key (masked) and where the key came from",
  examples: ["$ edgectl auth status", "$ edgectl auth status -o json | jq -r .api_key_source"],
  run: (_options, deps) => run(deps),
});

export async function run(deps: Deps): Promise<void> {
  const { settings } = deps;
  if (!settings.apiKey) {
    throw new AuthError(
      `no API key for profile "${settings.profile}": run \`edgectl auth login\`, or set EDGECTL_API_KEY`,
    );
  }
  const status = {
    profile: settings.profile,
    base_url: settings.baseUrl,
    api_key: maskKey(settings.apiKey),
    api_key_source: settings.apiKeySource,
    config_path: configPath(deps.env),
  };
  printResult(deps, status, (color) =>
    renderRecord(
      [
        ["PROFILE", status.profile],
        ["BASE URL", status.base_url],
        ["API KEY", status.api_key],
        ["KEY FROM", status.api_key_source ?? ""],
        ["CONFIG FILE", status.config_path],
      ],
      color,
    ),
  );
}

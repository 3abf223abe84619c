// The command tree. Each noun registers its verbs; each verb lives in its own file.
import { Command, Option } from "commander";
import { VERSION } from "../version.js";
import type { Deps } from "./deps.js";
import { api } from "./api/api.js";
import { registerAuth } from "./auth/index.js";
import { completion } from "./completion/completion.js";
import { registerConfig } from "./config/index.js";
import { emulator } from "./emulator/index.js";
import { exportCommand } from "./export/export.js";
import { registerFailover } from "./failover/index.js";
import { registerMigrate } from "./migrate/index.js";
import { registerWebhookVerification } from "./webhook-verification/index.js";

export function buildProgram(f: Deps): Command {
  const program = new Command("edgectl")
    .description("Manage ngrok Failover backends and HTTPS edge webhook verification")
    .version(VERSION, "-v, --version", "print the version")
    .addOption(new Option("--api-key <key>", "API key (visible in process lists: prefer EDGECTL_API_KEY or `auth login`)"))
    .addOption(new Option("--base-url <url>", "API base URL (default https://api.ngrok.com)"))
    .addOption(new Option("--profile <name>", "config profile (default \"default\")"))
    .addOption(new Option("-o, --output <format>", "output format: table or json"))
    .addOption(new Option("--json", "same as --output json"))
    .addOption(new Option("--timeout <seconds>", "time limit for the whole request, retries included (default 30)"))
    .addOption(new Option("--retries <n>", "retries for failed idempotent requests (default 3)"))
    .addOption(new Option("--debug", "log each request and response to stderr (secrets redacted)"))
    .addOption(new Option("--no-color", "never use color"))
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Examples:
  # a local stand-in for the API
  $ edgectl emulator --port 0
  $ edgectl failover create --backends bkdhr_abc,bkdtg_def --description "eu pair"
  $ edgectl failover get bkdfo_123 -o json | jq -r '.backends[0]'
  $ echo "$SECRET" | edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-stdin
  # leaving Edges: back up, review the plan, then create the Cloud Endpoints
  $ edgectl export > edges-backup.json
  $ edgectl migrate edge edghts_1
  $ edgectl migrate edge edghts_1 --apply

Settings: flag > environment (EDGECTL_*) > profile in the config file > default.
Exit codes: 0 ok, 1 API error, 2 usage, 3 no usable answer, 4 auth, 130 interrupted.`,
    );
  registerFailover(program, f);
  registerWebhookVerification(program, f);
  exportCommand.register(program, f);
  registerMigrate(program, f);
  registerAuth(program, f);
  registerConfig(program, f);
  api.register(program, f);
  emulator.register(program, f);
  completion.register(program, f);
  return program;
}
